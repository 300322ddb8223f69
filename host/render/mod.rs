//! Server rendering: a pool of render threads, each owning one long-lived V8 runtime with
//! the server bundle loaded once, fed through a bounded channel. The rest of the host sees
//! one typed call, [`RenderPool::render`], and never blocks a tokio worker on V8.
//!
//! A page whose screen loads data asks, through the bundle, for API calls; the render
//! thread has them made elsewhere (an [`ApiCaller`], on the host's tokio runtime) and
//! renders other pages meanwhile, then hands the answers back to the bundle
//! (`app/server/exchange.ts` is the other side).

mod budget;
mod bundle;
mod c_heap;
mod client_left;
pub(crate) mod contract;
mod error;
mod exchange;
mod outbox_ops;
mod page;
mod pool;
mod readiness;
mod runtime;
mod shared_source;
mod shell_hold;
mod shells;
mod stream;
mod thread;
mod v8_flags;
mod warm_up;
mod watchdog;

pub use bundle::Bundle;
pub use client_left::ClientLeft;
pub use contract::{ApiAnswer, ApiCall, BootState, PageSharing, Rendered, contract_stamp};
pub use error::RenderError;
pub use page::{ApiCaller, CallOutcome, Page, PageRenderer, Rendering, Visitor};
pub use pool::{PoolOptions, RenderPool};
pub use readiness::Readiness;
pub use runtime::Limits;
pub use stream::{Stream, StreamEvent, StreamHead};
pub use thread::PoolStats;

/// Initialises the V8 platform. Call once, on the main thread, before any other thread
/// starts (V8 crashes otherwise on CPUs with memory protection keys).
pub fn init_v8() {
    v8_flags::set_once();
    deno_core::JsRuntime::init_platform(None);
}
