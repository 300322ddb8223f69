//! Server rendering: a pool of render threads, each owning one long-lived V8 runtime with
//! the server bundle loaded once, fed through a bounded channel. The rest of the host sees
//! one typed call, [`RenderPool::render`], and never blocks a tokio worker on V8.

mod pool;
mod runtime;
mod watchdog;

pub use pool::{PoolOptions, PoolStats, RenderPool};
pub use runtime::Limits;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::Language;

/// Initialises the V8 platform. Call once, on the main thread, before any other thread
/// starts (V8 crashes otherwise on CPUs with memory protection keys).
pub fn init_v8() {
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

/// The state a page boots with, written by the host once: the bundle renders from it and
/// the client hydrates with it, as the same JSON (`BootState` in `app/boot.ts`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BootState {
    pub language: Language,
    /// The path without its language prefix: it picks the screen.
    pub path: String,
    /// The IANA time zone dates are shown in, on the server and in the browser alike.
    pub time_zone: Arc<str>,
}

/// What the server bundle answers (`RenderResult` in `app/boot.ts`).
#[derive(Debug, Deserialize)]
pub struct Rendered {
    pub status: u16,
    pub title: String,
    pub html: String,
    /// The render depends only on (path, language, build): the page may be cached.
    pub cacheable: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the V8 runtime could not start: {0}")]
    Start(String),
    #[error("the server bundle failed: {0}")]
    Script(String),
    #[error("the server bundle answered something that is not a render result: {0}")]
    Answer(String),
    #[error("the render threads are gone")]
    PoolClosed,
    #[error("the render queue is full")]
    Busy,
    #[error("the render ran past --render-timeout and was stopped")]
    TimedOut,
    #[error("the warm-up did not finish within --warm-up-timeout ({0:?})")]
    WarmUpTimedOut(std::time::Duration),
    #[error("the render reached --render-heap-mb and was stopped; the runtime is replaced")]
    HeapExhausted,
}
