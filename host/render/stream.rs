//! A page the host sends as it is rendered: its head at once, then its markup as React
//! writes it (the parts of the screen that wait for data arrive as their data does), then
//! its end. The render thread feeds a [`Stream`]; the page handler drains it into the
//! response. A stream dropped before its end (its client went away) tells the thread,
//! which stops the render's work.

use std::sync::{Arc, Mutex};

use crossbeam_channel::Sender;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

pub use super::contract::StreamHead;
use super::error::RenderError;
use crate::data_keys::DataKeys;

/// What comes after the head.
#[derive(Debug)]
pub enum StreamEvent {
    /// More markup, in order.
    Html(String),
    /// The page is whole: the loader's outcome (for the boot state), what failed in a
    /// boundary, whether the data is the visitor's alone, and the keys it named (too late
    /// for the head, which has gone).
    End {
        data: Option<Box<RawValue>>,
        errors: Vec<String>,
        per_visitor: bool,
        data_keys: DataKeys,
    },
    /// The page cannot be finished (its render ran out of time, its runtime broke).
    Failed(RenderError),
}

/// A stream whose client went away (or, `counted: false`, that no one was to read: an
/// answer to HEAD), for its render thread.
pub(super) struct Abandoned {
    pub runtime: u64,
    pub job: u64,
    pub counted: bool,
}

/// Where to say a stream's client went away: known once a render thread has its job (a
/// stream that starts from a kept shell is sent before any thread has it).
pub(super) type AbandonAt = Arc<Mutex<AbandonSlot>>;

#[derive(Default)]
pub(super) enum AbandonSlot {
    /// No thread has the job yet.
    #[default]
    Unknown,
    /// Who to tell, and what.
    Known(Sender<Abandoned>, Abandoned),
    /// The stream went before a thread had its job (counted unless it answered a HEAD):
    /// the thread is told as it takes the job.
    Gone { counted: bool },
}

/// A thread took the job of a stream that started before it: it is told when the client
/// goes away, or at once if the client went while the job was on its way.
pub(super) fn tell_when_abandoned(at: &AbandonAt, to: Sender<Abandoned>, abandoned: Abandoned) {
    let mut slot = at.lock().expect("abandon lock");
    match *slot {
        AbandonSlot::Gone { counted } => {
            let _ = to.send(Abandoned {
                counted,
                ..abandoned
            });
        }
        _ => *slot = AbandonSlot::Known(to, abandoned),
    }
}

/// A page being streamed, from its render thread.
pub struct Stream {
    pub head: StreamHead,
    events: mpsc::UnboundedReceiver<StreamEvent>,
    /// Until the end comes: where to say the client went away.
    abandon: Option<AbandonAt>,
}

impl Stream {
    pub(super) fn new(
        head: StreamHead,
        events: mpsc::UnboundedReceiver<StreamEvent>,
        abandon: Sender<Abandoned>,
        runtime: u64,
        job: u64,
    ) -> Self {
        let at = Abandoned {
            runtime,
            job,
            counted: true,
        };
        Self {
            head,
            events,
            abandon: Some(Arc::new(Mutex::new(AbandonSlot::Known(abandon, at)))),
        }
    }

    /// A stream whose render thread is not known yet: it says where to be told once it is.
    pub(super) fn before_its_thread(
        head: StreamHead,
        events: mpsc::UnboundedReceiver<StreamEvent>,
    ) -> (Self, AbandonAt) {
        let at = AbandonAt::default();
        let stream = Self {
            head,
            events,
            abandon: Some(at.clone()),
        };
        (stream, at)
    }

    /// A stream fed by a test, with no render thread behind it.
    #[cfg(test)]
    pub fn scripted(head: StreamHead, events: mpsc::UnboundedReceiver<StreamEvent>) -> Self {
        Self {
            head,
            events,
            abandon: None,
        }
    }

    /// The page came whole instead (its shell was held, and its data came): there is no
    /// render of this stream to stop.
    pub(super) fn went_whole(mut self) {
        self.abandon = None;
    }

    /// Stops the render: the answer has its head and needs no body (HEAD).
    pub fn discard(self) {
        if let Some(at) = &self.abandon {
            match &mut *at.lock().expect("abandon lock") {
                AbandonSlot::Known(_, abandoned) => abandoned.counted = false,
                slot => *slot = AbandonSlot::Gone { counted: false },
            }
        }
    }

    /// The next part if it has come already: `Some(None)` once the stream has ended.
    pub fn try_next(&mut self) -> Option<Option<StreamEvent>> {
        let event = match self.events.try_recv() {
            Ok(event) => Some(event),
            Err(mpsc::error::TryRecvError::Empty) => return None,
            Err(mpsc::error::TryRecvError::Disconnected) => None,
        };
        Some(self.seen(event))
    }

    /// The next part; `None` once the stream has ended.
    pub async fn next(&mut self) -> Option<StreamEvent> {
        let event = self.events.recv().await;
        self.seen(event)
    }

    /// Once the render has ended, leaving is no longer abandoning it.
    fn seen(&mut self, event: Option<StreamEvent>) -> Option<StreamEvent> {
        if !matches!(event, Some(StreamEvent::Html(_))) {
            self.abandon = None;
        }
        event
    }
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("head", &self.head)
            .finish_non_exhaustive()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let Some(at) = self.abandon.take() else {
            return;
        };
        let mut slot = at.lock().expect("abandon lock");
        match std::mem::take(&mut *slot) {
            AbandonSlot::Known(to, abandoned) => {
                let _ = to.send(abandoned);
            }
            AbandonSlot::Unknown => *slot = AbandonSlot::Gone { counted: true },
            gone @ AbandonSlot::Gone { .. } => *slot = gone,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head() -> StreamHead {
        StreamHead {
            status: 200,
            title: "t".into(),
            description: "d".into(),
        }
    }

    /// What a thread that took job 3 of runtime 0 hears, once it has the job.
    fn heard_by_the_thread(at: &AbandonAt) -> Option<(u64, bool)> {
        let (to, told) = crossbeam_channel::unbounded();
        let abandoned = Abandoned {
            runtime: 0,
            job: 3,
            counted: true,
        };
        tell_when_abandoned(at, to, abandoned);
        told.try_recv().ok().map(|a| (a.job, a.counted))
    }

    #[test]
    fn a_client_gone_before_a_thread_had_its_job_is_heard_as_the_thread_takes_it() {
        let (stream, at) = Stream::before_its_thread(head(), mpsc::unbounded_channel().1);
        drop(stream);
        assert_eq!(heard_by_the_thread(&at), Some((3, true)));
    }

    #[test]
    fn a_head_answered_before_a_thread_had_its_job_is_not_counted_as_a_client_gone() {
        let (stream, at) = Stream::before_its_thread(head(), mpsc::unbounded_channel().1);
        stream.discard();
        assert_eq!(heard_by_the_thread(&at), Some((3, false)));
    }

    #[test]
    fn a_client_still_there_is_not_heard_until_it_goes() {
        let (stream, at) = Stream::before_its_thread(head(), mpsc::unbounded_channel().1);
        let (to, told) = crossbeam_channel::unbounded();
        let abandoned = Abandoned {
            runtime: 0,
            job: 3,
            counted: true,
        };
        tell_when_abandoned(&at, to, abandoned);
        assert!(told.try_recv().is_err());
        drop(stream);
        assert_eq!(told.try_recv().map(|a| a.job).ok(), Some(3));
    }
}
