//! Server rendering: a pool of render threads, each owning one long-lived V8 runtime with
//! the server bundle loaded once, fed through a bounded channel. The rest of the host sees
//! one typed call, [`RenderPool::render`], and never blocks a tokio worker on V8.
//!
//! A page whose screen loads data asks, through the bundle, for API calls; the render
//! thread has them made elsewhere (an [`ApiCaller`], on the host's tokio runtime) and
//! renders other pages meanwhile, then hands the answers back to the bundle
//! (`app/server/exchange.ts` is the other side).

mod budget;
mod client_left;
pub(crate) mod contract;
mod exchange;
mod handed;
mod identity;
mod markup_op;
mod pool;
mod readiness;
mod runtime;
mod shells;
mod stream;
mod thread;
mod v8_flags;
mod warm_up;
mod watchdog;

pub use client_left::ClientLeft;
pub use contract::{ApiAnswer, ApiCall, BootState, PageIdentity, PageSharing, Rendered};
pub use identity::is_route_name;
pub use pool::{PoolOptions, RenderPool};
pub use readiness::Readiness;
pub use runtime::Limits;
pub use stream::{Stream, StreamEvent, StreamHead};
pub use thread::PoolStats;

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use axum::http::HeaderValue;

use crate::data_keys::DataKeys;
use crate::lang::Language;
use crate::trace::Trace;

/// Initialises the V8 platform. Call once, on the main thread, before any other thread
/// starts (V8 crashes otherwise on CPUs with memory protection keys).
pub fn init_v8() {
    v8_flags::set_once();
    deno_core::JsRuntime::init_platform(None);
}

/// The server bundle a render thread starts from. A process uses one kind only: V8 shares
/// one read-only heap between its isolates, and isolates made from the build's snapshot
/// cannot live beside isolates made without it.
#[derive(Debug, Clone)]
pub enum Bundle {
    /// A V8 startup snapshot with the bundle already evaluated (made by build.rs).
    Snapshot(&'static [u8]),
    /// The bundle's source, evaluated when a runtime starts (tests and development).
    Script(std::sync::Arc<str>),
}

/// What a render gives: the whole page, or, for a page that waits for data and may be
/// streamed, its stream, which starts with its head.
#[derive(Debug)]
pub enum Rendering {
    Complete(Page),
    Streaming(Stream),
}

/// A rendered page, whether it holds data that is the visitor's alone, and what its data
/// names for a purge.
#[derive(Debug)]
pub struct Page {
    pub rendered: Rendered,
    /// A loader's call carried a Cookie or an Authorization, or its answer set a cookie:
    /// the page is never cached, by the host or by anyone else.
    pub per_visitor: bool,
    /// The keys its loader's answers named (`data_keys`).
    pub data_keys: DataKeys,
}

/// Who asked for a page: what a loader's API calls may carry for them, as the browser's own
/// calls would.
#[derive(Debug, Clone)]
pub struct Visitor {
    /// Their cookies but the saved language choice (the host's, not the API's); `None` when
    /// no other cookie was sent.
    pub cookie: Option<HeaderValue>,
    pub authorization: Option<HeaderValue>,
    /// The page's language: the API is asked in it (`Accept-Language`), whatever the
    /// visitor's browser prefers, so that the data follows what the page is cached by.
    pub language: Language,
    pub peer: Option<SocketAddr>,
    /// The page request's trace: each call carries it on, and the render marks when it
    /// left the queue.
    pub trace: Trace,
}

/// A call's answer; whether the call made the page its visitor's alone: the request that
/// reached the API carried a Cookie or an Authorization, or the answer set a cookie; and
/// the keys the answer named for its data (its `Surrogate-Key`).
#[derive(Debug)]
pub struct CallOutcome {
    pub answer: ApiAnswer,
    pub per_visitor: bool,
    pub data_keys: DataKeys,
}

/// Makes a page's API calls, off the render thread; `answer` is called once with the
/// outcome, which must come by `deadline`, or as soon as the page's client has `left`.
pub trait ApiCaller: Send + Sync + 'static {
    fn call(
        &self,
        call: ApiCall,
        visitor: Arc<Visitor>,
        deadline: Instant,
        left: ClientLeft,
        answer: Box<dyn FnOnce(CallOutcome) + Send>,
    );
}

/// What the page handler renders through: the render threads ([`RenderPool`]), or, in a
/// test of the routes, a stand-in with no V8 at all.
pub trait PageRenderer: Send + Sync {
    /// Renders `boot` for `visitor`; its data must come by `deadline`. With
    /// `stream_nonce`, a page that waits for data may come as a stream, its inline scripts
    /// carrying that nonce. `may_wait`: the page may wait for data (its route has a
    /// loader), and takes its part of the loading budget.
    fn render<'a>(
        &'a self,
        boot: &'a BootState,
        visitor: Visitor,
        deadline: Instant,
        stream_nonce: Option<String>,
        may_wait: bool,
    ) -> Pin<Box<dyn Future<Output = Result<Rendering, RenderError>> + Send + 'a>>;
}

impl PageRenderer for RenderPool {
    fn render<'a>(
        &'a self,
        boot: &'a BootState,
        visitor: Visitor,
        deadline: Instant,
        stream_nonce: Option<String>,
        may_wait: bool,
    ) -> Pin<Box<dyn Future<Output = Result<Rendering, RenderError>> + Send + 'a>> {
        Box::pin(async move {
            let rendering =
                RenderPool::render(self, boot, visitor, deadline, stream_nonce, may_wait).await?;
            let page = match &rendering {
                Rendering::Complete(page) => &page.rendered.page,
                Rendering::Streaming(stream) => &stream.head.page,
            };
            // Which languages a page must have a path in is its site's, known here only.
            match page.problem_in(boot.language.languages()) {
                Some(problem) => Err(RenderError::Unreadable(format!(
                    "the page's identity: {problem}"
                ))),
                None => Ok(rendering),
            }
        })
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum RenderError {
    #[error("the V8 runtime could not start: {0}")]
    Start(String),
    #[error("the server bundle failed: {0}")]
    Script(String),
    /// What the bundle wrote cannot be read as the contract says.
    #[error("the server bundle answered something that is not a render result: {0}")]
    Unreadable(String),
    #[error("the render threads are gone")]
    PoolClosed,
    #[error("the render thread stopped (a panic) before the page was done")]
    ThreadLost,
    #[error("the render queue is full")]
    Busy,
    #[error("the render ran past --render-timeout and was stopped")]
    TimedOut,
    #[error("the warm-up did not finish within --warm-up-timeout ({0:?})")]
    WarmUpTimedOut(std::time::Duration),
    #[error("the render reached --render-heap-mb and was stopped; the runtime is replaced")]
    HeapExhausted,
}
