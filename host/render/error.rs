//! Why a render did not give a page: each failure the pool, a thread or the bundle may
//! report, which the page handler turns into a fallback (pages/outcome.rs).

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
