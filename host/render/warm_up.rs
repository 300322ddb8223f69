//! A render thread's warm-up: a fresh runtime renders every warm-up request before the
//! thread takes a job. It proves the bundle and the options (the time zone) work, and warms
//! V8, before the first visitor comes. It has its own deadline, `--warm-up-timeout`, not
//! `--render-timeout`: a busy machine or a small CPU quota makes it slow, not fatal. A fault
//! a fresh runtime can cure (the heap limit, a runtime that would not start) is retried
//! until the deadline; a bundle that cannot render (it throws, or answers nonsense) fails
//! at once, with its message.

use std::thread;
use std::time::{Duration, Instant};

use super::bundle::Bundle;
use super::error::RenderError;
use super::exchange::{OutboxEntry, check_status, write_log};
use super::runtime::{Limits, Renderer};

/// What a runtime renders before it serves, and within how long.
pub(super) struct WarmUp {
    /// The warm-up pages' render requests, as JSON.
    pub requests: Vec<String>,
    pub timeout: Duration,
    pub limits: Limits,
}

/// A fresh runtime that has rendered every warm-up request (pages without loaders, done at
/// once). Each render may take all the time left to the deadline: a starved CPU is slow,
/// and starting over would only lose what it did. A runtime that fails in a way a fresh
/// one can cure is replaced and the warm-up tried again; the bundle's own failures are
/// final.
pub(super) fn warm_up(warm_up: &WarmUp, bundle: &Bundle) -> Result<Renderer, RenderError> {
    let deadline = Instant::now() + warm_up.timeout;
    loop {
        let attempt = Renderer::new(bundle, warm_up.limits).and_then(|mut renderer| {
            for request in &warm_up.requests {
                let left = deadline.saturating_duration_since(Instant::now());
                let handed = renderer.start(request, 0, Some(left))?;
                let mut finished = None;
                for entry in handed.0.into_iter().map(OutboxEntry::read) {
                    match entry {
                        OutboxEntry::Log { level, message } => write_log(&level, &message),
                        OutboxEntry::Finished(page) => finished = finished.or(Some(page.result)),
                        _ => {}
                    }
                }
                let finished = finished.ok_or_else(|| {
                    RenderError::Unreadable("the warm-up page did not render at once".into())
                })?;
                finished.and_then(check_status)?;
            }
            Ok(renderer)
        });
        match attempt {
            Err(RenderError::TimedOut) => {
                return Err(RenderError::WarmUpTimedOut(warm_up.timeout));
            }
            Err(error @ (RenderError::HeapExhausted | RenderError::Start(_)))
                if Instant::now() < deadline =>
            {
                tracing::warn!(%error, "a warm-up failed; trying again with a fresh runtime");
                thread::sleep(Duration::from_millis(100));
            }
            attempt => {
                // Compiling a large bundle leaves most of what its parser took from the C
                // heap free but held by it (a real-size site's: ~90 MB a runtime, RSS
                // 355 MB for two threads where 166 MB is in use): handed back here, once
                // a runtime starts, so what it holds is what a process needs.
                super::c_heap::hand_back();
                return attempt;
            }
        }
    }
}
