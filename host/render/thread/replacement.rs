//! A render thread's runtime: its first, the fresh one that replaces a runtime whose state
//! cannot be trusted, and the one a development reload brings. The thread's readiness
//! follows from here alone.

use std::sync::atomic::Ordering;
use std::thread;
use std::time::Duration;

use super::job::ThreadContext;
use crate::render::bundle::Bundle;
use crate::render::error::RenderError;
use crate::render::readiness::ThreadReadiness;
use crate::render::runtime::Renderer;
use crate::render::warm_up::warm_up;

/// The thread's first runtime, warmed up; without one (its warm-up failed: in
/// development, until a better bundle comes), the thread answers every page with that
/// failure.
pub(super) fn first(
    context: &ThreadContext,
    readiness: &mut ThreadReadiness,
    bundle: &Bundle,
) -> Result<Renderer, RenderError> {
    match warm_up(&context.warm_up, bundle) {
        Ok(renderer) => {
            readiness.ready();
            Ok(renderer)
        }
        Err(error) => {
            readiness.failed(error.to_string());
            Err(error)
        }
    }
}

/// A fresh runtime from `bundle`, warmed up, tried until one starts; the stopped one is
/// dropped first, since two full heaps at once is what the limit prevents.
pub(super) fn replace(
    context: &ThreadContext,
    readiness: &mut ThreadReadiness,
    bundle: &Bundle,
    stopped: Renderer,
) -> Renderer {
    readiness.unready();
    drop(stopped);
    let fresh = loop {
        match warm_up(&context.warm_up, bundle) {
            Ok(fresh) => break fresh,
            Err(e) => {
                tracing::error!(error = %e, "a render runtime could not restart; retrying");
                thread::sleep(Duration::from_millis(100));
            }
        }
    };
    context.stats.restarts.fetch_add(1, Ordering::Relaxed);
    readiness.ready();
    tracing::warn!("a render runtime was replaced");
    fresh
}

/// Takes `bundle` into `current` if a runtime made from it warms up; else goes back to a
/// runtime from `current`. The old runtime goes first: a thread enters and leaves V8
/// isolates in stack order, so two cannot overlap here.
pub(super) fn reload(
    context: &ThreadContext,
    readiness: &mut ThreadReadiness,
    renderer: &mut Result<Renderer, RenderError>,
    current: &mut Bundle,
    bundle: Bundle,
) -> Result<(), RenderError> {
    *renderer = Err(RenderError::Start("the runtime is being replaced".into()));
    let outcome = match warm_up(&context.warm_up, &bundle) {
        Ok(fresh) => {
            *current = bundle;
            *renderer = Ok(fresh);
            Ok(())
        }
        Err(error) => {
            *renderer = warm_up(&context.warm_up, current);
            Err(error)
        }
    };
    match renderer.is_ok() {
        true => readiness.ready(),
        false => readiness.unready(),
    }
    outcome
}
