//! A request's trace as it is answered: its context, which always travels; the moments of
//! its page's render the answer's `Server-Timing` reads (always kept: a few instants); and
//! its spans, recorded only when an exporter is set and the caller did not ask otherwise,
//! then handed to the exporter in one piece when the request ends. Times are taken as
//! `Instant`s and written as wall-clock times from the request's start, so a span is never
//! negative and a clock step cannot reorder a page's spans.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Instant, SystemTime};

use super::context::{SpanId, TraceContext, TraceId};
use super::export::Exporter;
use super::span::{Kind, SpanRecord, Value};

/// A request's trace; clones share it (the page handler, the render thread, the loader's
/// calls, the body that streams).
#[derive(Clone, Debug)]
pub struct Trace(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    context: TraceContext,
    /// The span the page's render is: its loader's calls are its children.
    render_span: SpanId,
    spans: Option<Spans>,
    moments: Moments,
}

/// When the page's render left the queue, and when its API calls ran (from the first
/// one's start to the last one's end).
#[derive(Debug, Default)]
struct Moments {
    taken: OnceLock<Instant>,
    calls: Mutex<Option<(Instant, Instant)>>,
}

impl Trace {
    /// `exporter`: where spans go; `None` records none.
    pub fn new(context: TraceContext, exporter: Option<&Arc<Exporter>>) -> Self {
        let spans = exporter
            .filter(|_| context.sampled)
            .map(|exporter| Spans::new(exporter.clone()));
        Self(Arc::new(Shared {
            context,
            render_span: SpanId::random(),
            spans,
            moments: Moments::default(),
        }))
    }

    /// A trace that records nothing (tests, work done outside any request).
    pub fn untraced() -> Self {
        Self::new(TraceContext::start(), None)
    }

    pub fn id(&self) -> TraceId {
        self.0.context.trace_id
    }

    pub fn context(&self) -> &TraceContext {
        &self.0.context
    }

    /// The span the page's render is: its loader's calls are its children.
    pub fn render_span(&self) -> SpanId {
        self.0.render_span
    }

    /// Whether spans are recorded.
    pub fn recording(&self) -> bool {
        self.0.spans.is_some()
    }

    /// The render thread took the page off the queue (the first time counts).
    pub fn mark_taken(&self) {
        let _ = self.0.moments.taken.set(Instant::now());
    }

    pub fn taken(&self) -> Option<Instant> {
        self.0.moments.taken.get().copied()
    }

    /// An API call of the page's loader ran from `start` to `end`.
    pub fn add_call(&self, start: Instant, end: Instant) {
        let mut calls = self.0.moments.calls.lock().expect("calls lock");
        *calls = Some(match *calls {
            Some((first, last)) => (first.min(start), last.max(end)),
            None => (start, end),
        });
    }

    /// From the first API call's start to the last one's end, if any was made.
    pub fn calls(&self) -> Option<(Instant, Instant)> {
        *self.0.moments.calls.lock().expect("calls lock")
    }

    /// Records `span` (a child of the request's span unless it names its parent).
    pub fn record(&self, span: Span) {
        if let Some(spans) = &self.0.spans {
            spans.record(span.parent.unwrap_or(self.0.context.span_id), span);
        }
    }

    /// Ends the request's own span and sends every span of the request.
    pub fn finish(
        &self,
        name: Cow<'static, str>,
        attributes: Vec<(&'static str, Value)>,
        failed: bool,
    ) {
        if let Some(spans) = &self.0.spans {
            spans.finish(&self.0.context, name, attributes, failed);
        }
    }
}

/// A span to record, with its times as instants.
pub struct Span {
    pub id: SpanId,
    /// `None`: a child of the request's own span.
    pub parent: Option<SpanId>,
    pub name: &'static str,
    pub kind: Kind,
    pub start: Instant,
    pub end: Instant,
    pub attributes: Vec<(&'static str, Value)>,
    pub failed: bool,
}

impl Span {
    pub fn internal(name: &'static str, start: Instant, end: Instant) -> Self {
        Self {
            id: SpanId::random(),
            parent: None,
            name,
            kind: Kind::Internal,
            start,
            end,
            attributes: Vec::new(),
            failed: false,
        }
    }

    pub fn with(mut self, key: &'static str, value: Value) -> Self {
        self.attributes.push((key, value));
        self
    }
}

#[derive(Debug)]
struct Spans {
    exporter: Arc<Exporter>,
    started: Instant,
    started_at: SystemTime,
    finished: Mutex<Vec<SpanRecord>>,
    /// Sent already: a span recorded after (a call still running when the client left)
    /// is dropped with the rest of nothing.
    sent: OnceLock<()>,
}

impl Spans {
    fn new(exporter: Arc<Exporter>) -> Self {
        Self {
            exporter,
            started: Instant::now(),
            started_at: SystemTime::now(),
            finished: Mutex::new(Vec::with_capacity(8)),
            sent: OnceLock::new(),
        }
    }

    fn at(&self, instant: Instant) -> SystemTime {
        match instant.checked_duration_since(self.started) {
            Some(after) => self.started_at + after,
            None => self.started_at - self.started.duration_since(instant),
        }
    }

    fn record(&self, parent: SpanId, span: Span) {
        let record = SpanRecord {
            id: span.id,
            parent: Some(parent),
            name: Cow::Borrowed(span.name),
            kind: span.kind,
            start: self.at(span.start),
            end: self.at(span.end.max(span.start)),
            attributes: span.attributes,
            failed: span.failed,
        };
        if self.sent.get().is_none() {
            self.finished.lock().expect("spans lock").push(record);
        }
    }

    fn finish(
        &self,
        context: &TraceContext,
        name: Cow<'static, str>,
        attributes: Vec<(&'static str, Value)>,
        failed: bool,
    ) {
        if self.sent.set(()).is_err() {
            return;
        }
        let mut spans = std::mem::take(&mut *self.finished.lock().expect("spans lock"));
        spans.push(SpanRecord {
            id: context.span_id,
            parent: context.parent_id,
            name,
            kind: Kind::Server,
            start: self.started_at,
            end: self.at(Instant::now()),
            attributes,
            failed,
        });
        self.exporter.send(context, spans);
    }
}
