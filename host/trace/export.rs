//! Spans leave in OTLP (HTTP/protobuf, `--otlp-endpoint`), batched, from a thread of their
//! own: a request hands its spans over without waiting (a bounded queue), and when the
//! queue is full (the collector is slow, or gone) they are dropped and counted, never
//! waited for. The exporter is the `opentelemetry-otlp` crate's, with its blocking client.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TrySendError};
use opentelemetry::trace::{
    SpanContext, SpanId as OtelSpanId, SpanKind, Status, TraceFlags, TraceId as OtelTraceId,
    TraceState,
};
use opentelemetry::{InstrumentationScope, KeyValue};
use opentelemetry_otlp::{Protocol, WithExportConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SpanData, SpanEvents, SpanExporter as _, SpanLinks};

use super::context::TraceContext;
use super::span::{Kind, SpanRecord, Value};

/// How long one export may take before its spans are dropped.
pub const EXPORT_TIMEOUT: Duration = Duration::from_secs(5);

/// The traces URL of `--otlp-endpoint`, by OpenTelemetry's rule for
/// `OTEL_EXPORTER_OTLP_ENDPOINT`: a base URL keeps its path and gets `/v1/traces` after it
/// (`http://gw/otlp` → `http://gw/otlp/v1/traces`); a URL whose path already ends in
/// `/v1/traces` is the traces URL itself.
pub fn traces_url(endpoint: &str) -> Result<String, String> {
    let mut url = reqwest::Url::parse(endpoint)
        .map_err(|e| format!("--otlp-endpoint {endpoint:?} is not a URL: {e}"))?;
    if url.scheme() != "http" {
        return Err(format!(
            "--otlp-endpoint {endpoint:?}: only http:// collectors are supported (run an OpenTelemetry Collector beside the host for TLS)"
        ));
    }
    if url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() {
        return Err(format!(
            "--otlp-endpoint {endpoint:?}: give a URL without credentials, query or fragment"
        ));
    }
    if !url.path().ends_with("/v1/traces") {
        let base = url.path().trim_end_matches('/').to_string();
        url.set_path(&format!("{base}/v1/traces"));
    }
    Ok(url.to_string())
}

/// Requests' spans waiting for the exporter's thread, at most.
const QUEUE: usize = 2048;
/// Spans sent in one export, at most.
const BATCH: usize = 512;
/// How long a span waits for its batch to fill, at most.
const BATCH_DELAY: Duration = Duration::from_secs(1);

#[derive(Debug)]
pub struct Exporter {
    queue: Sender<Vec<SpanData>>,
    counts: Arc<Counts>,
    scope: InstrumentationScope,
}

/// What became of the spans.
#[derive(Debug, Default)]
pub struct Counts {
    pub exported: AtomicU64,
    /// Dropped: the queue was full, or the collector refused or did not answer in time.
    pub dropped: AtomicU64,
}

impl Exporter {
    /// Starts the thread that sends to `endpoint` (the full URL, `…/v1/traces`); an export
    /// that takes longer than `timeout` is given up.
    pub fn start(endpoint: &str, timeout: Duration) -> Result<Arc<Self>, String> {
        let (queue, spans) = crossbeam_channel::bounded(QUEUE);
        let counts = Arc::new(Counts::default());
        let thread_counts = counts.clone();
        let endpoint = endpoint.to_owned();
        // The exporter's blocking HTTP client runs a runtime of its own, which may not be
        // made (or dropped) on a thread that runs tokio's: it lives on the thread it serves.
        let (built, started) = std::sync::mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("otlp-export".into())
            .spawn(move || {
                let otlp = opentelemetry_otlp::SpanExporter::builder()
                    .with_http()
                    .with_protocol(Protocol::HttpBinary)
                    .with_endpoint(&endpoint)
                    .with_timeout(timeout)
                    .build()
                    .map_err(|e| format!("the OTLP exporter for {endpoint}: {e}"));
                match otlp {
                    Ok(mut otlp) => {
                        otlp.set_resource(
                            &Resource::builder().with_service_name("bilingue").build(),
                        );
                        let _ = built.send(Ok(()));
                        send_batches(otlp, spans, thread_counts);
                    }
                    Err(error) => {
                        let _ = built.send(Err(error));
                    }
                }
            })
            .map_err(|e| format!("the OTLP exporter's thread: {e}"))?;
        started
            .recv()
            .map_err(|_| "the OTLP exporter's thread ended".to_string())??;
        Ok(Arc::new(Self {
            queue,
            counts,
            scope: InstrumentationScope::builder("bilingue")
                .with_version(env!("CARGO_PKG_VERSION"))
                .build(),
        }))
    }

    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    /// Hands a request's spans over, or drops them if the queue is full.
    pub fn send(&self, context: &TraceContext, spans: Vec<SpanRecord>) {
        let data: Vec<SpanData> = spans
            .into_iter()
            .map(|span| self.span_data(context, span))
            .collect();
        let count = data.len() as u64;
        if let Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) =
            self.queue.try_send(data)
        {
            self.counts.dropped.fetch_add(count, Ordering::Relaxed);
        }
    }

    fn span_data(&self, context: &TraceContext, span: SpanRecord) -> SpanData {
        let flags = match context.sampled {
            true => TraceFlags::SAMPLED,
            false => TraceFlags::default(),
        };
        let remote_parent = span.parent.is_some() && span.parent == context.parent_id;
        SpanData {
            span_context: SpanContext::new(
                OtelTraceId::from_bytes(context.trace_id.0),
                OtelSpanId::from_bytes(span.id.0),
                flags,
                false,
                TraceState::default(),
            ),
            parent_span_id: span.parent.map_or(OtelSpanId::INVALID, |parent| {
                OtelSpanId::from_bytes(parent.0)
            }),
            parent_span_is_remote: remote_parent,
            span_kind: match span.kind {
                Kind::Server => SpanKind::Server,
                Kind::Client => SpanKind::Client,
                Kind::Internal => SpanKind::Internal,
            },
            name: span.name,
            start_time: span.start,
            end_time: span.end,
            attributes: span
                .attributes
                .into_iter()
                .map(|(key, value)| match value {
                    Value::Text(text) => KeyValue::new(key, text),
                    Value::Number(number) => KeyValue::new(key, number),
                })
                .collect(),
            dropped_attributes_count: 0,
            events: SpanEvents::default(),
            links: SpanLinks::default(),
            status: match span.failed {
                true => Status::error(""),
                false => Status::Unset,
            },
            instrumentation_scope: self.scope.clone(),
        }
    }
}

/// The exporter's thread: batches of at most `BATCH` spans, sent at least every
/// `BATCH_DELAY`; it ends when the host does.
fn send_batches(
    otlp: opentelemetry_otlp::SpanExporter,
    spans: Receiver<Vec<SpanData>>,
    counts: Arc<Counts>,
) {
    let mut batch: Vec<SpanData> = Vec::with_capacity(BATCH);
    let mut since = Instant::now();
    let mut last_warning: Option<Instant> = None;
    loop {
        match spans.recv_timeout(BATCH_DELAY.saturating_sub(since.elapsed())) {
            Ok(more) => batch.extend(more),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        let due = since.elapsed() >= BATCH_DELAY;
        if batch.len() < BATCH && !due {
            continue;
        }
        since = Instant::now();
        if batch.is_empty() {
            continue;
        }
        let sending = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
        let count = sending.len() as u64;
        match futures_executor::block_on(otlp.export(sending)) {
            Ok(()) => counts.exported.fetch_add(count, Ordering::Relaxed),
            Err(error) => {
                if last_warning.is_none_or(|at| at.elapsed() > Duration::from_secs(60)) {
                    tracing::warn!(%error, "spans could not be exported; they are dropped and counted");
                    last_warning = Some(Instant::now());
                }
                counts.dropped.fetch_add(count, Ordering::Relaxed)
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;
    use std::time::SystemTime;

    use super::*;
    use crate::trace::SpanId;

    fn one_span() -> Vec<SpanRecord> {
        vec![SpanRecord {
            id: SpanId::random(),
            parent: None,
            name: Cow::Borrowed("GET"),
            kind: Kind::Server,
            start: SystemTime::now(),
            end: SystemTime::now(),
            attributes: Vec::new(),
            failed: false,
        }]
    }

    #[test]
    fn a_collector_that_never_answers_fills_the_queue_and_what_comes_after_is_dropped() {
        // Takes connections (the kernel's backlog) and never answers: the exporter's thread
        // waits on its first batch while requests keep handing spans over.
        let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1/traces", silent.local_addr().unwrap());
        let exporter = Exporter::start(&url, Duration::from_secs(30)).unwrap();
        let context = TraceContext::start();
        let handed = QUEUE + BATCH + 1000;
        let started = Instant::now();
        for _ in 0..handed {
            exporter.send(&context, one_span());
        }
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "handing spans over never waits: {:?}",
            started.elapsed()
        );
        let dropped = exporter.counts().dropped.load(Ordering::Relaxed) as usize;
        // At most the queue and one batch in the thread's hands are kept.
        assert!(
            dropped >= handed - QUEUE - BATCH,
            "dropped {dropped} of {handed}"
        );
        assert_eq!(exporter.counts().exported.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_collector_url_is_its_base_or_its_traces_url_and_plain_http_only() {
        assert_eq!(
            traces_url("http://collector:4318").unwrap(),
            "http://collector:4318/v1/traces"
        );
        assert_eq!(
            traces_url("http://collector:4318/otlp/v1/traces").unwrap(),
            "http://collector:4318/otlp/v1/traces"
        );
        // As OTEL_EXPORTER_OTLP_ENDPOINT: a base URL keeps its path, and the signal's follows.
        for (base, traces) in [
            ("http://collector:4318/", "http://collector:4318/v1/traces"),
            ("http://gw/otlp", "http://gw/otlp/v1/traces"),
            ("http://gw/otlp/", "http://gw/otlp/v1/traces"),
            ("http://gw/a/b", "http://gw/a/b/v1/traces"),
            ("http://gw/otlp/v1/traces", "http://gw/otlp/v1/traces"),
        ] {
            assert_eq!(traces_url(base).unwrap(), traces, "{base}");
        }
        for refused in [
            "collector:4318",
            "https://collector:4318",
            "http://user:secret@collector:4318",
            "http://collector:4318/?x=1",
        ] {
            assert!(traces_url(refused).is_err(), "{refused}");
        }
    }
}
