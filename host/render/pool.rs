//! The handle the host renders through: it starts the render threads (`thread/`), queues
//! jobs for them on one bounded channel, so a slow render holds one thread while the
//! others keep serving, and hands development reloads to each. A full queue answers at
//! once (`Busy`), never by waiting.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded, unbounded};
use tokio::sync::oneshot;

use tokio::sync::mpsc;

use super::budget::{LoadingBudget, PAGE_BYTES, Reservation, STREAMED_RENDER_BYTES};
use super::bundle::Bundle;
use super::contract::{BootState, RenderRequest, ShellAsk};
use super::error::RenderError;
use super::page::{ApiCaller, PageRenderer, Rendering, Visitor};
use super::readiness::Readiness;
use super::runtime::Limits;
use super::shell_hold::ShellHold;
use super::shells::{KeptShell, ShellKey, Shells};
use super::stream::{AbandonAt, Stream, StreamEvent};
use super::thread::{HeldPage, Job, PoolStats, Queues, Reload, RenderThread, Reply, ThreadContext};
use super::warm_up::WarmUp;

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
    /// Makes the API calls of pages that load data.
    pub api: Arc<dyn ApiCaller>,
    /// Whether a streamed page's static shell is prerendered once and kept (`--prerender`).
    pub prerender: bool,
    /// How long a kept shell is held for its page's data (`--shell-hold`).
    pub shell_hold: Duration,
    /// What the pages in hand may hold, in bytes (`--loading-budget-mb`).
    pub loading_budget: usize,
}

pub struct RenderPool {
    jobs: Sender<Job>,
    /// Pages resumed from a kept shell, bounded by the loading budget rather than by the
    /// queue's length.
    resumes: Sender<Job>,
    prerender: bool,
    shell_hold: Duration,
    shells: Arc<Shells>,
    budget: Arc<LoadingBudget>,
    /// One per thread: a new bundle to take (development).
    reloads: Vec<Sender<Reload>>,
    stats: Arc<PoolStats>,
    readiness: Arc<Readiness>,
}

impl RenderPool {
    /// Starts the threads; each warms up in the background (see [`Readiness::warmed`]).
    pub fn start(options: PoolOptions) -> Result<Self, RenderError> {
        let (jobs, queue) = bounded::<Job>(options.queue);
        // A page whose kept shell is on its way holds its part of the loading budget, which
        // bounds how many there are: none waits for a place in the queue behind others.
        let (resumes, resumed) = unbounded::<Job>();
        let stats = Arc::new(PoolStats::new(options.threads));
        let readiness = Arc::new(Readiness::new(options.threads));
        let shells = Arc::new(Shells::default());
        let context = Arc::new(ThreadContext {
            bundle: options.bundle,
            warm_up: WarmUp {
                requests: options
                    .warm_up
                    .iter()
                    .map(|boot| {
                        let request = RenderRequest {
                            boot,
                            stream_nonce: None,
                            shell: &ShellAsk::None,
                        };
                        serde_json::to_string(&request).expect("a serialisable request")
                    })
                    .collect(),
                timeout: options.warm_up_timeout,
                limits: options.limits,
            },
            render_seconds: options.render_seconds,
            api: options.api,
            stats: stats.clone(),
            readiness: readiness.clone(),
            shells: shells.clone(),
        });
        let mut reloads = Vec::with_capacity(options.threads);
        for index in 0..options.threads {
            let queues = Queues {
                whole: queue.clone(),
                resumed: resumed.clone(),
            };
            let context = context.clone();
            let (reload, reloaded) = unbounded();
            reloads.push(reload);
            thread::Builder::new()
                .name(format!("render-{index}"))
                .spawn(move || serve(&context, &queues, &reloaded, index))
                .map_err(|e| RenderError::Start(format!("cannot spawn a render thread: {e}")))?;
        }
        Ok(Self {
            jobs,
            resumes,
            prerender: options.prerender,
            shell_hold: options.shell_hold,
            shells,
            budget: LoadingBudget::new(options.loading_budget),
            reloads,
            stats,
            readiness,
        })
    }

    /// Development: every thread starts a runtime from `bundle` and warms it up, and takes
    /// it if it can; a thread keeps its old runtime when the new bundle fails (the error is
    /// the first such failure). Pages loading on a replaced runtime fail.
    pub async fn reload(&self, bundle: Bundle) -> Result<(), RenderError> {
        self.shells.clear();
        let mut answers = Vec::with_capacity(self.reloads.len());
        for thread in &self.reloads {
            let (reply, answer) = oneshot::channel();
            let reload = Reload {
                bundle: bundle.clone(),
                reply,
            };
            if thread.send(reload).is_ok() {
                answers.push(answer);
            }
        }
        let mut outcome = Ok(());
        for answer in answers {
            let answered = answer.await.unwrap_or(Err(RenderError::PoolClosed));
            if outcome.is_ok() {
                outcome = answered;
            }
        }
        outcome
    }

    /// Whether the threads can serve.
    pub fn readiness(&self) -> Arc<Readiness> {
        self.readiness.clone()
    }

    pub fn stats(&self) -> &PoolStats {
        &self.stats
    }

    /// Renders waiting for a thread.
    pub fn queue_depth(&self) -> usize {
        self.jobs.len() + self.resumes.len()
    }

    /// Renders `boot` for `visitor`; its data must come by `deadline`; with
    /// `stream_nonce`, the page may come as a stream. A page whose shell is kept comes within
    /// `--shell-hold`, whatever the threads are doing: whole if its data came by then, else
    /// as a stream that starts with its shell, the rest following when its data has. Answers `Busy` at once when the page may wait for data
    /// (`may_wait`) and its part of the loading budget does not fit (in the whole, or in
    /// its client's share), or when the queue is full.
    pub async fn render(
        &self,
        boot: &BootState,
        visitor: Visitor,
        deadline: Instant,
        stream_nonce: Option<String>,
        may_wait: bool,
    ) -> Result<Rendering, RenderError> {
        let key = (self.prerender && stream_nonce.is_some()).then(|| ShellKey::of(boot));
        let kept = key.as_ref().and_then(|key| self.shells.get(key));
        let shell = match (&kept, &key) {
            (Some(_), _) => ShellAsk::Hold,
            (None, Some(_)) => ShellAsk::Make,
            (None, None) => ShellAsk::None,
        };
        let request = RenderRequest {
            boot,
            stream_nonce: stream_nonce.as_deref(),
            shell: &shell,
        };
        let request = serde_json::to_string(&request).expect("a serialisable request");
        let streamed_whole = stream_nonce.is_some() && key.is_none();
        let cost = PAGE_BYTES
            + request.len()
            + if streamed_whole {
                STREAMED_RENDER_BYTES
            } else {
                0
            };
        let reserved = match may_wait {
            true => self
                .budget
                .reserve(cost, visitor.peer)
                .ok_or(RenderError::Busy)?,
            false => Reservation::none(),
        };
        let job = |shell_key, reply, abandon_at| Job {
            request,
            visitor: Arc::new(visitor),
            deadline,
            shell_key,
            reply,
            abandon_at,
            reserved,
        };
        if let Some(shell) = kept {
            return self
                .held(&shell, |reply, at| job(None, reply, Some(at)))
                .await;
        }
        let (reply, answer) = oneshot::channel();
        self.queue(job(key, Reply::Waiting(reply), None))?;
        // The pool is open (this is it): a reply dropped unsent is a thread that died.
        answer.await.map_err(|_| RenderError::ThreadLost)?
    }

    /// A page whose shell is kept waits up to `--shell-hold` for its data: it comes whole
    /// if the data came in time; else it comes as a stream that starts with its shell, the
    /// rest following once the data has (`shell_hold.rs`). Either way no thread is waited
    /// for: the job goes to the resumed pages' queue.
    async fn held(
        &self,
        shell: &KeptShell,
        job: impl FnOnce(Reply, AbandonAt) -> Job,
    ) -> Result<Rendering, RenderError> {
        let hold = Arc::new(ShellHold::new(shell.postponed.clone(), shell.pace.clone()));
        let (whole, mut answer) = oneshot::channel();
        let (events, received) = mpsc::unbounded_channel();
        let (stream, abandon_at) = Stream::before_its_thread(shell.head.clone(), received);
        // Queued before the shell is said to have gone, so that it comes before any part of
        // the holes; dropped unsent if the page goes whole.
        let queue_the_shell = || events.send(StreamEvent::Html(shell.prelude.to_string()));
        // Held only while the page's data has lately come within the hold: else holding
        // would only delay the shell.
        if !shell.pace.comes_within(self.shell_hold) || self.shell_hold.is_zero() {
            let _ = queue_the_shell();
            hold.send_shell();
        }
        let held = HeldPage {
            whole,
            events: events.clone(),
            hold: hold.clone(),
        };
        self.resumes
            .send(job(Reply::Held(held), abandon_at))
            .map_err(|_| RenderError::PoolClosed)?;
        if !hold.shell_sent() {
            let timed = tokio::time::timeout(self.shell_hold, &mut answer).await;
            let answered = match timed {
                Ok(answered) => answered,
                // The data has not come: the shell goes, unless the page was taken whole
                // just now, and then it comes.
                Err(_) => {
                    let _ = queue_the_shell();
                    if hold.ran_out(self.shell_hold) {
                        return Ok(self.shell_sent(stream));
                    }
                    answer.await
                }
            };
            stream.went_whole();
            self.stats.held_whole.fetch_add(1, Ordering::Relaxed);
            // The pool is open (this is it): a reply dropped unsent is a thread that died.
            return answered.map_err(|_| RenderError::ThreadLost)?;
        }
        Ok(self.shell_sent(stream))
    }

    fn shell_sent(&self, stream: Stream) -> Rendering {
        self.stats.shells_sent.fetch_add(1, Ordering::Relaxed);
        Rendering::Streaming(stream)
    }

    fn queue(&self, job: Job) -> Result<(), RenderError> {
        self.jobs.try_send(job).map_err(|e| match e {
            TrySendError::Full(_) => RenderError::Busy,
            TrySendError::Disconnected(_) => RenderError::PoolClosed,
        })
    }

    /// The shells kept, for /metrics.
    pub fn shells_kept(&self) -> usize {
        self.shells.kept()
    }

    /// What the pages in hand hold now, by the budget's reckoning, for /metrics.
    pub fn loading_bytes(&self) -> usize {
        self.budget.used()
    }
}

/// A render thread's life: a thread that panics is logged and counted, its pages fail
/// (their replies are dropped with it), and it starts again from a fresh runtime; its
/// part of `/readyz` goes as it unwinds and comes back once the new runtime is warm. It
/// ends when the pool closes.
fn serve(context: &Arc<ThreadContext>, queues: &Queues, reloads: &Receiver<Reload>, index: usize) {
    loop {
        let thread = RenderThread::new(context.clone(), queues.clone(), reloads.clone(), index);
        match crate::server::panics::catching(move || thread.run()) {
            Ok(()) => return,
            Err(panicked) => {
                context.stats.thread_panics.fetch_add(1, Ordering::Relaxed);
                crate::server::panics::note(
                    &panicked,
                    "on a render thread: its pages failed, and it starts again",
                    "",
                );
            }
        }
    }
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
        Box::pin(RenderPool::render(
            self,
            boot,
            visitor,
            deadline,
            stream_nonce,
            may_wait,
        ))
    }
}
