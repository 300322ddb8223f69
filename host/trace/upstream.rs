//! The proxy's request to the API upstream, as the trace sees it: a browser's `/api` call
//! gets a span of its own, whose id the upstream gets as its parent; a loader's call comes
//! with its `traceparent` written already (its own span), which goes on as it is. Whatever
//! trace headers the client sent are replaced either way.

use std::time::Instant;

use axum::http::{Extensions, HeaderMap, Method, StatusCode};

use super::Propagated;
use super::context::SpanId;
use super::record::{Span, Trace};
use super::span::{Kind, Value};

pub struct UpstreamCall {
    trace: Trace,
    /// `None`: a loader's call, whose own span is the upstream's parent.
    span: Option<SpanId>,
    started: Instant,
    method: Method,
}

impl UpstreamCall {
    /// Writes the trace headers of the request that goes upstream, in `headers`.
    pub fn start(extensions: &Extensions, method: &Method, headers: &mut HeaderMap) -> Self {
        let trace = extensions
            .get::<Trace>()
            .cloned()
            .unwrap_or_else(Trace::untraced);
        let span = match extensions.get::<Propagated>() {
            Some(Propagated) => None,
            None => {
                let span = SpanId::random();
                trace.context().propagate(span, headers);
                Some(span)
            }
        };
        Self {
            trace,
            span,
            started: Instant::now(),
            method: method.clone(),
        }
    }

    /// The upstream answered with `status` (`None`: it did not, or not in time).
    pub fn end(self, status: Option<StatusCode>) {
        let Some(id) = self.span.filter(|_| self.trace.recording()) else {
            return;
        };
        let mut span = Span {
            id,
            kind: Kind::Client,
            failed: status.is_none_or(|status| status.is_server_error()),
            ..Span::internal("api upstream", self.started, Instant::now())
        }
        .with("http.request.method", Value::Text(self.method.to_string()));
        if let Some(status) = status {
            span = span.with(
                "http.response.status_code",
                Value::Number(i64::from(status.as_u16())),
            );
        }
        self.trace.record(span);
    }
}
