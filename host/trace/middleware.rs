//! The layer that gives every request its trace: the caller's continued, or a new one. The
//! handlers find it in the request's extensions; whatever is logged while the request is
//! answered, its body included, carries its trace id.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument as _;

use super::answered::{Summary, Traced};
use super::context::TraceContext;
use super::export::Exporter;
use super::record::Trace;

/// Where spans go (`--otlp-endpoint`); `None`: nowhere, and none are recorded.
#[derive(Clone, Default)]
pub struct Tracing {
    pub exporter: Option<Arc<Exporter>>,
}

pub async fn trace_request(
    State(tracing): State<Tracing>,
    mut request: Request,
    next: Next,
) -> Response {
    let trace = Trace::new(
        TraceContext::from_headers(request.headers()),
        tracing.exporter.as_ref(),
    );
    let span = tracing::info_span!("request", trace_id = %trace.id());
    let asked = trace
        .recording()
        .then(|| (request.method().clone(), request.uri().path().to_owned()));
    request.extensions_mut().insert(trace.clone());
    let response = next.run(request).instrument(span.clone()).await;
    let (parts, body) = response.into_parts();
    let summary = asked.map(|(method, path)| Summary {
        method,
        path,
        status: parts.status,
    });
    Response::from_parts(parts, Body::new(Traced::new(body, span, &trace, summary)))
}
