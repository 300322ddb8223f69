//! The end of a request is the end of its answer's body, not of its handler: a streamed page
//! is sent long after the handler returned. An answer's body is wrapped so that whatever is
//! logged while it is produced carries the request's trace id, and so that the request's
//! span ends (and its spans leave) when the last byte has gone or the client left.

use std::borrow::Cow;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{Method, StatusCode};
use http_body::{Body as _, Frame, SizeHint};

use super::record::Trace;
use super::span::Value;

/// What the request's span says of it.
pub struct Summary {
    pub method: Method,
    pub path: String,
    pub status: StatusCode,
}

/// An answer's body, in its request's log span; it ends the request's trace when done.
pub struct Traced {
    body: Body,
    span: tracing::Span,
    /// Until the trace is finished: the trace, and what its span says.
    ending: Option<(Trace, Summary)>,
}

impl Traced {
    /// `trace` is finished with the body when it records spans (`summary` is then given);
    /// otherwise only the log span goes with the body.
    pub fn new(body: Body, span: tracing::Span, trace: &Trace, summary: Option<Summary>) -> Self {
        Self {
            body,
            span,
            ending: summary.map(|summary| (trace.clone(), summary)),
        }
    }

    fn finish(&mut self, completed: bool) {
        if let Some((trace, summary)) = self.ending.take() {
            let name = Cow::Owned(summary.method.to_string());
            let status = summary.status.as_u16();
            let mut attributes = vec![
                (
                    "http.request.method",
                    Value::Text(summary.method.to_string()),
                ),
                ("url.path", Value::Text(summary.path)),
                (
                    "http.response.status_code",
                    Value::Number(i64::from(status)),
                ),
            ];
            if !completed {
                attributes.push(("bilingue.body", Value::Text("not finished".into())));
            }
            trace.finish(name, attributes, status >= 500);
        }
    }
}

impl http_body::Body for Traced {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        let polled = {
            let _in_request = this.span.enter();
            Pin::new(&mut this.body).poll_frame(cx)
        };
        match &polled {
            Poll::Ready(None) => this.finish(true),
            Poll::Ready(Some(Err(_))) => this.finish(false),
            _ => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

impl Drop for Traced {
    fn drop(&mut self) {
        // A body known to be empty is never polled; one cut short is dropped unfinished.
        let completed = self.body.is_end_stream();
        self.finish(completed);
    }
}
