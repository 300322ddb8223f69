//! The render threads: each owns one [`Renderer`] (a V8 runtime and the tokio runtime its
//! tasks run on); all pull jobs from one bounded channel, so a slow render holds one
//! thread while the others keep serving.
//!
//! A thread never sits idle while a page waits for its data: it starts the page, has the
//! page's API calls made by the [`ApiCaller`] (elsewhere), and takes other jobs until the
//! answers come back; then the bundle finishes the page. A page whose data is not there by
//! its deadline renders with the time-out error (the calls are answered so); one the bundle
//! still has not finished a render time-out later fails, and gets the client-rendered page.
//!
//! Each thread warms its runtime before it takes a job (it renders the warm-up requests),
//! under a deadline of its own, `--warm-up-timeout`, not `--render-timeout`: a busy machine
//! or a small CPU quota makes the warm-up slow, not fatal. A fault a fresh runtime can cure
//! (the heap limit, a runtime that would not start) is retried until the deadline; a bundle
//! that cannot render (it throws, or answers nonsense) fails start-up at once, with its
//! message.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded, never, select, unbounded};
use tokio::sync::{oneshot, watch};

use super::exchange::{Finished, Outbox};
use super::runtime::{Limits, Renderer};
use super::{
    ApiAnswer, ApiCaller, BootState, Bundle, CallOutcome, Page, RenderError, Rendered, Visitor,
};

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
}

/// Pages one thread keeps loading at once; past that it takes no new job until one ends
/// (the queue then fills, and a full queue answers at once).
const LOADING_PER_THREAD: usize = 64;

struct Job {
    boot_json: String,
    visitor: Arc<Visitor>,
    /// When the page's data must have come.
    deadline: Instant,
    reply: oneshot::Sender<Result<Page, RenderError>>,
}

pub struct RenderPool {
    jobs: Sender<Job>,
    /// One per thread: a new bundle to take (development).
    reloads: Vec<Sender<Reload>>,
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

/// A new bundle to take; the thread answers whether a runtime could start from it.
struct Reload {
    bundle: Bundle,
    reply: oneshot::Sender<Result<(), RenderError>>,
}

/// What each render thread shares with the pool.
struct ThreadContext {
    /// The bundle runtimes start from (in development, until a thread takes a new one).
    bundle: Bundle,
    limits: Limits,
    warm_up: Vec<String>,
    warm_up_timeout: Duration,
    render_seconds: metrics::Histogram,
    api: Arc<dyn ApiCaller>,
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
            api: options.api,
            stats: stats.clone(),
            threads: options.threads,
            warmth: warmth_tx,
            warm_up_pages: warm_up_pages.clone(),
        });
        let mut reloads = Vec::with_capacity(options.threads);
        for index in 0..options.threads {
            let queue = queue.clone();
            let context = context.clone();
            let (reload, reloaded) = unbounded();
            reloads.push(reload);
            thread::Builder::new()
                .name(format!("render-{index}"))
                .spawn(move || RenderThread::new(context, queue, reloaded).run())
                .map_err(|e| RenderError::Start(format!("cannot spawn a render thread: {e}")))?;
        }
        Ok(Self {
            jobs,
            reloads,
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

    /// Development: every thread starts a runtime from `bundle` and warms it up, and takes
    /// it if it can; a thread keeps its old runtime when the new bundle fails (the error is
    /// the first such failure). Pages loading on a replaced runtime fail.
    pub async fn reload(&self, bundle: Bundle) -> Result<(), RenderError> {
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

    /// Renders `boot` for `visitor`; its data must come by `deadline`. Answers `Busy` at
    /// once when the queue is full.
    pub async fn render(
        &self,
        boot: &BootState,
        visitor: Visitor,
        deadline: Instant,
    ) -> Result<Page, RenderError> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            boot_json: serde_json::to_string(boot).expect("serialisable boot state"),
            visitor: Arc::new(visitor),
            deadline,
            reply,
        };
        self.jobs.try_send(job).map_err(|e| match e {
            TrySendError::Full(_) => RenderError::Busy,
            TrySendError::Disconnected(_) => RenderError::PoolClosed,
        })?;
        answer.await.map_err(|_| RenderError::PoolClosed)?
    }
}

/// A page started whose bundle has not finished it: it waits for its data.
struct Loading {
    visitor: Arc<Visitor>,
    deadline: Instant,
    /// Past this, the bundle has had its data (or its time-out) and a render's time: the
    /// page fails.
    gives_up_at: Instant,
    per_visitor: bool,
    reply: oneshot::Sender<Result<Page, RenderError>>,
}

/// An answer to an API call of page `job`, from the runtime it was asked by (a replaced
/// runtime's late answers are dropped).
struct Answered {
    runtime: u64,
    job: u64,
    outcome: CallOutcome,
}

struct RenderThread {
    context: Arc<ThreadContext>,
    /// The bundle this thread's runtimes start from.
    bundle: Bundle,
    queue: Receiver<Job>,
    reloads: Receiver<Reload>,
    answers_tx: Sender<Answered>,
    answers: Receiver<Answered>,
    /// Which runtime this is, counting replacements.
    runtime: u64,
    next_job: u64,
    loading: HashMap<u64, Loading>,
}

enum Event {
    Job(Job),
    Answers(Vec<Answered>),
    Reload(Reload),
    Tick,
    Closed,
}

impl RenderThread {
    fn new(context: Arc<ThreadContext>, queue: Receiver<Job>, reloads: Receiver<Reload>) -> Self {
        let (answers_tx, answers) = unbounded();
        Self {
            bundle: context.bundle.clone(),
            context,
            queue,
            reloads,
            answers_tx,
            answers,
            runtime: 0,
            next_job: 0,
            loading: HashMap::new(),
        }
    }

    fn run(mut self) {
        let context = self.context.clone();
        // Without a runtime (its warm-up failed: in development, until a better bundle
        // comes), the thread answers every page with that failure.
        let mut renderer = match warm_up(&context, &self.bundle) {
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
                Ok(renderer)
            }
            Err(error) => {
                context.warmth.send_if_modified(|w| {
                    let first = *w == Warmth::Warming;
                    if first {
                        *w = Warmth::Failed(error.to_string());
                    }
                    first
                });
                Err(error)
            }
        };
        loop {
            let event = self.next_event();
            let outcome = match (&mut renderer, event) {
                (_, Event::Closed) => return,
                (_, Event::Reload(Reload { bundle, reply })) => {
                    let _ = reply.send(self.reload(&mut renderer, bundle));
                    continue;
                }
                (Ok(renderer), Event::Job(job)) => self.start(renderer, job),
                (Err(error), Event::Job(job)) => {
                    let _ = job.reply.send(Err(error.clone()));
                    Ok(())
                }
                (Ok(renderer), Event::Answers(answers)) => self.deliver(renderer, answers),
                (_, Event::Answers(_)) => Ok(()),
                (_, Event::Tick) => {
                    self.give_up_on_late_pages();
                    Ok(())
                }
            };
            // An error here is the exchange's own (an exception out of the bundle's entry,
            // an outbox that cannot be read): the bundle's state cannot be trusted, so the
            // pages it holds fail and its runtime is replaced.
            let broken = outcome.is_err();
            if let Err(error) = outcome {
                tracing::error!(%error, "the exchange with the server bundle broke; replacing its runtime");
                self.fail_loading(&error);
            }
            if (broken || renderer.as_ref().is_ok_and(Renderer::needs_replacing))
                && let Ok(stopped) = std::mem::replace(&mut renderer, Err(RenderError::PoolClosed))
            {
                renderer = Ok(self.replace(stopped));
            }
        }
    }

    /// Takes `bundle` if a runtime made from it warms up; else goes back to the one before.
    /// The old runtime goes first: a thread enters and leaves V8 isolates in stack order,
    /// so two cannot overlap here.
    fn reload(
        &mut self,
        renderer: &mut Result<Renderer, RenderError>,
        bundle: Bundle,
    ) -> Result<(), RenderError> {
        for (_, page) in self.loading.drain() {
            let _ = page
                .reply
                .send(Err(RenderError::Start("the bundle was replaced".into())));
        }
        let was_ready = renderer.is_ok();
        *renderer = Err(RenderError::Start("the runtime is being replaced".into()));
        self.runtime += 1;
        let outcome = match warm_up(&self.context, &bundle) {
            Ok((fresh, _)) => {
                self.bundle = bundle;
                *renderer = Ok(fresh);
                Ok(())
            }
            Err(error) => {
                *renderer = warm_up(&self.context, &self.bundle).map(|(previous, _)| previous);
                Err(error)
            }
        };
        let ready = &self.context.stats.ready_threads;
        match (was_ready, renderer.is_ok()) {
            (false, true) => ready.fetch_add(1, Ordering::SeqCst),
            (true, false) => ready.fetch_sub(1, Ordering::SeqCst),
            _ => 0,
        };
        outcome
    }

    /// Waits for a job (when there is room for one), an answer, or the next deadline.
    fn next_event(&mut self) -> Event {
        if self.loading.is_empty() {
            return select! {
                recv(self.queue) -> job => job.map_or(Event::Closed, Event::Job),
                recv(self.reloads) -> reload => reload.map_or(Event::Closed, Event::Reload),
            };
        }
        let none = never();
        let queue = if self.loading.len() < LOADING_PER_THREAD {
            &self.queue
        } else {
            &none
        };
        let wake = self
            .loading
            .values()
            .map(|page| page.gives_up_at)
            .min()
            .expect("pages are loading");
        select! {
            recv(queue) -> job => job.map_or(Event::Closed, Event::Job),
            recv(self.reloads) -> reload => reload.map_or(Event::Closed, Event::Reload),
            recv(self.answers) -> first => {
                let Ok(first) = first else { return Event::Closed };
                let runtime = self.runtime;
                let answers = std::iter::once(first)
                    .chain(self.answers.try_iter())
                    .filter(|answered| answered.runtime == runtime)
                    .collect();
                Event::Answers(answers)
            },
            default(wake.saturating_duration_since(Instant::now())) => Event::Tick,
        }
    }

    fn start(&mut self, renderer: &mut Renderer, job: Job) -> Result<(), RenderError> {
        if job.reply.is_closed() {
            // Its client went away while it waited (a closed connection, a reset stream).
            self.context.stats.abandoned.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        let id = self.next_job;
        self.next_job += 1;
        self.loading.insert(
            id,
            Loading {
                visitor: job.visitor,
                deadline: job.deadline,
                gives_up_at: job.deadline.max(Instant::now()) + self.context.limits.timeout,
                per_visitor: false,
                reply: job.reply,
            },
        );
        let started = Instant::now();
        let outbox = renderer.start(&job.boot_json, id, None);
        let outbox = self.finish_step(renderer, outbox, started)?;
        self.handle(outbox)
    }

    /// Hands the bundle the answers that came; a page whose call made it the visitor's
    /// alone is marked so first.
    fn deliver(
        &mut self,
        renderer: &mut Renderer,
        answered: Vec<Answered>,
    ) -> Result<(), RenderError> {
        if answered.is_empty() {
            return Ok(());
        }
        let mut answers = Vec::with_capacity(answered.len());
        for Answered { job, outcome, .. } in answered {
            if let Some(page) = self.loading.get_mut(&job) {
                page.per_visitor |= outcome.per_visitor;
            }
            answers.push(outcome.answer);
        }
        let json = serde_json::to_string(&answers).expect("serialisable answers");
        let started = Instant::now();
        let outbox = renderer.deliver(&json);
        let outbox = self.finish_step(renderer, outbox, started)?;
        self.handle(outbox)
    }

    /// Every page loading fails with `error`.
    fn fail_loading(&mut self, error: &RenderError) {
        for (_, page) in self.loading.drain() {
            self.context
                .stats
                .render_failures
                .fetch_add(1, Ordering::Relaxed);
            let _ = page.reply.send(Err(error.clone()));
        }
    }

    /// Reads a call's outbox; if pages are still loading, also what the microtasks that
    /// ran after it left.
    fn finish_step(
        &self,
        renderer: &mut Renderer,
        outbox: Result<String, RenderError>,
        started: Instant,
    ) -> Result<Outbox, RenderError> {
        let mut outbox = Outbox::read(&outbox?)?;
        if outbox.more {
            outbox.extend(Outbox::read(&renderer.outbox()?)?);
        }
        self.context
            .render_seconds
            .record(started.elapsed().as_secs_f64());
        Ok(outbox)
    }

    /// Sends the pages finished and has the API calls asked for made; fails when an entry
    /// of the outbox does not even say which page it is for.
    fn handle(&mut self, mut outbox: Outbox) -> Result<(), RenderError> {
        outbox.write_logs();
        for call in outbox.fetches {
            let (id, job) = (call.id, call.job);
            let runtime = self.runtime;
            let answers = self.answers_tx.clone();
            let reply = move |outcome: CallOutcome| {
                let _ = answers.send(Answered {
                    runtime,
                    job,
                    outcome,
                });
            };
            let Some(page) = self.loading.get(&job) else {
                reply(CallOutcome {
                    answer: ApiAnswer::failed(id, "this page is no longer being rendered"),
                    per_visitor: false,
                });
                continue;
            };
            let (visitor, deadline) = (page.visitor.clone(), page.deadline);
            self.context
                .api
                .call(call, visitor, deadline, Box::new(reply));
        }
        let mut unreadable = None;
        for entry in outbox.done {
            let Some(Finished { job, result }) = Finished::read(&entry) else {
                unreadable = Some(RenderError::Answer(format!(
                    "a finished page that names no page: {:.200}",
                    entry.get()
                )));
                continue;
            };
            let Some(page) = self.loading.remove(&job) else {
                continue;
            };
            let result = result.and_then(check_status);
            if let Err(error) = &result {
                tracing::error!(%error, "a page failed in the server bundle");
            }
            if result.is_err() {
                self.context
                    .stats
                    .render_failures
                    .fetch_add(1, Ordering::Relaxed);
            }
            let per_visitor = page.per_visitor;
            let _ = page.reply.send(result.map(|rendered| Page {
                rendered,
                per_visitor,
            }));
        }
        unreadable.map_or(Ok(()), Err)
    }

    /// Pages the bundle has not finished a render time-out after their deadline fail.
    fn give_up_on_late_pages(&mut self) {
        let now = Instant::now();
        let late: Vec<u64> = self
            .loading
            .iter()
            .filter(|(_, page)| page.gives_up_at <= now)
            .map(|(id, _)| *id)
            .collect();
        for id in late {
            if let Some(page) = self.loading.remove(&id) {
                tracing::error!("a page's loader never finished; sending the client-rendered page");
                self.context
                    .stats
                    .render_failures
                    .fetch_add(1, Ordering::Relaxed);
                let _ = page.reply.send(Err(RenderError::TimedOut));
            }
        }
    }

    /// A fresh runtime for this thread, warmed up; the old one is dropped first, since two
    /// full heaps at once is what the limit prevents.
    fn replace(&mut self, renderer: Renderer) -> Renderer {
        let stats = &self.context.stats;
        stats.ready_threads.fetch_sub(1, Ordering::SeqCst);
        drop(renderer);
        self.runtime += 1;
        let fresh = loop {
            match warm_up(&self.context, &self.bundle) {
                Ok((fresh, _)) => break fresh,
                Err(e) => {
                    tracing::error!(error = %e, "a render runtime could not restart; retrying");
                    thread::sleep(Duration::from_millis(100));
                }
            }
        };
        stats.restarts.fetch_add(1, Ordering::Relaxed);
        stats.ready_threads.fetch_add(1, Ordering::SeqCst);
        tracing::warn!("a render runtime was replaced");
        fresh
    }
}

/// A page's status is one of 200–599 that carries content: not 204, 205 or 304.
fn check_status(rendered: Rendered) -> Result<Rendered, RenderError> {
    match rendered.status {
        204 | 205 | 304 => Err(RenderError::Answer(format!(
            "status {} carries no page",
            rendered.status
        ))),
        200..=599 => Ok(rendered),
        status => Err(RenderError::Answer(format!(
            "status {status} is outside 200–599"
        ))),
    }
}

/// A fresh runtime that has rendered every warm-up request (pages without loaders, done at
/// once). Each render may take all the time left to the deadline: a starved CPU is slow,
/// and starting over would only lose what it did. A runtime that fails in a way a fresh
/// one can cure is replaced and the warm-up tried again; the bundle's own failures are
/// final.
fn warm_up(
    context: &ThreadContext,
    bundle: &Bundle,
) -> Result<(Renderer, Vec<Rendered>), RenderError> {
    let deadline = Instant::now() + context.warm_up_timeout;
    loop {
        let attempt = Renderer::new(bundle, context.limits).and_then(|mut renderer| {
            let pages = context
                .warm_up
                .iter()
                .map(|boot| {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let mut outbox = Outbox::read(&renderer.start(boot, 0, Some(left))?)?;
                    outbox.write_logs();
                    let entry = outbox.done.into_iter().next().ok_or_else(|| {
                        RenderError::Answer("the warm-up page did not render at once".into())
                    })?;
                    let finished = Finished::read(&entry).ok_or_else(|| {
                        RenderError::Answer(format!("not a finished page: {:.200}", entry.get()))
                    })?;
                    finished.result.and_then(check_status)
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
