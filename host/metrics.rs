//! Prometheus `/metrics`, and the layer that counts (and, with `--access-log`, logs) every
//! answer. The hot path takes no lock: a request adds to a counter handle made once per
//! (status, language) the first time it is seen, and a render adds to an atomic histogram
//! bucket. The text exposition and the histogram maths are `metrics-exporter-prometheus`'s.

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics::{Counter, Gauge, Histogram, Key, KeyName, Label, Metadata, Recorder, SharedString};
use metrics_exporter_prometheus::{
    Matcher, PrometheusBuilder, PrometheusHandle, PrometheusRecorder,
};

use crate::lang::Language;
use crate::state::AppState;

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
    open_connections: Gauge,
    cache_entries: Gauge,
    restarts: Counter,
    render_failures: Counter,
    renders_abandoned: Counter,
    cache_hits: Counter,
    cache_misses: Counter,
}

pub struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    /// Row = status - 100; column 0 is "none", then the languages in their order.
    requests: Box<[OnceLock<Counter>]>,
    columns: usize,
    render_seconds: Histogram,
    sampled: Sampled,
}

fn metadata() -> Metadata<'static> {
    Metadata::new(module_path!(), metrics::Level::INFO, Some(module_path!()))
}

impl Metrics {
    pub fn new() -> Self {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full("bilingue_render_seconds".into()),
                &RENDER_BUCKETS_SECONDS,
            )
            .expect("non-empty buckets")
            .build_recorder();
        let handle = recorder.handle();
        let upkeep = handle.clone();
        std::thread::Builder::new()
            .name("metrics-upkeep".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(UPKEEP);
                    upkeep.run_upkeep();
                }
            })
            .expect("a metrics upkeep thread");
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
            SharedString::const_str("Time a render thread spent on one render."),
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
            open_connections: gauge("bilingue_open_connections", "Client connections open."),
            cache_entries: gauge("bilingue_page_cache_entries", "Pages in the page cache."),
            restarts: counter("bilingue_runtime_restarts_total", "V8 runtimes replaced."),
            render_failures: counter(
                "bilingue_render_failures_total",
                "Renders that failed or were stopped.",
            ),
            renders_abandoned: counter(
                "bilingue_renders_abandoned_total",
                "Renders skipped because their client had gone while they waited.",
            ),
            cache_hits: counter(
                "bilingue_page_cache_hits_total",
                "Pages served from the page cache.",
            ),
            cache_misses: counter(
                "bilingue_page_cache_misses_total",
                "Page cache look-ups that found nothing.",
            ),
        };
        let render_seconds = recorder.register_histogram(
            &Key::from_static_name("bilingue_render_seconds"),
            &metadata(),
        );
        let columns = Language::count() + 1;
        Self {
            recorder,
            handle,
            requests: (0..STATUSES * columns).map(|_| OnceLock::new()).collect(),
            columns,
            render_seconds,
            sampled,
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
                Label::new("language", language.map_or("none", Language::code)),
            ];
            self.recorder.register_counter(
                &Key::from_parts("bilingue_requests_total", labels),
                &metadata(),
            )
        })
        .increment(1);
    }

    /// The text exposition, with the sampled values read now.
    fn exposition(&self, state: &AppState) -> String {
        let stats = state.pool.stats();
        let sampled = &self.sampled;
        sampled.queue_depth.set(state.pool.queue_depth() as f64);
        sampled
            .threads_ready
            .set(stats.ready_threads.load(Ordering::SeqCst) as f64);
        sampled
            .open_connections
            .set(state.lifecycle.open_connections() as f64);
        sampled.cache_entries.set(state.pages.len() as f64);
        sampled
            .restarts
            .absolute(stats.restarts.load(Ordering::Relaxed));
        sampled
            .render_failures
            .absolute(stats.render_failures.load(Ordering::Relaxed));
        sampled
            .renders_abandoned
            .absolute(stats.abandoned.load(Ordering::Relaxed));
        sampled.cache_hits.absolute(state.pages.hits());
        sampled.cache_misses.absolute(state.pages.misses());
        self.handle.render()
    }
}

pub async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.exposition(&state),
    )
        .into_response()
}

/// Counts (and, with `--access-log`, logs) every answer, by status and by the language a
/// page answered in (a response extension the page handler sets).
pub async fn observe(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let logged = state
        .access_log
        .then(|| (request.method().clone(), request.uri().path().to_owned()));
    let response = next.run(request).await;
    let language = response.extensions().get::<Language>().copied();
    let status = response.status().as_u16();
    state.metrics.count(status, language);
    if let Some((method, path)) = logged {
        tracing::info!(
            target: "bilingue::access",
            %method,
            path = %path.escape_debug(),
            status,
            language = language.map_or("none", Language::code),
            micros = started.elapsed().as_micros() as u64,
        );
    }
    response
}
