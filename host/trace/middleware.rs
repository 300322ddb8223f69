//! Every request's trace: the caller's continued, or a new one (`every_answer`
//! begins and ends it). The handlers find it in the request's extensions; whatever is
//! logged while the request is answered, its body included, carries its trace id.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;

use super::answered::{Summary, Traced};
use super::context::TraceContext;
use super::export::Exporter;
use super::record::Trace;

/// Where spans go (`--otlp-endpoint`); `None`: nowhere, and none are recorded.
#[derive(Clone, Default)]
pub struct Tracing {
    pub exporter: Option<Arc<Exporter>>,
}

/// A request's trace, begun as it comes in (see [`Tracing::begin`]).
pub struct Begun {
    trace: Trace,
    span: tracing::Span,
    asked: Option<(axum::http::Method, String)>,
}

impl Tracing {
    /// Gives `request` its trace, the caller's continued or a new one, in its extensions.
    pub fn begin(&self, request: &mut Request) -> Begun {
        let trace = Trace::new(
            TraceContext::from_headers(request.headers()),
            self.exporter.as_ref(),
        );
        let span = tracing::info_span!("request", trace_id = %trace.id());
        let asked = trace
            .recording()
            .then(|| (request.method().clone(), request.uri().path().to_owned()));
        request.extensions_mut().insert(trace.clone());
        Begun { trace, span, asked }
    }
}

impl Begun {
    /// What whatever is logged while the request is answered runs in.
    pub fn span(&self) -> &tracing::Span {
        &self.span
    }

    /// The answer, whose body ends the request's span when it has been sent.
    pub fn end(self, response: Response) -> Response {
        let (parts, body) = response.into_parts();
        let summary = self.asked.map(|(method, path)| Summary {
            method,
            path,
            status: parts.status,
        });
        let traced = Traced::new(body, self.span, &self.trace, summary);
        Response::from_parts(parts, Body::new(traced))
    }
}
