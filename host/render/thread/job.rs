//! What the pool hands a render thread (a job, a reload) and what they share (the thread's
//! context, the pool's counts).

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use crossbeam_channel::Receiver;
use tokio::sync::{mpsc, oneshot};

use crate::render::budget::Reservation;
use crate::render::bundle::Bundle;
use crate::render::error::RenderError;
use crate::render::page::{ApiCaller, Rendering, Visitor};
use crate::render::readiness::Readiness;
use crate::render::shell_hold::ShellHold;
use crate::render::shells::{ShellKey, Shells};
use crate::render::stream::{AbandonAt, StreamEvent};
use crate::render::warm_up::WarmUp;

/// A page to render, as the pool queues it.
pub(in crate::render) struct Job {
    /// What the bundle is asked (a `RenderRequest`, JSON).
    pub request: String,
    pub visitor: Arc<Visitor>,
    /// When the page's data must have come.
    pub deadline: Instant,
    /// The page whose static shell it makes, when its request asks for one
    /// (`ShellAsk::Make`).
    pub shell_key: Option<ShellKey>,
    pub reply: Reply,
    /// A stream sent from a kept shell before any thread had its job: where to be told
    /// its client went away.
    pub abandon_at: Option<AbandonAt>,
    /// Its part of the loading budget.
    pub reserved: Reservation,
}

/// What the pool counts, for /metrics.
#[derive(Debug, Default)]
pub struct PoolStats {
    /// By thread: its runtime's V8 heap in use, in bytes, as last sampled.
    pub heap_used: Box<[AtomicU64]>,
    /// Runtimes replaced (a render stopped by its heap limit or its time-out, an exchange
    /// that broke).
    pub restarts: AtomicU64,
    /// Pages that failed or were stopped (counted in `loading.rs` alone).
    pub render_failures: AtomicU64,
    /// Jobs dropped unrendered because their client had gone while they waited.
    pub abandoned: AtomicU64,
    /// Streamed pages whose client went away before their end: their render was stopped.
    pub streams_abandoned: AtomicU64,
    /// Render threads that panicked, and were started again.
    pub thread_panics: AtomicU64,
    /// Visitors' pages whose data came while their kept shell was held: sent whole.
    pub held_whole: AtomicU64,
    /// Visitors' pages whose kept shell was sent (its hold over, or none), the rest after it.
    pub shells_sent: AtomicU64,
}

impl PoolStats {
    pub fn new(threads: usize) -> Self {
        Self {
            heap_used: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            ..Self::default()
        }
    }
}

/// Where a thread takes its jobs: the pool's bounded queue, and the pages resumed from a
/// kept shell (bounded by the loading budget).
#[derive(Clone)]
pub(in crate::render) struct Queues {
    pub whole: Receiver<Job>,
    pub resumed: Receiver<Job>,
}

/// A new bundle to take; the thread answers whether a runtime could start from it.
pub(in crate::render) struct Reload {
    pub bundle: Bundle,
    pub reply: oneshot::Sender<Result<(), RenderError>>,
}

/// What each render thread shares with the pool.
pub(in crate::render) struct ThreadContext {
    /// The bundle runtimes start from (in development, until a thread takes a new one).
    pub(in crate::render) bundle: Bundle,
    pub(in crate::render) warm_up: WarmUp,
    pub(in crate::render) render_seconds: metrics::Histogram,
    pub(in crate::render) api: Arc<dyn ApiCaller>,
    pub(in crate::render) stats: Arc<PoolStats>,
    pub(in crate::render) readiness: Arc<Readiness>,
    pub(in crate::render) shells: Arc<Shells>,
}

/// Where a page's handler waits for it.
pub(in crate::render) type ReplyTo = oneshot::Sender<Result<Rendering, RenderError>>;

/// Where a page goes when the bundle has it.
pub(in crate::render) enum Reply {
    /// Nothing sent yet: the whole page, or the start of its stream.
    Waiting(ReplyTo),
    /// Its head has gone (or the host sent its shell): the rest of the stream.
    Streaming(mpsc::UnboundedSender<StreamEvent>),
    /// Its kept shell is held for its data: the page goes whole, or its stream goes on
    /// after the shell, as its hold decides.
    Held(HeldPage),
}

/// Both ways a held page may go, and which it goes.
pub(in crate::render) struct HeldPage {
    pub whole: ReplyTo,
    pub events: mpsc::UnboundedSender<StreamEvent>,
    pub hold: Arc<ShellHold>,
}

impl Reply {
    /// Whether no one waits for the page any more (its client went away).
    pub(in crate::render) fn is_closed(&self) -> bool {
        match self {
            Reply::Waiting(reply) => reply.is_closed(),
            Reply::Streaming(events) => events.is_closed(),
            Reply::Held(held) if held.hold.shell_sent() => held.events.is_closed(),
            Reply::Held(held) => held.whole.is_closed(),
        }
    }

    /// A held page finished: it goes whole unless its shell has gone (deciding so now, if
    /// neither side has), and is a stream's end if it has; any other stays as it is.
    pub(in crate::render) fn settled(self) -> Self {
        match self {
            Reply::Held(held) if !held.hold.take_whole() => Reply::Streaming(held.events),
            reply => reply,
        }
    }
}

impl Reply {
    /// The page failed before it was started (its thread has no runtime).
    pub(in crate::render) fn fail(self, error: RenderError) {
        match self {
            Reply::Waiting(reply) => {
                let _ = reply.send(Err(error));
            }
            Reply::Streaming(events) => {
                let _ = events.send(StreamEvent::Failed(error));
            }
            // Its handler still holds the shell: the failure goes in its place.
            Reply::Held(held) if held.hold.take_whole() => {
                let _ = held.whole.send(Err(error));
            }
            Reply::Held(held) => {
                let _ = held.events.send(StreamEvent::Failed(error));
            }
        }
    }
}

impl From<ReplyTo> for Reply {
    fn from(reply: ReplyTo) -> Self {
        Reply::Waiting(reply)
    }
}
