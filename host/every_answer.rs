//! What every answer of the public routes goes through, in one layer: its trace, its
//! count (and access log line), the request limits, the drain's `Connection: close`, its
//! purge keys, a panicking handler's 500, the security headers and `--no-index`.
//!
//! One layer rather than one per concern: each of axum's `from_fn` layers cloned the
//! service inside it and boxed its future on every request. Merged, `/api/status` took
//! 14.7 µs of CPU a request instead of 17.7, and the uncached home page's tokio workers
//! 28-30 µs a page instead of 38-43 (docs/performance.md). Each concern keeps its code where
//! it lives (`trace`, `metrics`, `limits`, `purge_keys`, `panics`, `security`, `crawlers`);
//! this is only their order.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, Version, header};
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument as _;

use crate::metrics::Observe;
use crate::purge_keys::PurgeKeys;
use crate::server::Lifecycle;
use crate::server::limits;
use crate::server::panics::{self, CurrentTexts};
use crate::trace::Tracing;

/// What the layer needs of the host.
pub struct EveryAnswer {
    pub texts: CurrentTexts,
    pub purge_keys: Arc<PurgeKeys>,
    pub lifecycle: Arc<Lifecycle>,
    pub observe: Observe,
    pub tracing: Tracing,
    /// `--no-index`.
    pub no_index: bool,
}

/// The layer. From the outside in: the security headers (and `--no-index`), the trace, the
/// count, the limits (a refusal goes back from there), the drain, the purge keys, the 500.
pub async fn around(
    State(every): State<Arc<EveryAnswer>>,
    mut request: Request,
    next: Next,
) -> Response {
    let trace = every.tracing.begin(&mut request);
    let span = trace.span().clone();
    let response = counted(&every, request, next).instrument(span).await;
    let mut response = trace.end(response);
    let headers = response.headers_mut();
    crate::security::secure(headers);
    if every.no_index {
        crate::crawlers::mark_no_index(headers);
    }
    response
}

/// The answer to `request`, counted.
async fn counted(every: &EveryAnswer, request: Request, next: Next) -> Response {
    let observing = every.observe.begin(&request);
    let response = match limits::refusal(&request) {
        Some(refusal) => refusal,
        None => answered(every, request, next).await,
    };
    every.observe.end(observing, &response);
    response
}

/// The handler's answer to a request within the limits (or its 500), with its purge keys
/// and, in a drain, `Connection: close` on HTTP/1.
async fn answered(every: &EveryAnswer, request: Request, next: Next) -> Response {
    let http1 = request.version() < Version::HTTP_2;
    let naming = every.purge_keys.begin(&request);
    let uri = request.uri().clone();
    let mut response = panics::or_500(&every.texts, uri, next.run(request)).await;
    every.purge_keys.end(naming, &mut response);
    if http1 && every.lifecycle.draining() {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}
