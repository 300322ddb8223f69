//! What the thread's loop takes next, with no V8 behind it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Sender, unbounded};

use super::call_answers::CallAnswer;
use super::stand_ins::page;
use super::{Event, Job, Queues, Reload, RenderThread, ThreadContext};
use crate::data_keys::DataKeys;
use crate::render::readiness::Readiness;
use crate::render::stream::Abandoned;
use crate::render::warm_up::WarmUp;
use crate::render::{
    ApiAnswer, ApiCall, ApiCaller, Bundle, CallOutcome, ClientLeft, Limits, Visitor,
};

/// An [`ApiCaller`] no test here calls.
struct NoCalls;

impl ApiCaller for NoCalls {
    fn call(
        &self,
        _: ApiCall,
        _: Arc<Visitor>,
        _: Instant,
        _: ClientLeft,
        _: Box<dyn FnOnce(CallOutcome) + Send>,
    ) {
        unreachable!("no page here makes a call");
    }
}

/// What keeps a test thread's queues open: no job comes, and none is closed.
type Open = (Sender<Job>, Sender<Job>, Sender<Reload>);

/// A thread of runtime 0 that has never started a runtime.
fn thread() -> (RenderThread, Open) {
    let limits = Limits {
        timeout: Duration::from_secs(1),
        heap_bytes: 64 << 20,
    };
    let context = Arc::new(ThreadContext {
        bundle: Bundle::Script("".into()),
        warm_up: WarmUp {
            requests: Vec::new(),
            timeout: Duration::from_secs(1),
            limits,
        },
        render_seconds: metrics::Histogram::noop(),
        api: Arc::new(NoCalls),
        stats: Arc::new(super::PoolStats::new(1)),
        readiness: Arc::new(Readiness::new(1)),
        shells: Arc::default(),
    });
    let ((to_whole, whole), (to_resumed, resumed)) = (unbounded(), unbounded());
    let (to_reload, reloads) = unbounded();
    let thread = RenderThread::new(context, Queues { whole, resumed }, reloads, 0);
    (thread, (to_whole, to_resumed, to_reload))
}

fn answer(job: u64) -> CallAnswer {
    CallAnswer {
        runtime: 0,
        job,
        outcome: CallOutcome {
            answer: ApiAnswer::failed(job, "an answer"),
            per_visitor: false,
            data_keys: DataKeys::default(),
        },
    }
}

#[test]
fn a_client_that_left_is_heard_before_the_answers_held_go_in() {
    let (mut thread, _open) = thread();
    thread.held.hold([answer(1), answer(2)], |_| false);
    assert!(!thread.held.is_empty());
    let left = Abandoned {
        runtime: 0,
        job: 2,
        counted: true,
    };
    thread.abandoned_tx.send(left).unwrap();
    assert!(
        matches!(
            thread.next_event(),
            Event::Abandoned(Abandoned { job: 2, .. })
        ),
        "the page whose client left is stopped before its data reaches the bundle"
    );
    assert!(matches!(thread.next_event(), Event::Answers(batch) if batch.len() == 2));
}

#[test]
fn a_client_that_left_is_heard_before_answers_that_came_with_its_cancel() {
    let (mut thread, _open) = thread();
    let (job, _reply) = page(&mut thread.loading, Duration::from_secs(5));
    // Both ready at once, many times: a choice left to chance would lose some.
    for _ in 0..32 {
        thread.answers_tx.send(answer(job)).unwrap();
        let left = Abandoned {
            runtime: 0,
            job,
            counted: true,
        };
        thread.abandoned_tx.send(left).unwrap();
        assert!(matches!(thread.next_event(), Event::Abandoned(_)));
        assert!(matches!(thread.next_event(), Event::Answers(batch) if batch.len() == 1));
    }
}
