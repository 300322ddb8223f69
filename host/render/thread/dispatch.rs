//! What a render thread does with the outbox a call into the bundle left: the bundle's log
//! lines go to the host's log, the API calls it asked for are made (elsewhere, by the
//! [`ApiCaller`]), and the pages it finished, whole or in parts, go to their handlers.

use crossbeam_channel::Sender;

use super::call_answers::CallAnswer;
use super::loading::{LoadingPages, StreamSource};
use crate::data_keys::DataKeys;
use crate::render::contract::ApiAnswer;
use crate::render::error::RenderError;
use crate::render::exchange::{Finished, Outbox, StreamPart, with_handed_markup};
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
    /// Sends the pages finished and has the API calls asked for made; fails when an entry
    /// of the outbox does not even say which page it is for (the exchange is broken: its
    /// other entries are dispatched all the same).
    pub(super) fn outbox(self, mut outbox: Outbox) -> Result<(), RenderError> {
        let markup = std::mem::take(&mut outbox.markup);
        with_handed_markup(markup, || self.entries(outbox))
    }

    fn entries(self, mut outbox: Outbox) -> Result<(), RenderError> {
        outbox.write_logs();
        for call in outbox.fetches {
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
        let mut unreadable = None;
        for entry in outbox.done {
            match Finished::read(&entry) {
                Some(finished) => self.loading.finish(finished),
                None => {
                    unreadable = Some(RenderError::Unreadable(format!(
                        "a finished page that names no page: {:.200}",
                        entry.get()
                    )));
                }
            }
        }
        for entry in outbox.parts {
            match StreamPart::read(&entry) {
                Some(Ok(part)) => self.loading.stream(
                    part,
                    StreamSource {
                        abandon: self.abandon,
                        runtime: self.runtime,
                    },
                ),
                Some(Err((job, error))) => self.loading.fail(job, error),
                None => {
                    unreadable = Some(RenderError::Unreadable(format!(
                        "a part of a stream that names no page: {:.200}",
                        entry.get()
                    )));
                }
            }
        }
        unreadable.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use super::super::stand_ins::{loading, page};
    use super::*;
    use crate::render::{ApiCall, ClientLeft, Rendering, Visitor};

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

    /// Dispatches `outbox` as runtime 7 would: what it returned, and the answers that came
    /// back to the thread.
    fn dispatch(
        pages: &mut LoadingPages,
        api: &Calls,
        outbox: &str,
    ) -> (
        Result<(), RenderError>,
        crossbeam_channel::Receiver<CallAnswer>,
    ) {
        let (answers, answered) = crossbeam_channel::unbounded();
        let (abandon, _abandoned) = crossbeam_channel::unbounded();
        let outcome = Dispatch {
            loading: pages,
            api,
            answers: &answers,
            abandon: &abandon,
            runtime: 7,
        }
        .outbox(Outbox::read(outbox).unwrap());
        (outcome, answered)
    }

    fn outbox(done: &str, parts: &str, fetches: &str) -> String {
        format!(
            r#"{{"done":[{done}],"parts":[{parts}],"fetches":[{fetches}],"logs":[{{"level":"info","message":"m"}}],"more":false}}"#
        )
    }

    fn fetch(id: u64, job: u64) -> String {
        format!(
            r#"{{"id":{id},"job":{job},"method":"GET","url":"/api/status","headers":{{}},"body":null}}"#
        )
    }

    #[test]
    fn a_loading_pages_calls_are_made_by_its_deadline_and_answered_to_its_runtime() {
        let mut pages = loading();
        let api = Calls::default();
        let (job, _reply) = page(&mut pages, Duration::from_secs(5));
        let (_, deadline, _) = pages.caller(job).unwrap();
        let calls = format!("{},{}", fetch(1, job), fetch(2, job));
        let (outcome, answered) = dispatch(&mut pages, &api, &outbox("", "", &calls));
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
        let (outcome, answered) = dispatch(&mut pages, &api, &outbox("", "", &fetch(4, 99)));
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
        let done = format!(
            r#"{{"job":{whole},"result":{{"status":200,"title":"t","description":"d","html":"<p>x</p>","sharing":{{"kind":"public"}},"page":{{"route":"home","params":{{}},"paths":{{"fr":"/","en":"/"}}}}}}}}"#
        );
        let parts = format!(
            r#"{{"job":{streamed},"head":{{"status":200,"title":"s","description":"","page":{{"route":"home","params":{{}},"paths":{{"fr":"/","en":"/"}}}}}}}},{{"job":{streamed},"html":"<p>"}}"#
        );
        let (outcome, _) = dispatch(&mut pages, &api, &outbox(&done, &parts, ""));
        assert!(outcome.is_ok());
        assert!(matches!(
            whole_reply.try_recv().unwrap(),
            Ok(Rendering::Complete(_))
        ));
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
        let parts = format!(r#"{{"job":{job},"html":5}}"#);
        let (outcome, _) = dispatch(&mut pages, &api, &outbox("", &parts, ""));
        assert!(outcome.is_ok(), "the exchange holds");
        assert!(matches!(
            reply.try_recv().unwrap(),
            Err(RenderError::Unreadable(_))
        ));
        assert!(pages.caller(other).is_some());
    }

    #[test]
    fn an_entry_that_names_no_page_breaks_the_exchange_after_the_others_are_dispatched() {
        for (done, parts) in [(r#"{"neither":1}"#, ""), ("", r#"{"html":"<p>"}"#)] {
            let mut pages = loading();
            let api = Calls::default();
            let (job, mut reply) = page(&mut pages, Duration::from_secs(5));
            let finished = format!(r#"{{"job":{job},"failed":"boom"}}"#);
            let done = [done, &finished]
                .iter()
                .filter(|e| !e.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(",");
            let (outcome, _) = dispatch(&mut pages, &api, &outbox(&done, parts, &fetch(1, job)));
            assert!(
                matches!(&outcome, Err(RenderError::Unreadable(why)) if why.contains("names no page")),
                "{outcome:?}"
            );
            assert!(matches!(
                reply.try_recv().unwrap(),
                Err(RenderError::Script(_))
            ));
            assert_eq!(
                api.0.lock().unwrap().len(),
                1,
                "its call was made all the same"
            );
        }
    }
}
