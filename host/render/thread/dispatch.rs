//! What a render thread does with the outbox a call into the bundle left, entry by entry in
//! the order the bundle handed them over: the bundle's log lines go to the host's log, the
//! API calls it asked for are made (elsewhere, by the [`ApiCaller`]), and the pages it
//! finished, whole or in parts, go to their handlers.

use crossbeam_channel::Sender;

use super::call_answers::CallAnswer;
use super::loading::{LoadingPages, StreamSource};
use crate::data_keys::DataKeys;
use crate::render::contract::{ApiAnswer, ApiCall};
use crate::render::error::RenderError;
use crate::render::exchange::{Outbox, OutboxEntry, write_log};
use crate::render::page::{ApiCaller, CallOutcome};
use crate::render::stream::Abandoned;

/// Where an outbox's entries go.
pub(super) struct Dispatch<'a> {
    pub loading: &'a mut LoadingPages,
    pub api: &'a dyn ApiCaller,
    /// Where the answers to the calls come back to the thread.
    pub answers: &'a Sender<CallAnswer>,
    pub abandon: &'a Sender<Abandoned>,
    /// The runtime that left the outbox.
    pub runtime: u64,
}

impl Dispatch<'_> {
    /// Sends the pages finished and has the API calls asked for made; fails when an API
    /// call cannot be read (it names neither its page nor itself: the exchange is broken;
    /// the other entries are dispatched all the same).
    pub(super) fn outbox(mut self, outbox: Outbox) -> Result<(), RenderError> {
        let mut unreadable = None;
        for entry in outbox.0.into_iter().map(OutboxEntry::read) {
            match entry {
                OutboxEntry::Log { level, message } => write_log(&level, &message),
                OutboxEntry::Fetch(Ok(call)) => self.call(call),
                OutboxEntry::Fetch(Err(error)) => unreadable = Some(error),
                OutboxEntry::Finished(finished) => self.loading.finish(finished),
                OutboxEntry::Part(Ok(part)) => {
                    let source = StreamSource {
                        abandon: self.abandon,
                        runtime: self.runtime,
                    };
                    self.loading.stream(part, source);
                }
                OutboxEntry::Part(Err((job, error))) => self.loading.fail(job, error),
            }
        }
        unreadable.map_or(Ok(()), Err)
    }

    /// Has a page's API call made, its answer coming back to this runtime; a call for a
    /// page no longer loading is answered at once, and not made.
    fn call(&mut self, call: ApiCall) {
        let (id, job, runtime) = (call.id, call.job, self.runtime);
        let answers = self.answers.clone();
        let reply = move |outcome: CallOutcome| {
            let _ = answers.send(CallAnswer {
                runtime,
                job,
                outcome,
            });
        };
        match self.loading.caller(job) {
            Some((visitor, deadline, left)) => {
                self.api
                    .call(call, visitor, deadline, left, Box::new(reply));
            }
            None => reply(CallOutcome {
                answer: ApiAnswer::failed(id, "this page is no longer being rendered"),
                per_visitor: false,
                data_keys: DataKeys::default(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use super::super::stand_ins::{loading, page};
    use super::*;
    use crate::render::exchange::Handed;
    use crate::render::{ClientLeft, Rendering, Visitor};

    type Answer = Box<dyn FnOnce(CallOutcome) + Send>;

    /// An [`ApiCaller`] that keeps each call, its deadline and the way to answer it.
    #[derive(Default)]
    struct Calls(Mutex<Vec<(ApiCall, Instant, Answer)>>);

    impl ApiCaller for Calls {
        fn call(
            &self,
            call: ApiCall,
            _visitor: Arc<Visitor>,
            deadline: Instant,
            _left: ClientLeft,
            answer: Answer,
        ) {
            self.0.lock().unwrap().push((call, deadline, answer));
        }
    }

    /// Dispatches what the bundle handed over (and a log line) as runtime 7 would: what it
    /// returned, and the answers that came back to the thread.
    fn dispatch(
        pages: &mut LoadingPages,
        api: &Calls,
        handed: Vec<Handed>,
    ) -> (
        Result<(), RenderError>,
        crossbeam_channel::Receiver<CallAnswer>,
    ) {
        let (answers, answered) = crossbeam_channel::unbounded();
        let (abandon, _abandoned) = crossbeam_channel::unbounded();
        let log = Handed::Log {
            level: "info".into(),
            message: "m".into(),
        };
        let outcome = Dispatch {
            loading: pages,
            api,
            answers: &answers,
            abandon: &abandon,
            runtime: 7,
        }
        .outbox(Outbox(std::iter::once(log).chain(handed).collect()));
        (outcome, answered)
    }

    fn fetch(id: u64, job: u64) -> Handed {
        Handed::Fetch {
            call: format!(
                r#"{{"id":{id},"job":{job},"method":"GET","url":"/api/status","headers":{{}},"body":null}}"#
            ),
        }
    }

    #[test]
    fn a_loading_pages_calls_are_made_by_its_deadline_and_answered_to_its_runtime() {
        let mut pages = loading();
        let api = Calls::default();
        let (job, _reply) = page(&mut pages, Duration::from_secs(5));
        let (_, deadline, _) = pages.caller(job).unwrap();
        let (outcome, answered) = dispatch(&mut pages, &api, vec![fetch(1, job), fetch(2, job)]);
        assert!(outcome.is_ok());
        assert!(answered.is_empty(), "answered when the API answers");
        let made = std::mem::take(&mut *api.0.lock().unwrap());
        assert_eq!(
            made.iter().map(|(call, ..)| call.id).collect::<Vec<_>>(),
            [1, 2]
        );
        for (call, by, answer) in made {
            assert_eq!(by, deadline);
            answer(CallOutcome {
                answer: ApiAnswer::failed(call.id, "x"),
                per_visitor: call.id == 2,
                data_keys: DataKeys::default(),
            });
        }
        let answers: Vec<CallAnswer> = answered.try_iter().collect();
        assert_eq!(
            answers
                .iter()
                .map(|a| (a.runtime, a.job, a.outcome.answer.id, a.outcome.per_visitor))
                .collect::<Vec<_>>(),
            [(7, job, 1, false), (7, job, 2, true)]
        );
    }

    #[test]
    fn a_call_for_a_page_no_longer_loading_is_answered_at_once_and_not_made() {
        let mut pages = loading();
        let api = Calls::default();
        let (outcome, answered) = dispatch(&mut pages, &api, vec![fetch(4, 99)]);
        let answered: Vec<CallAnswer> = answered.try_iter().collect();
        assert!(outcome.is_ok());
        assert!(api.0.lock().unwrap().is_empty());
        let [answer] = answered.as_slice() else {
            panic!("one answer")
        };
        assert_eq!(
            (answer.runtime, answer.job, answer.outcome.answer.id),
            (7, 99, 4)
        );
        assert_eq!(
            answer.outcome.answer.error.as_deref(),
            Some("this page is no longer being rendered")
        );
    }

    #[test]
    fn finished_pages_and_stream_parts_go_to_their_handlers() {
        let mut pages = loading();
        let api = Calls::default();
        let (whole, mut whole_reply) = page(&mut pages, Duration::from_secs(5));
        let (streamed, mut streamed_reply) = page(&mut pages, Duration::from_secs(5));
        let handed = vec![
            Handed::Rendered {
                job: whole,
                html: "<p>x</p>".into(),
                result:
                    r#"{"status":200,"title":"t","description":"d","sharing":{"kind":"public"}}"#
                        .to_string(),
            },
            Handed::Head {
                job: streamed,
                head: r#"{"status":200,"title":"s","description":""}"#.to_string(),
            },
            Handed::Part {
                job: streamed,
                html: "<p>".into(),
            },
        ];
        let (outcome, _) = dispatch(&mut pages, &api, handed);
        assert!(outcome.is_ok());
        let Ok(Rendering::Complete(page)) = whole_reply.try_recv().unwrap() else {
            panic!("a whole page")
        };
        assert_eq!(page.rendered.html, "<p>x</p>");
        let Ok(Rendering::Streaming(mut stream)) = streamed_reply.try_recv().unwrap() else {
            panic!("a stream")
        };
        assert!(matches!(
            stream.try_next(),
            Some(Some(crate::render::StreamEvent::Html(_)))
        ));
        assert!(pages.caller(whole).is_none() && pages.caller(streamed).is_some());
    }

    #[test]
    fn a_part_that_cannot_be_read_fails_its_own_page_alone() {
        let mut pages = loading();
        let api = Calls::default();
        let (job, mut reply) = page(&mut pages, Duration::from_secs(5));
        let (other, _other_reply) = page(&mut pages, Duration::from_secs(5));
        let head = Handed::Head {
            job,
            head: "5".into(),
        };
        let (outcome, _) = dispatch(&mut pages, &api, vec![head]);
        assert!(outcome.is_ok(), "the exchange holds");
        assert!(matches!(
            reply.try_recv().unwrap(),
            Err(RenderError::Unreadable(_))
        ));
        assert!(pages.caller(other).is_some());
    }

    #[test]
    fn a_call_that_cannot_be_read_breaks_the_exchange_after_the_others_are_dispatched() {
        let mut pages = loading();
        let api = Calls::default();
        let (job, mut reply) = page(&mut pages, Duration::from_secs(5));
        let handed = vec![
            Handed::Fetch {
                call: r#"{"neither":1}"#.into(),
            },
            Handed::Failed {
                job,
                why: "boom".into(),
            },
            fetch(1, job),
        ];
        let (outcome, _) = dispatch(&mut pages, &api, handed);
        assert!(
            matches!(&outcome, Err(RenderError::Unreadable(why)) if why.contains("neither")),
            "{outcome:?}"
        );
        assert!(matches!(
            reply.try_recv().unwrap(),
            Err(RenderError::Script(_))
        ));
        assert_eq!(
            api.0.lock().unwrap().len(),
            0,
            "a call of a page that failed is answered, not made"
        );
    }
}
