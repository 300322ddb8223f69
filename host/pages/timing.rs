//! Where a page's time went, for the browser's developer tools (`Server-Timing`) and for the
//! trace: the wait for a render thread, the render, the loader's API calls, the coding. In
//! headers only: a public page's bytes, and so its `ETag`, are the same whatever its
//! timings were. A page from the cache says so and nothing else; a streamed page says what
//! is known when its head goes out, and the rest in a trailer where the protocol allows.

use std::time::{Duration, Instant};

use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;

use crate::trace::server_timing::{self, Metric};
use crate::trace::{Kind, Span, Trace, Value};

pub const SERVER_TIMING: HeaderName = HeaderName::from_static("server-timing");

/// The moments of one render.
#[derive(Clone, Copy, Debug)]
pub struct RenderTimes {
    /// The page was handed to the render threads.
    pub asked: Instant,
    /// A render thread took it (absent when the render never started: the queue was full,
    /// or a stand-in renderer).
    pub taken: Option<Instant>,
    /// The page came whole, or its head came (a stream), or the render failed.
    pub answered: Instant,
}

impl RenderTimes {
    fn queue(&self) -> Duration {
        self.taken
            .unwrap_or(self.answered)
            .saturating_duration_since(self.asked)
    }

    fn started(&self) -> Instant {
        self.taken.unwrap_or(self.asked)
    }

    /// The render thread's time until `until`, less the time its data took.
    fn rendering(&self, until: Instant, data: Option<Duration>) -> Duration {
        until
            .saturating_duration_since(self.started())
            .saturating_sub(data.unwrap_or_default())
    }

    /// Records the wait for a render thread, and the render up to `until` (the page whole,
    /// or the stream's end): its loader's calls are children of it.
    pub fn record(&self, trace: &Trace, until: Instant, failed: bool) {
        if !trace.recording() {
            return;
        }
        if let Some(taken) = self.taken {
            trace.record(Span::internal("render queue", self.asked, taken));
        }
        trace.record(Span {
            id: trace.render_span(),
            kind: Kind::Internal,
            failed,
            ..Span::internal("render", self.started(), until)
        });
    }
}

fn data(trace: &Trace) -> Option<Duration> {
    trace
        .calls()
        .map(|(first, last)| last.saturating_duration_since(first))
}

/// A page rendered whole: the queue, the render (less its data), the data, the coding.
pub fn whole(response: &mut Response, times: &RenderTimes, trace: &Trace, encoding: Duration) {
    let data = data(trace);
    let mut metrics = vec![
        Metric::took("queue", times.queue()),
        Metric::took("render", times.rendering(times.answered, data)),
    ];
    if let Some(data) = data {
        metrics.push(Metric::took("data", data));
    }
    metrics.push(Metric::took("encode", encoding));
    metrics.push(Metric::said("cache", "miss"));
    set(response, &metrics);
    if trace.recording() {
        let end = Instant::now();
        trace.record(Span::internal("encode", end - encoding, end));
    }
}

/// A page from the cache.
pub fn kept(mut response: Response) -> Response {
    set(&mut response, &[Metric::said("cache", "hit")]);
    response
}

/// A streamed page's head: the queue, and the render until the head was ready.
pub fn streamed_head(times: &RenderTimes) -> HeaderValue {
    server_timing::header(&[
        Metric::took("queue", times.queue()),
        Metric::took("head", times.rendering(times.answered, None)),
    ])
}

/// A streamed page's trailer, at its end: its data, the stream after the head, the coding
/// of its parts; and the spans of its render and its streaming.
pub fn streamed_end(
    times: &RenderTimes,
    trace: &Trace,
    encoding: Duration,
    failed: bool,
) -> HeaderValue {
    let end = Instant::now();
    times.record(trace, end, failed);
    if trace.recording() {
        trace.record(Span::internal("stream", times.answered, end).with(
            "bilingue.encode_micros",
            Value::Number(encoding.as_micros() as i64),
        ));
    }
    let mut metrics = Vec::with_capacity(3);
    if let Some(data) = data(trace) {
        metrics.push(Metric::took("data", data));
    }
    metrics.push(Metric::took(
        "stream",
        end.saturating_duration_since(times.answered),
    ));
    metrics.push(Metric::took("encode", encoding));
    server_timing::header(&metrics)
}

fn set(response: &mut Response, metrics: &[Metric]) {
    response
        .headers_mut()
        .insert(SERVER_TIMING, server_timing::header(metrics));
}
