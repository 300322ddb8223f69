//! Traces: each request continues the caller's W3C trace (or starts one) and passes it on
//! to every call it makes, a loader's API calls and the proxy's upstream requests, with a
//! new parent id each; the logs carry its trace id. With `--otlp-endpoint`, the spans of a
//! request (for a page: its queue wait, render, loader calls, streaming and coding) go to a
//! collector in OTLP; without it, nothing is recorded. `server_timing` writes what the
//! browser's developer tools show of a page's time.

mod answered;
mod context;
mod export;
mod middleware;
mod record;
pub mod server_timing;
mod span;
mod upstream;

pub use context::{SpanId, TraceId};
pub use export::{EXPORT_TIMEOUT, Exporter, traces_url};
pub use middleware::Tracing;
pub use record::{Span, Trace};
pub use span::{Kind, Value};
pub use upstream::UpstreamCall;

/// Marks a request whose `traceparent` the host wrote itself (a loader's API call): the
/// proxy passes it on as it is, the call's own span being the upstream's parent.
#[derive(Clone, Copy, Debug)]
pub struct Propagated;
