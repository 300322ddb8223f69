//! One render thread: it owns one [`Renderer`] (a V8 runtime and the tokio runtime its
//! tasks run on) and takes jobs from the pool's queue. It never sits idle while a page
//! waits for its data: it starts the page, has the page's API calls made by the
//! [`ApiCaller`] (elsewhere), and takes other jobs until the answers come back; then the
//! bundle finishes the page. A page whose data is not there by its deadline renders with
//! the time-out error (the calls are answered so); one the bundle still has not finished a
//! render time-out later fails, and gets the client-rendered page.
//!
//! A runtime whose state cannot be trusted is replaced, and counted: one stopped by its
//! heap limit or its time-out, or whose exchange broke (an exception out of the bundle's
//! entry points, an outbox that cannot be read).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, never, select, unbounded};
use tokio::sync::{mpsc, oneshot};

use super::exchange::StreamPart;
use super::exchange::{Finished, Outbox, check_status};
use super::readiness::Readiness;
use super::runtime::Renderer;
use super::stream::{Abandoned, Stream, StreamEvent};
use super::warm_up::{WarmUp, warm_up};
use super::{
    ApiAnswer, ApiCaller, Bundle, CallOutcome, Page, RenderError, Rendered, Rendering, Visitor,
};

/// Pages one thread keeps loading at once; past that it takes no new job until one ends
/// (the queue then fills, and a full queue answers at once).
const LOADING_PER_THREAD: usize = 64;

/// The answers handed to the bundle in one call take at most this part of its heap (their
/// bodies; parsed, they take a few times that).
const ANSWERS_SHARE_OF_HEAP: usize = 16;

/// A page to render, as the pool queues it.
pub(super) struct Job {
    pub boot_json: String,
    pub visitor: Arc<Visitor>,
    /// When the page's data must have come.
    pub deadline: Instant,
    /// The nonce of the page's inline scripts, when it may be streamed.
    pub stream_nonce: Option<String>,
    pub reply: oneshot::Sender<Result<Rendering, RenderError>>,
}

/// What the pool counts, for /metrics.
#[derive(Debug, Default)]
pub struct PoolStats {
    /// Runtimes replaced (a render stopped by its heap limit or its time-out, an exchange
    /// that broke).
    pub restarts: AtomicU64,
    pub render_failures: AtomicU64,
    /// Jobs dropped unrendered because their client had gone while they waited.
    pub abandoned: AtomicU64,
    /// Streamed pages whose client went away before their end: their render was stopped.
    pub streams_abandoned: AtomicU64,
}

/// A new bundle to take; the thread answers whether a runtime could start from it.
pub(super) struct Reload {
    pub bundle: Bundle,
    pub reply: oneshot::Sender<Result<(), RenderError>>,
}

/// What each render thread shares with the pool.
pub(super) struct ThreadContext {
    /// The bundle runtimes start from (in development, until a thread takes a new one).
    pub(super) bundle: Bundle,
    pub(super) warm_up: WarmUp,
    pub(super) render_seconds: metrics::Histogram,
    pub(super) api: Arc<dyn ApiCaller>,
    pub(super) stats: Arc<PoolStats>,
    pub(super) readiness: Arc<Readiness>,
    pub(super) warm_up_pages: Arc<OnceLock<Vec<Rendered>>>,
}

/// A page started whose bundle has not finished it: it waits for its data.
struct Loading {
    visitor: Arc<Visitor>,
    deadline: Instant,
    /// Past this, the bundle has had its data (or its time-out) and a render's time: the
    /// page fails.
    gives_up_at: Instant,
    per_visitor: bool,
    reply: Reply,
}

/// Where a page goes when the bundle has it.
enum Reply {
    /// Nothing sent yet: the whole page, or the start of its stream.
    Waiting(oneshot::Sender<Result<Rendering, RenderError>>),
    /// Its head has gone: the rest of the stream.
    Streaming(mpsc::UnboundedSender<StreamEvent>),
}

impl Reply {
    fn fail(self, error: RenderError) {
        match self {
            Reply::Waiting(reply) => {
                let _ = reply.send(Err(error));
            }
            Reply::Streaming(events) => {
                let _ = events.send(StreamEvent::Failed(error));
            }
        }
    }
}

/// An answer to an API call of page `job`, from the runtime it was asked by (a replaced
/// runtime's late answers are dropped).
struct Answered {
    runtime: u64,
    job: u64,
    outcome: CallOutcome,
}

pub(super) struct RenderThread {
    context: Arc<ThreadContext>,
    /// The bundle this thread's runtimes start from.
    bundle: Bundle,
    queue: Receiver<Job>,
    reloads: Receiver<Reload>,
    answers_tx: Sender<Answered>,
    answers: Receiver<Answered>,
    abandoned_tx: Sender<Abandoned>,
    abandoned: Receiver<Abandoned>,
    /// Answers come, not yet handed to the bundle.
    held: VecDeque<Answered>,
    /// Which runtime this is, counting replacements.
    runtime: u64,
    next_job: u64,
    loading: HashMap<u64, Loading>,
}

enum Event {
    Job(Job),
    Answers(Vec<Answered>),
    Abandoned(Abandoned),
    Reload(Reload),
    Tick,
    Closed,
}

impl RenderThread {
    pub(super) fn new(
        context: Arc<ThreadContext>,
        queue: Receiver<Job>,
        reloads: Receiver<Reload>,
    ) -> Self {
        let (answers_tx, answers) = unbounded();
        let (abandoned_tx, abandoned) = unbounded();
        Self {
            bundle: context.bundle.clone(),
            context,
            queue,
            reloads,
            answers_tx,
            answers,
            abandoned_tx,
            abandoned,
            held: VecDeque::new(),
            runtime: 0,
            next_job: 0,
            loading: HashMap::new(),
        }
    }

    pub(super) fn run(mut self) {
        let context = self.context.clone();
        // Without a runtime (its warm-up failed: in development, until a better bundle
        // comes), the thread answers every page with that failure.
        let mut renderer = match warm_up(&context.warm_up, &self.bundle) {
            Ok((renderer, pages)) => {
                let _ = context.warm_up_pages.set(pages);
                context.readiness.thread_ready();
                Ok(renderer)
            }
            Err(error) => {
                context.readiness.thread_failed(error.to_string());
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
                (Ok(renderer), Event::Abandoned(abandoned)) => self.stop(renderer, abandoned),
                (_, Event::Abandoned(_)) => Ok(()),
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
            page.reply
                .fail(RenderError::Start("the bundle was replaced".into()));
        }
        let was_ready = renderer.is_ok();
        *renderer = Err(RenderError::Start("the runtime is being replaced".into()));
        self.runtime += 1;
        let outcome = match warm_up(&self.context.warm_up, &bundle) {
            Ok((fresh, _)) => {
                self.bundle = bundle;
                *renderer = Ok(fresh);
                Ok(())
            }
            Err(error) => {
                *renderer =
                    warm_up(&self.context.warm_up, &self.bundle).map(|(previous, _)| previous);
                Err(error)
            }
        };
        let readiness = &self.context.readiness;
        match (was_ready, renderer.is_ok()) {
            (false, true) => readiness.thread_ready(),
            (true, false) => readiness.thread_unready(),
            _ => {}
        }
        outcome
    }

    /// Waits for a job (when there is room for one), an answer, or the next deadline.
    fn next_event(&mut self) -> Event {
        if !self.held.is_empty() {
            self.held.extend(self.answers.try_iter());
            return Event::Answers(self.next_answers());
        }
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
            recv(self.abandoned) -> abandoned => abandoned.map_or(Event::Closed, Event::Abandoned),
            recv(self.answers) -> first => {
                let Ok(first) = first else { return Event::Closed };
                self.held.push_back(first);
                self.held.extend(self.answers.try_iter());
                Event::Answers(self.next_answers())
            },
            default(wake.saturating_duration_since(Instant::now())) => Event::Tick,
        }
    }

    /// The answers to hand the bundle in one call, their bodies within a budget (at least
    /// one answer): what many visitors' large answers would take of the heap at once is
    /// spread over several calls, between which the pages they finished are garbage.
    fn next_answers(&mut self) -> Vec<Answered> {
        let budget = self.context.warm_up.limits.heap_bytes / ANSWERS_SHARE_OF_HEAP;
        let mut taken = Vec::new();
        let mut bytes = 0;
        while let Some(next) = self.held.front() {
            if next.runtime != self.runtime {
                self.held.pop_front();
                continue;
            }
            let size = next.outcome.answer.body.as_ref().map_or(0, String::len);
            if !taken.is_empty() && bytes + size > budget {
                break;
            }
            bytes += size;
            taken.push(self.held.pop_front().expect("looked at"));
        }
        taken
    }

    fn start(&mut self, renderer: &mut Renderer, job: Job) -> Result<(), RenderError> {
        if job.reply.is_closed() {
            // Its client went away while it waited (a closed connection, a reset stream).
            self.context.stats.abandoned.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        job.visitor.trace.mark_taken();
        let id = self.next_job;
        self.next_job += 1;
        self.loading.insert(
            id,
            Loading {
                visitor: job.visitor,
                deadline: job.deadline,
                gives_up_at: job.deadline.max(Instant::now()) + self.context.warm_up.limits.timeout,
                per_visitor: false,
                reply: Reply::Waiting(job.reply),
            },
        );
        let started = Instant::now();
        let outbox = renderer.start(&job.boot_json, id, job.stream_nonce.as_deref(), None);
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

    /// A streamed page's client went away: the bundle stops its render.
    fn stop(&mut self, renderer: &mut Renderer, abandoned: Abandoned) -> Result<(), RenderError> {
        if abandoned.runtime != self.runtime || self.loading.remove(&abandoned.job).is_none() {
            return Ok(());
        }
        if abandoned.counted {
            self.context
                .stats
                .streams_abandoned
                .fetch_add(1, Ordering::Relaxed);
        }
        let started = Instant::now();
        let outbox = renderer.cancel(abandoned.job);
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
            page.reply.fail(error.clone());
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
            match (page.reply, result) {
                (Reply::Waiting(reply), result) => {
                    let _ = reply.send(result.map(|rendered| {
                        Rendering::Complete(Page {
                            rendered,
                            per_visitor,
                        })
                    }));
                }
                (Reply::Streaming(events), Ok(rendered)) => {
                    let _ = events.send(StreamEvent::End {
                        data: rendered.data,
                        errors: Vec::new(),
                        per_visitor,
                    });
                }
                (Reply::Streaming(events), Err(error)) => {
                    let _ = events.send(StreamEvent::Failed(error));
                }
            }
        }
        for entry in outbox.parts {
            match StreamPart::read(&entry) {
                Some(Ok(part)) => self.stream(part),
                Some(Err((job, error))) => {
                    if let Some(page) = self.loading.remove(&job) {
                        tracing::error!(%error, "a streamed page failed in the server bundle");
                        page.reply.fail(error);
                    }
                }
                None => {
                    unreadable = Some(RenderError::Answer(format!(
                        "a part of a stream that names no page: {:.200}",
                        entry.get()
                    )));
                }
            }
        }
        unreadable.map_or(Ok(()), Err)
    }

    /// Sends a part of a streamed page on: its head starts the stream, its end closes it.
    fn stream(&mut self, part: StreamPart) {
        let job = part.job();
        let Some(page) = self.loading.get_mut(&job) else {
            return;
        };
        match (part, &page.reply) {
            (StreamPart::Head { head, .. }, Reply::Waiting(_)) => {
                let (events, received) = mpsc::unbounded_channel();
                let Reply::Waiting(reply) =
                    std::mem::replace(&mut page.reply, Reply::Streaming(events))
                else {
                    unreachable!("matched above")
                };
                let stream =
                    Stream::new(head, received, self.abandoned_tx.clone(), self.runtime, job);
                let _ = reply.send(Ok(Rendering::Streaming(stream)));
            }
            (StreamPart::Html { html, .. }, Reply::Streaming(events)) => {
                let _ = events.send(StreamEvent::Html(html));
            }
            (StreamPart::End { end, .. }, Reply::Streaming(_)) => {
                let page = self.loading.remove(&job).expect("found above");
                if let Reply::Streaming(events) = page.reply {
                    let _ = events.send(StreamEvent::End {
                        data: end.data,
                        errors: end.errors,
                        per_visitor: page.per_visitor,
                    });
                }
            }
            (part, _) => {
                let page = self.loading.remove(&job).expect("found above");
                page.reply.fail(RenderError::Answer(format!(
                    "a part of a stream out of its order: {part:?}"
                )));
            }
        }
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
                page.reply.fail(RenderError::TimedOut);
            }
        }
    }

    /// A fresh runtime for this thread, warmed up; the old one is dropped first, since two
    /// full heaps at once is what the limit prevents.
    fn replace(&mut self, renderer: Renderer) -> Renderer {
        let readiness = &self.context.readiness;
        readiness.thread_unready();
        drop(renderer);
        self.runtime += 1;
        let fresh = loop {
            match warm_up(&self.context.warm_up, &self.bundle) {
                Ok((fresh, _)) => break fresh,
                Err(e) => {
                    tracing::error!(error = %e, "a render runtime could not restart; retrying");
                    thread::sleep(Duration::from_millis(100));
                }
            }
        };
        self.context.stats.restarts.fetch_add(1, Ordering::Relaxed);
        readiness.thread_ready();
        tracing::warn!("a render runtime was replaced");
        fresh
    }
}
