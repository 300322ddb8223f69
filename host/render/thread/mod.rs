//! One render thread: it owns one [`Renderer`] (a V8 runtime and the tokio runtime its
//! tasks run on) and takes jobs from the pool's queue. It never sits idle while a page
//! waits for its data: it starts the page, has its API calls made by the [`ApiCaller`],
//! and takes other jobs until the answers come back; then the bundle finishes the page.
//! A page without its data by its deadline renders with the time-out error (the calls
//! are answered so); one still unfinished a render time-out later fails (client-rendered).
//!
//! A runtime whose state cannot be trusted is replaced, and counted: one stopped by its
//! heap limit or its time-out, or whose exchange broke (an exception out of the bundle's
//! entry points, an API call handed over that cannot be read).
//!
//! This file is the thread's loop: what it waits for, and each call into the bundle (one
//! a step: what the call's microtasks produced comes with it). The rest: `job.rs` (what
//! the pool hands a thread, where its page goes, and what they share), `loading.rs` (the
//! pages started and not finished, where they fail), `dispatch.rs`
//! (what an outbox asks for), `call_answers.rs` (the calls' answers, handed over within a
//! budget of the heap), `replacement.rs` (a fresh runtime, a reload).

mod call_answers;
mod dispatch;
mod job;
mod loading;
mod replacement;
#[cfg(test)]
mod stand_ins;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crossbeam_channel::{Receiver, RecvError, Sender, select, unbounded};

use self::call_answers::{CallAnswer, HeldAnswers};
use self::dispatch::Dispatch;
pub use self::job::PoolStats;
pub(super) use self::job::{HeldPage, Job, Queues, Reload, Reply, ThreadContext};
use self::loading::{Extras, LoadingPages};
use super::bundle::Bundle;
use super::error::RenderError;
use super::exchange::Outbox;
use super::readiness::ThreadReadiness;
use super::runtime::Renderer;
use super::stream::{Abandoned, tell_when_abandoned};

/// How often a thread reads its runtime's heap statistics.
const HEAP_SAMPLED_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

pub(super) struct RenderThread {
    context: Arc<ThreadContext>,
    /// The bundle this thread's runtimes start from.
    bundle: Bundle,
    queues: Queues,
    reloads: Receiver<Reload>,
    answers_tx: Sender<CallAnswer>,
    answers: Receiver<CallAnswer>,
    abandoned_tx: Sender<Abandoned>,
    abandoned: Receiver<Abandoned>,
    held: HeldAnswers,
    /// Which runtime this is, counting replacements.
    runtime: u64,
    loading: LoadingPages,
    /// This thread's part of `/readyz`; a thread that dies takes it with it.
    readiness: ThreadReadiness,
    /// While answers are held: whether a waiting job goes before the next batch.
    jobs_first: bool,
    /// Which of the pool's threads this is, and when its heap was last sampled.
    index: usize,
    heap_sampled: Instant,
}

enum Event {
    Job(Job),
    Answers(Vec<CallAnswer>),
    Abandoned(Abandoned),
    Reload(Reload),
    Tick,
    Closed,
}

impl RenderThread {
    pub(super) fn new(
        context: Arc<ThreadContext>,
        queues: Queues,
        reloads: Receiver<Reload>,
        index: usize,
    ) -> Self {
        let (answers_tx, answers) = unbounded();
        let (abandoned_tx, abandoned) = unbounded();
        Self {
            bundle: context.bundle.clone(),
            held: HeldAnswers::new(context.warm_up.limits.heap_bytes),
            loading: LoadingPages::new(context.stats.clone(), context.shells.clone()),
            readiness: ThreadReadiness::new(context.readiness.clone()),
            context,
            queues,
            reloads,
            answers_tx,
            answers,
            abandoned_tx,
            abandoned,
            runtime: 0,
            jobs_first: false,
            index,
            // The first call samples at once.
            heap_sampled: Instant::now() - HEAP_SAMPLED_EVERY,
        }
    }

    pub(super) fn run(mut self) {
        let context = self.context.clone();
        let mut renderer = replacement::first(&context, &mut self.readiness, &self.bundle);
        loop {
            let event = self.next_event();
            let outcome = match (&mut renderer, event) {
                (_, Event::Closed) => return,
                (_, Event::Reload(Reload { bundle, reply })) => {
                    self.loading
                        .fail_all(&RenderError::Start("the bundle was replaced".into()));
                    self.runtime += 1;
                    let reloaded = replacement::reload(
                        &context,
                        &mut self.readiness,
                        &mut renderer,
                        &mut self.bundle,
                        bundle,
                    );
                    let _ = reply.send(reloaded);
                    continue;
                }
                (Ok(renderer), Event::Job(job)) => self.start(renderer, job),
                (Err(error), Event::Job(job)) => {
                    job.reply.fail(error.clone());
                    Ok(())
                }
                (Ok(renderer), Event::Abandoned(abandoned)) => self.stop(renderer, abandoned),
                (_, Event::Abandoned(_)) => Ok(()),
                (Ok(renderer), Event::Answers(answers)) => self.deliver(renderer, answers),
                (_, Event::Answers(_)) => Ok(()),
                (_, Event::Tick) => {
                    self.loading.give_up_on_late_pages(Instant::now());
                    Ok(())
                }
            };
            // The exchange's own error (an exception out of the bundle's entry, an API call
            // handed over that cannot be read), or a heap that neared its limit in a step that
            // ended well: the runtime cannot be trusted, so the pages it holds fail and it is
            // replaced.
            let broken = outcome.is_err();
            if let Ok(renderer) = &mut renderer {
                self.sample_heap(renderer);
                super::c_heap::hand_back_now_and_then();
            }
            if let Err(error) = outcome {
                tracing::error!(%error, "the exchange with the server bundle broke; replacing its runtime");
                self.loading.fail_all(&error);
            }
            if (broken || renderer.as_ref().is_ok_and(Renderer::needs_replacing))
                && let Ok(stopped) = std::mem::replace(&mut renderer, Err(RenderError::PoolClosed))
            {
                self.loading.fail_all(&RenderError::HeapExhausted);
                self.runtime += 1;
                renderer = Ok(replacement::replace(
                    &context,
                    &mut self.readiness,
                    &self.bundle,
                    stopped,
                ));
            }
        }
    }

    /// Notes the runtime's heap in use for /metrics, every [`HEAP_SAMPLED_EVERY`] at most.
    fn sample_heap(&mut self, renderer: &mut Renderer) {
        if self.heap_sampled.elapsed() < HEAP_SAMPLED_EVERY {
            return;
        }
        self.heap_sampled = Instant::now();
        self.context.stats.heap_used[self.index].store(renderer.heap_used(), Ordering::Relaxed);
    }

    /// Waits for a job (when there is room for one), an answer, or the next deadline.
    fn next_event(&mut self) -> Event {
        // A client that left is heard first: its page is not resumed for no one.
        if let Ok(abandoned) = self.abandoned.try_recv() {
            return Event::Abandoned(abandoned);
        }
        if !self.held.is_empty() {
            // Answers held and pages asked for take turns: a visitor who just came waits
            // for one batch of others' data at most, and the data never starves.
            self.jobs_first = !self.jobs_first;
            if self.jobs_first
                && let Some(job) = self.waiting_job()
            {
                return Event::Job(job);
            }
            let loading = &self.loading;
            let sent_nothing = |job| loading.sent_nothing(job);
            self.held.hold(self.answers.try_iter(), sent_nothing);
            return Event::Answers(self.held.next_batch(self.runtime));
        }
        let Some(wake) = self.loading.wake_at() else {
            return select! {
                recv(self.queues.whole) -> job => took_job(job),
                recv(self.queues.resumed) -> job => took_job(job),
                recv(self.reloads) -> reload => reload.map_or(Event::Closed, Event::Reload),
            };
        };
        select! {
            recv(self.queues.whole) -> job => took_job(job),
            recv(self.queues.resumed) -> job => took_job(job),
            recv(self.reloads) -> reload => reload.map_or(Event::Closed, Event::Reload),
            recv(self.abandoned) -> abandoned => abandoned.map_or(Event::Closed, Event::Abandoned),
            recv(self.answers) -> first => {
                let Ok(first) = first else { return Event::Closed };
                let loading = &self.loading;
                let sent_nothing = |job| loading.sent_nothing(job);
                self.held.hold(std::iter::once(first).chain(self.answers.try_iter()), sent_nothing);
                Event::Answers(self.held.next_batch(self.runtime))
            },
            default(wake.saturating_duration_since(Instant::now())) => Event::Tick,
        }
    }

    /// A job already waiting: a page asked for before one resumed from its shell (whose
    /// first byte has gone).
    fn waiting_job(&self) -> Option<Job> {
        self.queues
            .whole
            .try_recv()
            .or_else(|_| self.queues.resumed.try_recv())
            .ok()
    }

    fn start(&mut self, renderer: &mut Renderer, job: Job) -> Result<(), RenderError> {
        if job.reply.is_closed() {
            // Its client went away while it waited (a closed connection, a reset stream).
            self.context.stats.abandoned.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        job.visitor.trace.mark_taken();
        #[cfg(debug_assertions)]
        crate::server::panics::on_a_render_thread(&job.request);
        let timeout = self.context.warm_up.limits.timeout;
        let asks_for_a_shell = job.shell_key.is_some();
        let held = match &job.reply {
            Reply::Held(held) => Some(held.hold.clone()),
            _ => None,
        };
        let extras = Extras {
            making_shell: job.shell_key,
            reserved: Some(job.reserved),
        };
        let id = self
            .loading
            .add(job.visitor, job.deadline, timeout, job.reply, extras);
        if let Some(at) = job.abandon_at {
            let abandoned = Abandoned {
                runtime: self.runtime,
                job: id,
                counted: true,
            };
            tell_when_abandoned(&at, self.abandoned_tx.clone(), abandoned);
        }
        if let Some(hold) = &held {
            renderer.hold(id, hold);
        }
        self.step(renderer, |renderer| renderer.start(&job.request, id, None))?;
        // Only a page that streams has a shell being made (a whole page asked for one
        // makes none): no halt, and no call into V8, for the others.
        if asks_for_a_shell && self.loading.makes_shell(id) {
            // The shell's own work ran in the call's microtasks: what it waits for now is
            // its data, which it is prerendered without.
            self.step(renderer, Renderer::halt)?;
        }
        Ok(())
    }

    /// Hands the bundle the answers that came, once what each call brought its page besides
    /// (whether it made the page the visitor's alone, the keys its answer named) is noted.
    fn deliver(
        &mut self,
        renderer: &mut Renderer,
        answered: Vec<CallAnswer>,
    ) -> Result<(), RenderError> {
        if answered.is_empty() {
            return Ok(());
        }
        let mut answers = Vec::with_capacity(answered.len());
        for CallAnswer { job, outcome, .. } in answered {
            self.loading
                .add_call(job, outcome.per_visitor, &outcome.data_keys);
            answers.push(outcome.answer);
        }
        let json = serde_json::to_string(&answers).expect("serialisable answers");
        self.step(renderer, |renderer| renderer.deliver(&json))
    }

    /// A streamed page's client went away: the bundle stops its render.
    fn stop(&mut self, renderer: &mut Renderer, abandoned: Abandoned) -> Result<(), RenderError> {
        if abandoned.runtime != self.runtime || !self.loading.stop(abandoned.job) {
            return Ok(());
        }
        if abandoned.counted {
            self.context
                .stats
                .streams_abandoned
                .fetch_add(1, Ordering::Relaxed);
        }
        self.step(renderer, |renderer| renderer.cancel(abandoned.job))
    }

    /// One call into the bundle, timed, and what it handed over (its microtasks'
    /// included) dispatched.
    fn step(
        &mut self,
        renderer: &mut Renderer,
        call: impl FnOnce(&mut Renderer) -> Result<Outbox, RenderError>,
    ) -> Result<(), RenderError> {
        let started = Instant::now();
        let outbox = call(renderer)?;
        self.context
            .render_seconds
            .record(started.elapsed().as_secs_f64());
        Dispatch {
            loading: &mut self.loading,
            api: &*self.context.api,
            answers: &self.answers_tx,
            abandon: &self.abandoned_tx,
            runtime: self.runtime,
        }
        .outbox(outbox)
    }
}

/// A job taken off the pool's queue: the one place a job leaves it.
fn took_job(received: Result<Job, RecvError>) -> Event {
    received.map_or(Event::Closed, Event::Job)
}
