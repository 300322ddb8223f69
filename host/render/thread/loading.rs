//! The pages a render thread has started and the bundle has not finished, and the state
//! each is in: it waits for its data, then goes whole to its handler, or as a stream (its
//! head first, then its markup, then its end). This table is the one place a page fails,
//! and so the one place failures are counted.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crossbeam_channel::Sender;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::job::{HeldPage, PoolStats, Reply};
use crate::data_keys::DataKeys;
use crate::render::budget::Reservation;
use crate::render::client_left::{ClientLeft, Departure};
use crate::render::error::RenderError;
use crate::render::exchange::{Finished, StreamPart, check_status};
use crate::render::page::{Page, Rendering, Visitor};
use crate::render::shells::{KeptShell, ShellKey, Shells};
use crate::render::stream::{Abandoned, Stream, StreamEvent, StreamHead};

/// A page started whose bundle has not finished it: it waits for its data.
struct Loading {
    visitor: Arc<Visitor>,
    deadline: Instant,
    /// Past this, the bundle has had its data (or its time-out) and a render's time: the
    /// page fails.
    gives_up_at: Instant,
    per_visitor: bool,
    /// What its calls' answers named for a purge, gathered.
    data_keys: DataKeys,
    reply: Reply,
    /// A page whose shell the bundle prerenders: which page it is, and its head once it
    /// came, to keep the shell with.
    making_shell: Option<(ShellKey, Option<StreamHead>)>,
    /// Its part of the loading budget, given back when the page ends.
    _reserved: Option<Reservation>,
    /// Tells its calls that the page is gone (its client left, or it failed); made with its first call.
    departure: Option<Departure>,
}

/// What a page started brings besides its visitor and its times.
#[derive(Default)]
pub(in crate::render) struct Extras {
    pub making_shell: Option<ShellKey>,
    pub reserved: Option<Reservation>,
}

/// Which runtime a stream comes from, for a stream whose client goes away to say so.
pub(super) struct StreamSource<'a> {
    pub abandon: &'a Sender<Abandoned>,
    pub runtime: u64,
}

/// The pages loading on one thread, by job number.
pub(super) struct LoadingPages {
    pages: HashMap<u64, Loading>,
    next_job: u64,
    /// Where failures are counted: by [`LoadingPages::failed`] alone.
    stats: Arc<PoolStats>,
    /// Where the shells the bundle prerenders are kept.
    shells: Arc<Shells>,
}

impl LoadingPages {
    pub(super) fn new(stats: Arc<PoolStats>, shells: Arc<Shells>) -> Self {
        Self {
            pages: HashMap::new(),
            next_job: 0,
            stats,
            shells,
        }
    }

    /// When the first page loading is to be given up on.
    pub(super) fn wake_at(&self) -> Option<Instant> {
        self.pages.values().map(|page| page.gives_up_at).min()
    }

    /// A page started: its job number. Its data must come by `deadline`; the bundle has a
    /// render's time (`render_timeout`) after that to finish it.
    pub(super) fn add(
        &mut self,
        visitor: Arc<Visitor>,
        deadline: Instant,
        render_timeout: Duration,
        reply: impl Into<Reply>,
        extras: Extras,
    ) -> u64 {
        let job = self.next_job;
        self.next_job += 1;
        let page = Loading {
            visitor,
            deadline,
            gives_up_at: deadline.max(Instant::now()) + render_timeout,
            per_visitor: false,
            data_keys: DataKeys::default(),
            reply: reply.into(),
            making_shell: extras.making_shell.map(|key| (key, None)),
            _reserved: extras.reserved,
            departure: None,
        };
        self.pages.insert(job, page);
        job
    }

    /// Whether page `job` streams and its shell is being made (its head came, its shell
    /// not yet).
    pub(super) fn makes_shell(&self, job: u64) -> bool {
        self.pages.get(&job).is_some_and(|page| {
            matches!(page.reply, Reply::Streaming(_)) && page.making_shell.is_some()
        })
    }

    /// Whether nothing of page `job` has gone to its visitor yet (a whole page, a stream
    /// whose head has not come); false once it has ended.
    pub(super) fn sent_nothing(&self, job: u64) -> bool {
        self.pages.get(&job).is_some_and(|page| match &page.reply {
            Reply::Waiting(_) => true,
            Reply::Held(held) => !held.hold.shell_sent(),
            Reply::Streaming(_) => false,
        })
    }

    /// Who asked for page `job`, when its data must come, and word of its going before its
    /// end (its client left, or it failed), for a call it makes; `None` once it has ended.
    pub(super) fn caller(&mut self, job: u64) -> Option<(Arc<Visitor>, Instant, ClientLeft)> {
        self.pages.get_mut(&job).map(|page| {
            let departure = page.departure.get_or_insert_with(Departure::new);
            (page.visitor.clone(), page.deadline, departure.watch())
        })
    }

    /// One of the page's calls was answered: whether it made the page its visitor's alone,
    /// and the keys its answer named.
    pub(super) fn add_call(&mut self, job: u64, per_visitor: bool, data_keys: &DataKeys) {
        if let Some(page) = self.pages.get_mut(&job) {
            page.per_visitor |= per_visitor;
            if !data_keys.is_empty() {
                // Written only if a key is dropped, once a process.
                let from = format_args!("the page of trace {}", page.visitor.trace.id());
                page.data_keys = page.data_keys.and(data_keys, &from);
            }
        }
    }

    /// The page's stream is no longer read: it ends here, not as a failure, and its calls
    /// still waiting are cut. Whether it was loading.
    pub(super) fn stop(&mut self, job: u64) -> bool {
        let Some(page) = self.pages.remove(&job) else {
            return false;
        };
        if let Some(departure) = page.departure {
            departure.left();
        }
        true
    }

    /// The bundle finished a page: it goes whole to its handler, or ends its stream.
    pub(super) fn finish(&mut self, Finished { job, result }: Finished) {
        let Some(page) = self.pages.remove(&job) else {
            return;
        };
        let rendered = match result.and_then(check_status) {
            Ok(rendered) => rendered,
            Err(error) => {
                let trace_id = page.visitor.trace.id();
                tracing::error!(%error, %trace_id, "a page failed in the server bundle");
                return self.failed(page, error);
            }
        };
        let (per_visitor, data_keys) = (page.per_visitor, page.data_keys);
        let to = match page.reply.settled() {
            Reply::Waiting(reply) => reply,
            // Its data came while its shell was held: the bundle rendered it whole.
            Reply::Held(held) => held.whole,
            Reply::Streaming(events) => {
                let _ = events.send(StreamEvent::End {
                    data: rendered.data,
                    errors: Vec::new(),
                    per_visitor,
                    data_keys,
                });
                return;
            }
        };
        let _ = to.send(Ok(Rendering::Complete(Page {
            rendered,
            per_visitor,
            data_keys,
        })));
    }

    /// Sends a part of a streamed page on: its head starts the stream, its end closes it;
    /// a part out of its order fails the page.
    pub(super) fn stream(&mut self, part: StreamPart, source: StreamSource<'_>) {
        let job = part.job();
        let Some(page) = self.pages.get_mut(&job) else {
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
                if let Some((_, kept_head)) = &mut page.making_shell {
                    *kept_head = Some(head.clone());
                }
                let stream =
                    Stream::new(head, received, source.abandon.clone(), source.runtime, job);
                let _ = reply.send(Ok(Rendering::Streaming(stream)));
            }
            (
                StreamPart::Shell {
                    prelude, postponed, ..
                },
                Reply::Streaming(events),
            ) => {
                if let (Some((key, Some(head))), Some(postponed)) =
                    (page.making_shell.take(), postponed)
                {
                    // It goes back into the requests of the page's next visitors as it is.
                    match serde_json::from_str::<&RawValue>(&postponed) {
                        Ok(_) => {
                            let kept = KeptShell {
                                head,
                                prelude: prelude.as_str().into(),
                                postponed: postponed.into(),
                                pace: Default::default(),
                            };
                            self.shells.keep(key, kept);
                        }
                        Err(error) => {
                            tracing::error!(%error, "a shell's postponed state is no JSON: not kept");
                        }
                    }
                }
                let _ = events.send(StreamEvent::Html(prelude));
            }
            (StreamPart::Html { html, .. }, Reply::Streaming(events))
            | (StreamPart::Html { html, .. }, Reply::Held(HeldPage { events, .. })) => {
                let _ = events.send(StreamEvent::Html(html));
            }
            (StreamPart::End { end, .. }, Reply::Streaming(_) | Reply::Held(_)) => {
                let page = self.pages.remove(&job).expect("found above");
                if let Reply::Streaming(events) | Reply::Held(HeldPage { events, .. }) = page.reply
                {
                    let _ = events.send(StreamEvent::End {
                        data: end.data,
                        errors: end.errors,
                        per_visitor: page.per_visitor,
                        data_keys: page.data_keys,
                    });
                }
            }
            (part, _) => {
                let error = RenderError::Unreadable(format!(
                    "a part of a stream out of its order: {part:?}"
                ));
                self.fail(job, error);
            }
        }
    }

    /// Page `job` fails with `error` (a part of its stream could not be read).
    pub(super) fn fail(&mut self, job: u64, error: RenderError) {
        if let Some(page) = self.pages.remove(&job) {
            let trace_id = page.visitor.trace.id();
            tracing::error!(%error, %trace_id, "a streamed page failed in the server bundle");
            self.failed(page, error);
        }
    }

    /// Every page loading fails with `error` (its runtime broke, or is being replaced).
    pub(super) fn fail_all(&mut self, error: &RenderError) {
        for (_, page) in std::mem::take(&mut self.pages) {
            self.failed(page, error.clone());
        }
    }

    /// Pages the bundle has not finished a render time-out after their deadline fail.
    pub(super) fn give_up_on_late_pages(&mut self, now: Instant) {
        let late: Vec<u64> = self
            .pages
            .iter()
            .filter(|(_, page)| page.gives_up_at <= now)
            .map(|(job, _)| *job)
            .collect();
        for job in late {
            let page = self.pages.remove(&job).expect("listed above");
            let trace_id = page.visitor.trace.id();
            tracing::error!(%trace_id, "a page's loader never finished; sending the client-rendered page");
            self.failed(page, RenderError::TimedOut);
        }
    }

    /// The one way a page fails: counted, then told to its handler or to its stream. Its
    /// calls still waiting are cut: their answers would reach no one.
    fn failed(&self, page: Loading, error: RenderError) {
        self.stats.render_failures.fetch_add(1, Ordering::Relaxed);
        if let Some(departure) = page.departure {
            departure.left();
        }
        page.reply.fail(error);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};

    use super::super::stand_ins::{end, finished, head, loading, markup, page, rendered, visitor};
    use super::*;
    use crate::render::shell_hold::ShellHold;

    fn failures(pages: &LoadingPages) -> u64 {
        pages.stats.render_failures.load(Ordering::Relaxed)
    }

    /// The keys one answer named.
    fn keys(named: &str) -> DataKeys {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert("surrogate-key", named.parse().unwrap());
        DataKeys::of_answer(&headers, "a test")
    }

    #[test]
    fn a_finished_page_goes_whole_to_its_handler_saying_whether_it_is_the_visitors() {
        let mut pages = loading();
        let (job, mut reply) = page(&mut pages, Duration::from_secs(5));
        let (other, mut other_reply) = page(&mut pages, Duration::from_secs(5));
        pages.add_call(job, true, &keys("language-en"));
        pages.add_call(job, false, &keys("item-1 language-en"));
        pages.add_call(other, false, &DataKeys::default());
        pages.finish(finished(job, Ok(rendered(200))));
        pages.finish(finished(other, Ok(rendered(404))));
        let Ok(Rendering::Complete(whole)) = reply.try_recv().unwrap() else {
            panic!("a whole page")
        };
        assert!(whole.per_visitor, "once the visitor's, always");
        assert_eq!(
            whole.data_keys.iter().collect::<Vec<_>>(),
            ["language-en", "item-1"],
            "every call's keys, each once"
        );
        let Ok(Rendering::Complete(whole)) = other_reply.try_recv().unwrap() else {
            panic!("a whole page")
        };
        assert!(!whole.per_visitor);
        assert!(
            whole.data_keys.is_empty(),
            "another page's keys are its own"
        );
        assert_eq!(whole.rendered.status, 404);
        assert_eq!(failures(&pages), 0);
        assert!(pages.wake_at().is_none(), "no page is left loading");
    }

    #[test]
    fn a_page_the_bundle_failed_or_gave_no_page_status_fails_and_is_counted() {
        let mut pages = loading();
        let (failed, mut failed_reply) = page(&mut pages, Duration::from_secs(5));
        let (not_modified, mut not_modified_reply) = page(&mut pages, Duration::from_secs(5));
        pages.finish(finished(failed, Err(RenderError::Script("boom".into()))));
        pages.finish(finished(not_modified, Ok(rendered(304))));
        assert!(matches!(
            failed_reply.try_recv().unwrap(),
            Err(RenderError::Script(_))
        ));
        assert!(matches!(
            not_modified_reply.try_recv().unwrap(),
            Err(RenderError::Unreadable(_))
        ));
        assert_eq!(failures(&pages), 2);
        pages.finish(finished(failed, Ok(rendered(200))));
        assert_eq!(failures(&pages), 2, "a page ends once");
    }

    #[test]
    fn a_streamed_page_goes_head_first_then_its_markup_then_its_end() {
        let mut pages = loading();
        let (job, mut reply) = page(&mut pages, Duration::from_secs(5));
        let (abandon, _abandoned) = crossbeam_channel::unbounded();
        let source = || StreamSource {
            abandon: &abandon,
            runtime: 3,
        };
        pages.stream(head(job, "t"), source());
        let Ok(Rendering::Streaming(mut stream)) = reply.try_recv().unwrap() else {
            panic!("a stream")
        };
        assert_eq!(stream.head.title, "t");
        assert!(stream.try_next().is_none(), "nothing after the head yet");
        pages.add_call(job, true, &keys("status"));
        pages.stream(markup(job, "<p>"), source());
        pages.stream(end(job, r#"{"errors":["a boundary"]}"#), source());
        assert!(matches!(stream.try_next(), Some(Some(StreamEvent::Html(html))) if html == "<p>"));
        let Some(Some(StreamEvent::End {
            errors,
            per_visitor,
            data_keys,
            ..
        })) = stream.try_next()
        else {
            panic!("its end")
        };
        assert_eq!(errors, ["a boundary"]);
        assert!(per_visitor);
        assert_eq!(data_keys, keys("status"), "its keys come with its end");
        assert!(pages.wake_at().is_none());
        assert_eq!(failures(&pages), 0);
    }

    #[test]
    fn a_part_out_of_its_order_fails_the_page() {
        let mut pages = loading();
        let (job, mut reply) = page(&mut pages, Duration::from_secs(5));
        let (abandon, _abandoned) = crossbeam_channel::unbounded();
        let source = StreamSource {
            abandon: &abandon,
            runtime: 0,
        };
        pages.stream(markup(job, "<p>"), source);
        assert!(
            matches!(reply.try_recv().unwrap(), Err(RenderError::Unreadable(why)) if why.contains("out of its order"))
        );
        assert_eq!(failures(&pages), 1);
    }

    #[test]
    fn a_page_still_loading_a_render_time_out_after_its_deadline_fails() {
        let mut pages = loading();
        let (late, mut late_reply) = page(&mut pages, Duration::ZERO);
        let (_on_time, mut on_time_reply) = page(&mut pages, Duration::from_secs(60));
        let wake = pages.wake_at().expect("pages are loading");
        assert!(
            wake <= Instant::now() + Duration::from_secs(1),
            "the late page's time"
        );
        pages.give_up_on_late_pages(Instant::now());
        assert!(matches!(
            late_reply.try_recv().unwrap(),
            Err(RenderError::TimedOut)
        ));
        assert!(on_time_reply.try_recv().is_err(), "still loading");
        assert!(pages.wake_at().unwrap() > wake);
        assert_eq!(failures(&pages), 1);
        assert!(pages.caller(late).is_none());
    }

    #[test]
    fn when_the_runtime_breaks_every_page_loading_fails_and_is_counted() {
        let mut pages = loading();
        let mut replies: Vec<_> = (0..3)
            .map(|_| page(&mut pages, Duration::from_secs(5)).1)
            .collect();
        pages.fail_all(&RenderError::HeapExhausted);
        for reply in &mut replies {
            assert!(matches!(
                reply.try_recv().unwrap(),
                Err(RenderError::HeapExhausted)
            ));
        }
        assert_eq!(failures(&pages), 3);
        assert!(pages.wake_at().is_none());
    }

    #[test]
    fn a_stopped_page_ends_without_failing() {
        let mut pages = loading();
        let (job, _reply) = page(&mut pages, Duration::from_secs(5));
        assert!(pages.stop(job));
        assert!(!pages.stop(job), "once");
        pages.finish(finished(job, Err(RenderError::TimedOut)));
        assert_eq!(failures(&pages), 0);
    }

    #[test]
    fn the_calls_of_a_stopped_or_failed_page_are_cut_and_a_finished_pages_are_not() {
        use crate::render::client_left::settles;
        let mut pages = loading();
        let (stopped, _reply) = page(&mut pages, Duration::from_secs(5));
        let (_, _, call) = pages.caller(stopped).unwrap();
        assert!(pages.stop(stopped));
        assert!(settles(call), "its client left");
        let (failed, _reply) = page(&mut pages, Duration::from_secs(5));
        let (_, _, call) = pages.caller(failed).unwrap();
        pages.finish(finished(failed, Err(RenderError::TimedOut)));
        assert!(settles(call), "it failed in the bundle");
        let (broken, _reply) = page(&mut pages, Duration::from_secs(5));
        let (_, _, call) = pages.caller(broken).unwrap();
        pages.fail_all(&RenderError::HeapExhausted);
        assert!(settles(call), "its runtime broke");
        let (done, _reply) = page(&mut pages, Duration::from_secs(5));
        let (_, _, call) = pages.caller(done).unwrap();
        pages.finish(finished(done, Ok(rendered(200))));
        assert!(
            !settles(call),
            "a call of a page that finished runs to its end"
        );
    }

    #[test]
    fn a_shell_the_bundle_prerendered_is_kept_and_sent_as_the_first_markup() {
        let mut pages = loading();
        let (reply, mut replied) = tokio::sync::oneshot::channel();
        let key = ShellKey::of(&crate::render::BootState {
            language: crate::lang::demo().default_language(),
            path: "/status".into(),
            page: None,
            messages: None,
            time_zone: "UTC".into(),
            data: None,
            placement: None,
        });
        let extras = Extras {
            making_shell: Some(key.clone()),
            reserved: None,
        };
        let job = pages.add(
            visitor(),
            Instant::now(),
            Duration::from_secs(5),
            reply,
            extras,
        );
        assert!(
            !pages.makes_shell(job),
            "a page that does not stream makes none"
        );
        let (abandon, _abandoned) = crossbeam_channel::unbounded();
        let source = || StreamSource {
            abandon: &abandon,
            runtime: 0,
        };
        pages.stream(head(job, "t"), source());
        assert!(
            pages.makes_shell(job),
            "its head came: its shell is being made"
        );
        let shell = StreamPart::Shell {
            job,
            prelude: "<main>…".into(),
            postponed: Some("{}".into()),
        };
        pages.stream(shell, source());
        assert!(!pages.makes_shell(job), "made");
        let Ok(Rendering::Streaming(mut stream)) = replied.try_recv().unwrap() else {
            panic!("a stream")
        };
        assert!(
            matches!(stream.try_next(), Some(Some(StreamEvent::Html(html))) if html == "<main>…")
        );
        let kept = pages.shells.get(&key).expect("kept");
        assert_eq!(
            (&*kept.prelude, &*kept.postponed, kept.head.title.as_str()),
            ("<main>…", "{}", "t")
        );
    }

    /// Where a held page's handler hears of it whole, and as a stream.
    type Heard = (
        tokio::sync::oneshot::Receiver<Result<Rendering, RenderError>>,
        mpsc::UnboundedReceiver<StreamEvent>,
    );

    /// A held page, its handler's two ways to hear of it, and its hold.
    fn held(pages: &mut LoadingPages) -> (u64, Heard, Arc<ShellHold>) {
        let (whole, answer) = tokio::sync::oneshot::channel();
        let (events, received) = mpsc::unbounded_channel();
        let hold = Arc::new(ShellHold::new("{}".into(), Default::default()));
        let reply = Reply::Held(HeldPage {
            whole,
            events,
            hold: hold.clone(),
        });
        let job = pages.add(
            visitor(),
            Instant::now(),
            Duration::from_secs(5),
            reply,
            Extras::default(),
        );
        (job, (answer, received), hold)
    }

    #[test]
    fn a_held_page_goes_whole_to_its_handler_unless_its_shell_has_gone() {
        let mut pages = loading();
        let (job, (mut answer, _events), hold) = held(&mut pages);
        pages.finish(finished(job, Ok(rendered(200))));
        assert!(matches!(answer.try_recv(), Ok(Ok(Rendering::Complete(_)))));
        assert!(!hold.send_shell(), "finished whole: its shell never goes");

        let (job, (_answer, mut events), hold) = held(&mut pages);
        assert!(hold.send_shell());
        pages.stream(
            markup(job, "<p>"),
            StreamSource {
                abandon: &crossbeam_channel::unbounded().0,
                runtime: 0,
            },
        );
        pages.finish(finished(job, Ok(rendered(200))));
        assert!(matches!(events.try_recv(), Ok(StreamEvent::Html(html)) if html == "<p>"));
        assert!(
            matches!(events.try_recv(), Ok(StreamEvent::End { .. })),
            "its shell went: the end of its stream"
        );
        assert!(pages.wake_at().is_none());
    }

    #[test]
    fn a_held_page_that_fails_fails_where_its_handler_listens() {
        let mut pages = loading();
        let (job, (mut answer, _events), hold) = held(&mut pages);
        pages.fail(job, RenderError::Script("boom".into()));
        assert!(matches!(answer.try_recv(), Ok(Err(RenderError::Script(_)))));
        assert!(
            !hold.send_shell(),
            "its handler has the failure: no shell after it"
        );

        let (job, (_answer, mut events), hold) = held(&mut pages);
        assert!(hold.send_shell());
        pages.fail(job, RenderError::Script("boom".into()));
        assert!(matches!(events.try_recv(), Ok(StreamEvent::Failed(_))));
    }
}
