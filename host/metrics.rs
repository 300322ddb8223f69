//! Prometheus `/metrics`, and the layer that counts (and, with `--access-log`, logs) every
//! answer. The hot path takes no lock: a request adds to a counter handle made once per
//! (status, language) the first time it is seen, and a render adds to an atomic histogram
//! bucket. The text exposition and the histogram maths are `metrics-exporter-prometheus`'s.

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics::{Counter, Gauge, Histogram, Key, KeyName, Label, Metadata, Recorder, SharedString};
use metrics_exporter_prometheus::{
    Matcher, PrometheusBuilder, PrometheusHandle, PrometheusRecorder,
};

use crate::lang::{Language, Languages};
use crate::pages::PageCache;
use crate::render::RenderPool;
use crate::server::Lifecycle;
use crate::trace::{Exporter, Trace};

/// Upper bounds of the render time histogram, in seconds.
const RENDER_BUCKETS_SECONDS: [f64; 8] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1.0];
/// Statuses 100 to 599: one row each.
const STATUSES: usize = 500;
/// How often recorded render times are folded into the histogram, scraped or not, so
/// that they never pile up in memory.
const UPKEEP: Duration = Duration::from_secs(5);

/// Values read from elsewhere at scrape time.
struct Sampled {
    queue_depth: Gauge,
    threads_ready: Gauge,
    shells_kept: Gauge,
    loading_bytes: Gauge,
    open_connections: Gauge,
    cache_entries: Gauge,
    restarts: Counter,
    thread_panics: Counter,
    render_failures: Counter,
    renders_abandoned: Counter,
    streams_abandoned: Counter,
    held_whole: Counter,
    shells_sent: Counter,
    cache_hits: Counter,
    cache_misses: Counter,
    panics: Counter,
    spans_exported: Counter,
    spans_dropped: Counter,
}

pub struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    /// Row = status - 100; column 0 is "none", then the languages in their order.
    requests: Box<[OnceLock<Counter>]>,
    columns: usize,
    render_seconds: Histogram,
    sampled: Sampled,
    /// By render thread: its runtime's V8 heap in use (`thread="render-N"`), made at the
    /// first scrape.
    heaps: OnceLock<Vec<Gauge>>,
}

fn metadata() -> Metadata<'static> {
    Metadata::new(module_path!(), metrics::Level::INFO, Some(module_path!()))
}

impl Metrics {
    /// The recorder, with a thread that folds recorded render times into the histogram
    /// every few seconds, scraped or not, until the metrics are dropped.
    pub fn new(languages: &Languages) -> Arc<Self> {
        let metrics = Arc::new(Self::recording(languages));
        let upkeep: Weak<Self> = Arc::downgrade(&metrics);
        std::thread::Builder::new()
            .name("metrics-upkeep".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(UPKEEP);
                    match upkeep.upgrade() {
                        Some(metrics) => metrics.handle.run_upkeep(),
                        None => return,
                    }
                }
            })
            .expect("a metrics upkeep thread");
        metrics
    }

    fn recording(languages: &Languages) -> Self {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full("bilingue_render_seconds".into()),
                &RENDER_BUCKETS_SECONDS,
            )
            .expect("non-empty buckets")
            .build_recorder();
        let handle = recorder.handle();
        let describe = |name: &'static str, help: &'static str| {
            recorder.describe_counter(
                KeyName::from_const_str(name),
                None,
                SharedString::const_str(help),
            );
        };
        describe(
            "bilingue_requests_total",
            "Requests answered, by status and content language.",
        );
        recorder.describe_histogram(
            KeyName::from_const_str("bilingue_render_seconds"),
            None,
            SharedString::const_str(
                "Time a render thread spent in one call into the server bundle (a page's start, its data, a shell's end, a stream's stop), its microtasks included.",
            ),
        );
        let counter = |name: &'static str, help: &'static str| {
            describe(name, help);
            recorder.register_counter(&Key::from_static_name(name), &metadata())
        };
        let gauge = |name: &'static str, help: &'static str| {
            recorder.describe_gauge(
                KeyName::from_const_str(name),
                None,
                SharedString::const_str(help),
            );
            recorder.register_gauge(&Key::from_static_name(name), &metadata())
        };
        let sampled = Sampled {
            queue_depth: gauge(
                "bilingue_render_queue_depth",
                "Renders waiting for a thread.",
            ),
            threads_ready: gauge(
                "bilingue_render_threads_ready",
                "Render threads up and warmed.",
            ),
            shells_kept: gauge(
                "bilingue_shells_kept",
                "Static shells of streamed pages prerendered and kept.",
            ),
            loading_bytes: gauge(
                "bilingue_loading_bytes",
                "What the pages waiting for data or being rendered hold, by the loading budget's reckoning.",
            ),
            open_connections: gauge("bilingue_open_connections", "Client connections open."),
            cache_entries: gauge("bilingue_page_cache_entries", "Pages in the page cache."),
            restarts: counter("bilingue_runtime_restarts_total", "V8 runtimes replaced."),
            thread_panics: counter(
                "bilingue_render_thread_panics_total",
                "Render threads that panicked and were started again.",
            ),
            render_failures: counter(
                "bilingue_render_failures_total",
                "Renders that failed or were stopped.",
            ),
            renders_abandoned: counter(
                "bilingue_renders_abandoned_total",
                "Renders skipped because their client had gone while they waited.",
            ),
            streams_abandoned: counter(
                "bilingue_streams_abandoned_total",
                "Streamed pages whose client went away before their end: their render was stopped.",
            ),
            held_whole: counter(
                "bilingue_shells_held_whole_total",
                "Visitors' pages whose data came while their kept shell was held (--shell-hold): sent whole.",
            ),
            shells_sent: counter(
                "bilingue_shells_sent_total",
                "Visitors' pages whose kept shell was sent (past its hold), the rest streamed after it.",
            ),
            cache_hits: counter(
                "bilingue_page_cache_hits_total",
                "Pages served from the page cache.",
            ),
            cache_misses: counter(
                "bilingue_page_cache_misses_total",
                "Page cache look-ups that found nothing.",
            ),
            panics: counter(
                "bilingue_panics_total",
                "Panics caught in handlers (answered 500) and in answers' bodies (cut).",
            ),
            spans_exported: counter(
                "bilingue_trace_spans_exported_total",
                "Spans the OTLP collector took (--otlp-endpoint).",
            ),
            spans_dropped: counter(
                "bilingue_trace_spans_dropped_total",
                "Spans dropped: the export queue was full, or the collector refused them or did not answer in time.",
            ),
        };
        let render_seconds = recorder.register_histogram(
            &Key::from_static_name("bilingue_render_seconds"),
            &metadata(),
        );
        let columns = languages.count() + 1;
        Self {
            recorder,
            handle,
            requests: (0..STATUSES * columns).map(|_| OnceLock::new()).collect(),
            columns,
            render_seconds,
            sampled,
            heaps: OnceLock::new(),
        }
    }

    /// The histogram the render threads record their render times in.
    pub fn render_seconds(&self) -> Histogram {
        self.render_seconds.clone()
    }

    fn count(&self, status: u16, language: Option<Language>) {
        let status = status.clamp(100, 599);
        let column = language.map_or(0, |language| language.index() + 1);
        let cell = &self.requests[usize::from(status - 100) * self.columns + column];
        cell.get_or_init(|| {
            let labels = vec![
                Label::new("status", status.to_string()),
                Label::new(
                    "language",
                    language.map_or_else(|| "none".to_owned(), |l| l.code().to_owned()),
                ),
            ];
            self.recorder.register_counter(
                &Key::from_parts("bilingue_requests_total", labels),
                &metadata(),
            )
        })
        .increment(1);
    }

    /// The text exposition, with the sampled values read now.
    fn exposition(&self, from: &Scrape) -> String {
        let stats = from.pool.stats();
        let sampled = &self.sampled;
        sampled.queue_depth.set(from.pool.queue_depth() as f64);
        sampled
            .threads_ready
            .set(from.pool.readiness().ready_threads() as f64);
        sampled.shells_kept.set(from.pool.shells_kept() as f64);
        sampled.loading_bytes.set(from.pool.loading_bytes() as f64);
        sampled
            .open_connections
            .set(from.lifecycle.open_connections() as f64);
        sampled.cache_entries.set(from.cache.len() as f64);
        let mut counted = vec![
            (&sampled.restarts, &stats.restarts),
            (&sampled.thread_panics, &stats.thread_panics),
            (&sampled.render_failures, &stats.render_failures),
            (&sampled.renders_abandoned, &stats.abandoned),
            (&sampled.streams_abandoned, &stats.streams_abandoned),
            (&sampled.held_whole, &stats.held_whole),
            (&sampled.shells_sent, &stats.shells_sent),
        ];
        if let Some(exporter) = &from.exporter {
            let counts = exporter.counts();
            counted.push((&sampled.spans_exported, &counts.exported));
            counted.push((&sampled.spans_dropped, &counts.dropped));
        }
        for (counter, count) in counted {
            counter.absolute(count.load(Ordering::Relaxed));
        }
        sampled.cache_hits.absolute(from.cache.hits());
        sampled.cache_misses.absolute(from.cache.misses());
        sampled.panics.absolute(crate::server::panics::caught());
        let heaps = self.heaps.get_or_init(|| {
            recorder_gauges(
                &self.recorder,
                "bilingue_v8_heap_used_bytes",
                stats.heap_used.len(),
            )
        });
        for (gauge, used) in heaps.iter().zip(&stats.heap_used) {
            gauge.set(used.load(Ordering::Relaxed) as f64);
        }
        self.handle.render()
    }
}

/// One gauge per render thread, labelled `thread="render-N"`, described once.
fn recorder_gauges(
    recorder: &PrometheusRecorder,
    name: &'static str,
    threads: usize,
) -> Vec<Gauge> {
    recorder.describe_gauge(
        KeyName::from_const_str(name),
        Some(metrics::Unit::Bytes),
        SharedString::const_str(
            "A render thread's V8 heap in use, sampled after its calls into the bundle (every 250 ms at most).",
        ),
    );
    (0..threads)
        .map(|index| {
            let labels = vec![Label::new("thread", format!("render-{index}"))];
            recorder.register_gauge(&Key::from_parts(name, labels), &metadata())
        })
        .collect()
}

/// What `/metrics` reads at each scrape, besides the counters.
#[derive(Clone)]
pub struct Scrape {
    pub metrics: Arc<Metrics>,
    pub pool: Arc<RenderPool>,
    pub lifecycle: Arc<Lifecycle>,
    pub cache: Arc<PageCache>,
    pub exporter: Option<Arc<Exporter>>,
}

/// `/metrics`, for a listener of its own.
pub fn routes(scrape: Scrape) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .with_state(scrape)
}

async fn metrics(State(scrape): State<Scrape>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        scrape.metrics.exposition(&scrape),
    )
        .into_response()
}

/// What the counting layer needs: the counters, and whether to log each answer.
#[derive(Clone)]
pub struct Observe {
    pub metrics: Arc<Metrics>,
    pub access_log: bool,
}

/// An answer being observed: when its request came, and what its access log line names.
pub struct Observing {
    started: std::time::Instant,
    logged: Option<(axum::http::Method, String, Option<crate::trace::TraceId>)>,
}

impl Observe {
    /// Starts observing `request` (its trace, if it has one, is in its extensions by now).
    pub fn begin(&self, request: &Request) -> Observing {
        let logged = self.access_log.then(|| {
            let trace_id = request.extensions().get::<Trace>().map(Trace::id);
            (
                request.method().clone(),
                request.uri().path().to_owned(),
                trace_id,
            )
        });
        Observing {
            started: std::time::Instant::now(),
            logged,
        }
    }

    /// Counts (and, with `--access-log`, logs) an answer, by status and by the language
    /// a page answered in (a response extension the page handler sets).
    pub fn end(&self, observing: Observing, response: &Response) {
        let language = response.extensions().get::<Language>().copied();
        let status = response.status().as_u16();
        self.metrics.count(status, language);
        if let Some((method, path, trace_id)) = observing.logged {
            tracing::info!(
                target: "bilingue::access",
                %method,
                path = %path.escape_debug(),
                status,
                language = language.as_ref().map_or("none", Language::code),
                micros = observing.started.elapsed().as_micros() as u64,
                trace_id = %trace_id.map(|id| id.to_string()).unwrap_or_default(),
            );
        }
    }
}
