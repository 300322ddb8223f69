//! What a render is asked with and gives, shared by the pool, its threads and the page
//! handler: who asked ([`Visitor`]), the page or its stream ([`Rendering`]), a loader's
//! call made elsewhere ([`ApiCaller`], [`CallOutcome`]), and the one call the page handler
//! renders through ([`PageRenderer`]).

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use axum::http::HeaderValue;

use super::client_left::ClientLeft;
use super::contract::{ApiAnswer, ApiCall, BootState, Rendered};
use super::error::RenderError;
use super::stream::Stream;
use crate::data_keys::DataKeys;
use crate::trace::Trace;

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
    /// The page's language as the API is asked in it (`Accept-Language`), whatever the
    /// visitor's browser prefers, so that the data follows what the page is cached by.
    pub accept_language: HeaderValue,
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
