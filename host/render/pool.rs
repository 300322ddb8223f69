//! The render threads: each owns one [`Renderer`] (a V8 runtime and the tokio runtime its
//! tasks run on); all pull jobs from one bounded channel, so a slow render holds one
//! thread while the others keep serving.

use std::thread;

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};
use tokio::sync::oneshot;

use super::runtime::Renderer;
use super::{Bundle, RenderError, RenderRequest, Rendered};

pub struct PoolOptions {
    pub bundle: Bundle,
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
}

impl RenderPool {
    /// Starts the threads and returns once each has rendered the warm-up request.
    pub fn start(options: PoolOptions) -> Result<Self, RenderError> {
        let (jobs, queue) = bounded::<Job>(options.queue);
        let warm_up = serde_json::to_string(&options.warm_up).expect("serialisable request");
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        for index in 0..options.threads {
            let queue = queue.clone();
            let ready = ready_tx.clone();
            let warm_up = warm_up.clone();
            let bundle = options.bundle.clone();
            thread::Builder::new()
                .name(format!("render-{index}"))
                .spawn(move || render_thread(&bundle, &warm_up, queue, ready))
                .map_err(|e| RenderError::Start(format!("cannot spawn a render thread: {e}")))?;
        }
        drop(ready_tx);
        for _ in 0..options.threads {
            ready_rx.recv().map_err(|_| RenderError::PoolClosed)??;
        }
        Ok(Self {
            jobs,
            threads: options.threads,
        })
    }

    pub fn threads(&self) -> usize {
        self.threads
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
    warm_up: &str,
    queue: Receiver<Job>,
    ready: std::sync::mpsc::Sender<Result<(), RenderError>>,
) {
    let mut renderer =
        match Renderer::new(bundle).and_then(|mut r| render_once(&mut r, warm_up).map(|_| r)) {
            Ok(renderer) => renderer,
            Err(e) => {
                let _ = ready.send(Err(e));
                return;
            }
        };
    let _ = ready.send(Ok(()));
    drop(ready);
    for job in queue {
        let result = render_once(&mut renderer, &job.request_json);
        let _ = job.reply.send(result);
    }
}

fn render_once(renderer: &mut Renderer, request_json: &str) -> Result<Rendered, RenderError> {
    let answer = renderer.render(request_json)?;
    serde_json::from_str(&answer).map_err(|e| RenderError::Answer(e.to_string()))
}
