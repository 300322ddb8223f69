//! The render threads: each owns one [`Renderer`] (a V8 runtime and the tokio runtime its
//! tasks run on); all pull jobs from one bounded channel, so a slow render holds one
//! thread while the others keep serving.
//!
//! Each thread warms its runtime before it takes a job (it renders the warm-up requests),
//! under a deadline of its own, `--warm-up-timeout`, not `--render-timeout`: a busy machine
//! or a small CPU quota makes the warm-up slow, not fatal. A fault a fresh runtime can cure
//! (the heap limit, a runtime that would not start) is retried until the deadline; a bundle
//! that cannot render (it throws, or answers nonsense) fails start-up at once, with its
//! message.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};
use tokio::sync::{oneshot, watch};

use super::runtime::{Limits, Renderer};
use super::{BootState, Bundle, RenderError, Rendered};

pub struct PoolOptions {
    pub bundle: Bundle,
    pub limits: Limits,
    pub threads: usize,
    /// Jobs waiting for a thread at most; past that, [`RenderPool::render`] answers `Busy`.
    pub queue: usize,
    /// Rendered by every thread before it serves: it warms V8 and proves the bundle and
    /// the options (the time zone) work before the first visitor comes.
    pub warm_up: Vec<BootState>,
    /// How long a thread's warm-up may take in all, retries included.
    pub warm_up_timeout: Duration,
    /// Where render times are recorded, in seconds.
    pub render_seconds: metrics::Histogram,
}

struct Job {
    request_json: String,
    reply: oneshot::Sender<Result<Rendered, RenderError>>,
}

pub struct RenderPool {
    jobs: Sender<Job>,
    threads: usize,
    stats: Arc<PoolStats>,
    warmth: watch::Receiver<Warmth>,
    warm_up_pages: Arc<OnceLock<Vec<Rendered>>>,
}

/// Where the warm-up stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Warmth {
    Warming,
    Ready,
    Failed(String),
}

/// What the pool counts, for /metrics and /readyz.
#[derive(Debug, Default)]
pub struct PoolStats {
    /// Threads whose runtime is up and warmed.
    pub ready_threads: AtomicUsize,
    /// Runtimes replaced (a render stopped by its heap limit or its time-out).
    pub restarts: AtomicU64,
    pub render_failures: AtomicU64,
    /// Jobs dropped unrendered because their client had gone while they waited.
    pub abandoned: AtomicU64,
}

/// What each render thread shares with the pool.
struct ThreadContext {
    bundle: Bundle,
    limits: Limits,
    warm_up: Vec<String>,
    warm_up_timeout: Duration,
    render_seconds: metrics::Histogram,
    stats: Arc<PoolStats>,
    threads: usize,
    warmth: watch::Sender<Warmth>,
    warm_up_pages: Arc<OnceLock<Vec<Rendered>>>,
}

impl RenderPool {
    /// Starts the threads; each warms up in the background (see [`RenderPool::warmed`]).
    pub fn start(options: PoolOptions) -> Result<Self, RenderError> {
        let (jobs, queue) = bounded::<Job>(options.queue);
        let stats = Arc::new(PoolStats::default());
        let (warmth_tx, warmth) = watch::channel(Warmth::Warming);
        let warm_up_pages = Arc::new(OnceLock::new());
        let context = Arc::new(ThreadContext {
            bundle: options.bundle,
            limits: options.limits,
            warm_up: options
                .warm_up
                .iter()
                .map(|boot| serde_json::to_string(boot).expect("serialisable boot state"))
                .collect(),
            warm_up_timeout: options.warm_up_timeout,
            render_seconds: options.render_seconds,
            stats: stats.clone(),
            threads: options.threads,
            warmth: warmth_tx,
            warm_up_pages: warm_up_pages.clone(),
        });
        for index in 0..options.threads {
            let queue = queue.clone();
            let context = context.clone();
            thread::Builder::new()
                .name(format!("render-{index}"))
                .spawn(move || render_thread(&context, queue))
                .map_err(|e| RenderError::Start(format!("cannot spawn a render thread: {e}")))?;
        }
        Ok(Self {
            jobs,
            threads: options.threads,
            stats,
            warmth,
            warm_up_pages,
        })
    }

    /// Resolves once every thread has warmed up, or with the first reason one could not.
    pub async fn warmed(&self) -> Result<(), String> {
        let mut warmth = self.warmth.clone();
        let settled = warmth
            .wait_for(|w| *w != Warmth::Warming)
            .await
            .map(|w| w.clone());
        match settled {
            Ok(Warmth::Failed(why)) => Err(why),
            Ok(_) => Ok(()),
            Err(_) => Err("the render threads are gone".into()),
        }
    }

    /// What the first thread to warm up rendered, in the order of the warm-up requests.
    pub fn warm_up_pages(&self) -> Option<&[Rendered]> {
        self.warm_up_pages.get().map(Vec::as_slice)
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn stats(&self) -> &PoolStats {
        &self.stats
    }

    /// Renders waiting for a thread.
    pub fn queue_depth(&self) -> usize {
        self.jobs.len()
    }

    /// Renders on a free thread; answers `Busy` at once when the queue is full.
    pub async fn render(&self, boot: &BootState) -> Result<Rendered, RenderError> {
        let request_json = serde_json::to_string(boot).expect("serialisable boot state");
        let (reply, answer) = oneshot::channel();
        self.jobs
            .try_send(Job {
                request_json,
                reply,
            })
            .map_err(|e| match e {
                TrySendError::Full(_) => RenderError::Busy,
                TrySendError::Disconnected(_) => RenderError::PoolClosed,
            })?;
        answer.await.map_err(|_| RenderError::PoolClosed)?
    }
}

fn render_thread(context: &ThreadContext, queue: Receiver<Job>) {
    let mut renderer = match warm_up(context) {
        Ok((renderer, pages)) => {
            let _ = context.warm_up_pages.set(pages);
            let ready = context.stats.ready_threads.fetch_add(1, Ordering::SeqCst) + 1;
            if ready == context.threads {
                context.warmth.send_if_modified(|w| {
                    let warming = *w == Warmth::Warming;
                    if warming {
                        *w = Warmth::Ready;
                    }
                    warming
                });
            }
            renderer
        }
        Err(error) => {
            context.warmth.send_if_modified(|w| {
                let first = *w == Warmth::Warming;
                if first {
                    *w = Warmth::Failed(error.to_string());
                }
                first
            });
            return;
        }
    };
    let stats = &context.stats;
    for job in queue {
        if job.reply.is_closed() {
            // Its client went away while it waited (a closed connection, a reset stream).
            stats.abandoned.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let started = Instant::now();
        let result = render_once(&mut renderer, &job.request_json, None);
        context
            .render_seconds
            .record(started.elapsed().as_secs_f64());
        if result.is_err() {
            stats.render_failures.fetch_add(1, Ordering::Relaxed);
        }
        let _ = job.reply.send(result);
        if renderer.needs_replacing() {
            stats.ready_threads.fetch_sub(1, Ordering::SeqCst);
            // Drop the old runtime first: two full heaps at once is what the limit prevents.
            // The replacement warms up before the thread takes another job.
            drop(renderer);
            renderer = loop {
                match warm_up(context) {
                    Ok((fresh, _)) => break fresh,
                    Err(e) => {
                        tracing::error!(error = %e, "a render runtime could not restart; retrying");
                        thread::sleep(Duration::from_millis(100));
                    }
                }
            };
            stats.restarts.fetch_add(1, Ordering::Relaxed);
            stats.ready_threads.fetch_add(1, Ordering::SeqCst);
            tracing::warn!("a render runtime was stopped (time-out or heap limit) and replaced");
        }
    }
}

/// A fresh runtime that has rendered every warm-up request. Each render may take all the
/// time left to the deadline: a starved CPU is slow, and starting over would only lose
/// what it did. A runtime that fails in a way a fresh one can cure is replaced and the
/// warm-up tried again; the bundle's own failures are final.
fn warm_up(context: &ThreadContext) -> Result<(Renderer, Vec<Rendered>), RenderError> {
    let deadline = Instant::now() + context.warm_up_timeout;
    loop {
        let attempt = Renderer::new(&context.bundle, context.limits).and_then(|mut renderer| {
            let pages = context
                .warm_up
                .iter()
                .map(|request| {
                    let left = deadline.saturating_duration_since(Instant::now());
                    render_once(&mut renderer, request, Some(left))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok((renderer, pages))
        });
        match attempt {
            Err(RenderError::TimedOut) => {
                return Err(RenderError::WarmUpTimedOut(context.warm_up_timeout));
            }
            Err(error @ (RenderError::HeapExhausted | RenderError::Start(_)))
                if Instant::now() < deadline =>
            {
                tracing::warn!(%error, "a warm-up failed; trying again with a fresh runtime");
                thread::sleep(Duration::from_millis(100));
            }
            attempt => return attempt,
        }
    }
}

/// One render; `limit` replaces `--render-timeout` (for the warm-up). The bundle's answer
/// is checked here: a status outside 200–599 is no render result.
fn render_once(
    renderer: &mut Renderer,
    request_json: &str,
    limit: Option<Duration>,
) -> Result<Rendered, RenderError> {
    let answer = match limit {
        Some(limit) => renderer.render_within(request_json, limit)?,
        None => renderer.render(request_json)?,
    };
    let rendered: Rendered =
        serde_json::from_str(&answer).map_err(|e| RenderError::Answer(e.to_string()))?;
    if !(200..=599).contains(&rendered.status) {
        return Err(RenderError::Answer(format!(
            "status {} is outside 200–599",
            rendered.status
        )));
    }
    Ok(rendered)
}
