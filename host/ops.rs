//! What operators read: `/healthz` (alive), `/readyz` (render threads warmed), Prometheus
//! `/metrics`; and the layer every response passes that counts it.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::lang::Language;
use crate::render::pool::RENDER_BUCKETS_SECONDS;
use crate::state::AppState;

/// Counts of answered requests by (status, Content-Language or none): one atomic per
/// pair, so counting never makes two requests wait for each other.
/// Rows are statuses 100 to 599; column 0 is "none", then the languages in order.
pub struct RequestCounts {
    counts: Box<[AtomicU64]>,
    columns: usize,
}

const STATUSES: usize = 500;

impl Default for RequestCounts {
    fn default() -> Self {
        let columns = Language::count() + 1;
        Self {
            counts: (0..STATUSES * columns).map(|_| AtomicU64::new(0)).collect(),
            columns,
        }
    }
}

impl RequestCounts {
    fn add(&self, status: u16, language: Option<Language>) {
        let row = usize::from(status.clamp(100, 599) - 100);
        let column = language.map_or(0, |language| language.index() + 1);
        self.counts[row * self.columns + column].fetch_add(1, Ordering::Relaxed);
    }

    /// Every non-zero count, by (status, language code or "none").
    fn snapshot(&self) -> impl Iterator<Item = (u16, &'static str, u64)> + '_ {
        self.counts.iter().enumerate().filter_map(|(i, count)| {
            let count = count.load(Ordering::Relaxed);
            (count > 0).then(|| {
                let status = (i / self.columns) as u16 + 100;
                let language = match i % self.columns {
                    0 => "none",
                    column => Language::all()
                        .nth(column - 1)
                        .map_or("none", Language::code),
                };
                (status, language, count)
            })
        })
    }
}

pub async fn healthz() -> &'static str {
    "ok"
}

pub async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    if state.lifecycle.draining() {
        return (StatusCode::SERVICE_UNAVAILABLE, "draining: shutting down\n").into_response();
    }
    let ready = state.pool.stats().ready_threads.load(Ordering::SeqCst);
    let threads = state.pool.threads();
    let status = if ready == threads {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, format!("{ready}/{threads} render threads ready\n")).into_response()
}

pub async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    let mut out = String::new();
    out.push_str("# HELP bilingue_requests_total Requests answered, by status and content language.\n# TYPE bilingue_requests_total counter\n");
    for (status, language, count) in state.requests.snapshot() {
        let _ = writeln!(
            out,
            "bilingue_requests_total{{status=\"{status}\",language=\"{language}\"}} {count}"
        );
    }
    let stats = state.pool.stats();
    out.push_str("# HELP bilingue_render_seconds Time a render thread spent on one render.\n# TYPE bilingue_render_seconds histogram\n");
    let mut cumulative = 0;
    for (i, bound) in RENDER_BUCKETS_SECONDS.iter().enumerate() {
        cumulative += stats.render_buckets[i].load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "bilingue_render_seconds_bucket{{le=\"{bound}\"}} {cumulative}"
        );
    }
    cumulative += stats.render_buckets[RENDER_BUCKETS_SECONDS.len()].load(Ordering::Relaxed);
    let _ = writeln!(
        out,
        "bilingue_render_seconds_bucket{{le=\"+Inf\"}} {cumulative}"
    );
    let seconds = stats.render_seconds_micros.load(Ordering::Relaxed) as f64 / 1e6;
    let _ = writeln!(
        out,
        "bilingue_render_seconds_sum {seconds}\nbilingue_render_seconds_count {cumulative}"
    );
    let gauges = [
        (
            "bilingue_render_queue_depth",
            "gauge",
            "Renders waiting for a thread.",
            state.pool.queue_depth() as u64,
        ),
        (
            "bilingue_render_threads_ready",
            "gauge",
            "Render threads up and warmed.",
            stats.ready_threads.load(Ordering::SeqCst) as u64,
        ),
        (
            "bilingue_runtime_restarts_total",
            "counter",
            "V8 runtimes replaced.",
            stats.restarts.load(Ordering::Relaxed),
        ),
        (
            "bilingue_render_failures_total",
            "counter",
            "Renders that failed or were stopped.",
            stats.render_failures.load(Ordering::Relaxed),
        ),
        (
            "bilingue_renders_abandoned_total",
            "counter",
            "Renders skipped because their client had gone while they waited.",
            stats.abandoned.load(Ordering::Relaxed),
        ),
        (
            "bilingue_page_cache_hits_total",
            "counter",
            "Pages served from the page cache.",
            state.pages.hits(),
        ),
        (
            "bilingue_page_cache_misses_total",
            "counter",
            "Page cache look-ups that found nothing.",
            state.pages.misses(),
        ),
        (
            "bilingue_page_cache_entries",
            "gauge",
            "Pages in the page cache.",
            state.pages.len() as u64,
        ),
        (
            "bilingue_open_connections",
            "gauge",
            "Client connections open.",
            state.lifecycle.open_connections() as u64,
        ),
    ];
    for (name, kind, help, value) in gauges {
        let _ = writeln!(
            out,
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
        );
    }
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        out,
    )
        .into_response()
}

/// Counts (and, with `--access-log`, logs) every answer.
pub async fn observe(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let logged = state
        .access_log
        .then(|| (request.method().clone(), request.uri().path().to_owned()));
    let response = next.run(request).await;
    let language = response
        .headers()
        .get(header::CONTENT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(Language::from_code);
    let status = response.status().as_u16();
    state.requests.add(status, language);
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
