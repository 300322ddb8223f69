//! The render threads: each owns one [`Renderer`] (a V8 runtime and the tokio runtime its
//! tasks run on); all pull jobs from one bounded channel, so a slow render holds one
//! thread while the others keep serving.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};
use tokio::sync::oneshot;

use super::runtime::{Limits, Renderer};
use super::{Bundle, RenderError, RenderRequest, Rendered};

pub struct PoolOptions {
    pub bundle: Bundle,
    pub limits: Limits,
    pub threads: usize,
    /// Jobs waiting for a thread at most; past that, [`RenderPool::render`] answers `Busy`.
    pub queue: usize,
    /// Rendered once by every thread before the pool is ready: it warms V8 and proves the
    /// bundle and the options (the time zone) work before the first visitor comes.
    pub warm_up: RenderRequest,
}

struct Job {
    request_json: String,
    reply: oneshot::Sender<Result<Rendered, RenderError>>,
}

pub struct RenderPool {
    jobs: Sender<Job>,
    threads: usize,
    stats: Arc<PoolStats>,
}

/// What the pool counts, for /metrics and /readyz.
#[derive(Debug, Default)]
pub struct PoolStats {
    /// Threads whose runtime is up and warmed.
    pub ready_threads: AtomicUsize,
    /// Runtimes replaced (heap near its limit, or a failed start after one).
    pub restarts: AtomicU64,
    /// Render durations: counts per upper bound of [`RENDER_BUCKETS_SECONDS`], then +Inf.
    pub render_buckets: [AtomicU64; RENDER_BUCKETS_SECONDS.len() + 1],
    pub render_seconds_micros: AtomicU64,
    pub render_failures: AtomicU64,
}

pub const RENDER_BUCKETS_SECONDS: [f64; 8] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1.0];

impl PoolStats {
    fn observe(&self, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        let bucket = RENDER_BUCKETS_SECONDS
            .iter()
            .position(|b| seconds <= *b)
            .unwrap_or(RENDER_BUCKETS_SECONDS.len());
        self.render_buckets[bucket].fetch_add(1, Ordering::Relaxed);
        self.render_seconds_micros
            .fetch_add(elapsed.as_micros() as u64, Ordering::Relaxed);
    }
}

impl RenderPool {
    /// Starts the threads and returns once each has rendered the warm-up request.
    pub fn start(options: PoolOptions) -> Result<Self, RenderError> {
        let (jobs, queue) = bounded::<Job>(options.queue);
        let warm_up = serde_json::to_string(&options.warm_up).expect("serialisable request");
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let stats = Arc::new(PoolStats::default());
        for index in 0..options.threads {
            let queue = queue.clone();
            let ready = ready_tx.clone();
            let warm_up = warm_up.clone();
            let bundle = options.bundle.clone();
            let stats = stats.clone();
            let limits = options.limits;
            thread::Builder::new()
                .name(format!("render-{index}"))
                .spawn(move || render_thread(&bundle, limits, &warm_up, queue, ready, &stats))
                .map_err(|e| RenderError::Start(format!("cannot spawn a render thread: {e}")))?;
        }
        drop(ready_tx);
        for _ in 0..options.threads {
            ready_rx.recv().map_err(|_| RenderError::PoolClosed)??;
        }
        Ok(Self {
            jobs,
            threads: options.threads,
            stats,
        })
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
    pub async fn render(&self, request: &RenderRequest) -> Result<Rendered, RenderError> {
        let request_json = serde_json::to_string(request).expect("serialisable request");
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

fn render_thread(
    bundle: &Bundle,
    limits: Limits,
    warm_up: &str,
    queue: Receiver<Job>,
    ready: std::sync::mpsc::Sender<Result<(), RenderError>>,
    stats: &PoolStats,
) {
    let start =
        || Renderer::new(bundle, limits).and_then(|mut r| render_once(&mut r, warm_up).map(|_| r));
    let mut renderer = match start() {
        Ok(renderer) => renderer,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    stats.ready_threads.fetch_add(1, Ordering::SeqCst);
    let _ = ready.send(Ok(()));
    drop(ready);
    for job in queue {
        let started = Instant::now();
        let result = render_once(&mut renderer, &job.request_json);
        stats.observe(started.elapsed());
        if result.is_err() {
            stats.render_failures.fetch_add(1, Ordering::Relaxed);
        }
        let _ = job.reply.send(result);
        if renderer.needs_replacing() {
            stats.ready_threads.fetch_sub(1, Ordering::SeqCst);
            // Drop the old runtime first: two full heaps at once is what the limit prevents.
            drop(renderer);
            renderer = loop {
                match start() {
                    Ok(fresh) => break fresh,
                    Err(e) => {
                        tracing::error!(error = %e, "a render runtime could not restart; retrying");
                        thread::sleep(Duration::from_millis(100));
                    }
                }
            };
            stats.restarts.fetch_add(1, Ordering::Relaxed);
            stats.ready_threads.fetch_add(1, Ordering::SeqCst);
            tracing::warn!("a render runtime came near its heap limit and was replaced");
        }
    }
}

fn render_once(renderer: &mut Renderer, request_json: &str) -> Result<Rendered, RenderError> {
    let answer = renderer.render(request_json)?;
    serde_json::from_str(&answer).map_err(|e| RenderError::Answer(e.to_string()))
}
