//! The operator's options: each a flag and a `BILINGUE_…` environment variable.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroUsize;

use std::time::Duration;

use clap::{Parser, ValueEnum};

#[derive(Debug, Clone, Parser)]
#[command(
    name = "bilingue",
    version,
    about = "Serves the Bilingue French/English React app, server-rendered in embedded V8."
)]
pub struct Config {
    /// TCP port to listen on (0 picks a free one; the address is printed).
    #[arg(long, env = "BILINGUE_PORT", default_value_t = 3000)]
    pub port: u16,

    /// Address to bind (0.0.0.0 for every interface).
    #[arg(long, env = "BILINGUE_BIND", default_value = "127.0.0.1")]
    pub bind: IpAddr,

    /// Serve Prometheus /metrics on this address and port of its own (e.g. 127.0.0.1:9464; port 0 picks a free one), never on the public one [default: no metrics].
    #[arg(long, env = "BILINGUE_METRICS_BIND", value_name = "ADDR:PORT")]
    pub metrics_bind: Option<SocketAddr>,

    /// The address visitors reach the site at, scheme://host[:port] (e.g. https://www.example.org): every absolute URL (canonical, alternates, sitemap) is built from it [default: http://localhost:PORT].
    #[arg(long, env = "BILINGUE_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,

    /// For staging: robots.txt disallows everything and every answer carries X-Robots-Tag: noindex.
    #[arg(long, env = "BILINGUE_NO_INDEX")]
    pub no_index: bool,

    /// Render threads, each with its own V8 runtime [default: one per core].
    #[arg(long, env = "BILINGUE_RENDER_THREADS")]
    pub render_threads: Option<NonZeroUsize>,

    /// Renders waiting for a thread at most; past that a page is sent client-rendered at once.
    #[arg(long, env = "BILINGUE_RENDER_QUEUE", default_value_t = 256)]
    pub render_queue: usize,

    /// Finished pages kept in memory (those whose route declares them public); 0 turns the cache off.
    #[arg(long, env = "BILINGUE_PAGE_CACHE_ENTRIES", default_value_t = 1000)]
    pub page_cache_entries: usize,

    /// How long browsers may keep a public page (Cache-Control max-age; e.g. 60s, 0).
    #[arg(long, env = "BILINGUE_PAGE_MAX_AGE", default_value = "60s", value_parser = parse_delay)]
    pub page_max_age: Duration,

    /// How long shared caches (a CDN, Varnish) may keep a public page (s-maxage).
    #[arg(long, env = "BILINGUE_PAGE_S_MAXAGE", default_value = "300s", value_parser = parse_delay)]
    pub page_s_maxage: Duration,

    /// How long past that a cache may serve a public page while it fetches it again (stale-while-revalidate).
    #[arg(long, env = "BILINGUE_PAGE_STALE_WHILE_REVALIDATE", default_value = "60s", value_parser = parse_delay)]
    pub page_stale_while_revalidate: Duration,

    /// A render running longer is stopped inside V8 and the page is sent client-rendered (e.g. 1s, 250ms).
    #[arg(long, env = "BILINGUE_RENDER_TIMEOUT", default_value = "1s", value_parser = parse_duration)]
    pub render_timeout: Duration,

    /// V8 heap of each render runtime, in MiB; a render that fills it is stopped and the runtime replaced.
    #[arg(long, env = "BILINGUE_RENDER_HEAP_MB", default_value_t = 128, value_parser = clap::value_parser!(u64).range(16..=65536))]
    pub render_heap_mb: u64,

    /// How long the render threads may take to warm up at start-up (slow on a busy machine) before start-up fails.
    #[arg(long, env = "BILINGUE_WARM_UP_TIMEOUT", default_value = "60s", value_parser = parse_duration)]
    pub warm_up_timeout: Duration,

    /// DEVELOPMENT ONLY (`npm run dev` passes it): serve the app from this build folder,
    /// which app/dev.mjs rebuilds on every save, reloading open pages. Never in production:
    /// nothing is cached, and the page carries development tools. No environment variable,
    /// so that it cannot be switched on by accident.
    #[arg(long, value_name = "DIR")]
    pub dev: Option<std::path::PathBuf>,

    /// Render with this server bundle instead of the built-in one (tests and development).
    #[arg(long, env = "BILINGUE_SERVER_BUNDLE", value_name = "PATH")]
    pub server_bundle: Option<std::path::PathBuf>,

    /// IANA time zone dates are shown in; the browser uses the same, so hydration matches.
    #[arg(long, env = "BILINGUE_TIME_ZONE", default_value = "UTC")]
    pub time_zone: String,

    /// Forward every /api/… request to this plain-HTTP server (URL/api/…) instead of the built-in API.
    #[arg(long, env = "BILINGUE_API_UPSTREAM", value_name = "URL")]
    pub api_upstream: Option<String>,

    /// How long the upstream API may take to begin its answer before the call is answered 504 (e.g. 30s).
    #[arg(long, env = "BILINGUE_API_TIMEOUT", default_value = "600s", value_parser = parse_duration)]
    pub api_timeout: Duration,

    /// How long a page's loader may wait for its data; past it the screen renders with the time-out error.
    #[arg(long, env = "BILINGUE_LOAD_TIMEOUT", default_value = "3s", value_parser = parse_duration)]
    pub load_timeout: Duration,

    /// How long a proxied body, either way, may go without a byte before it is cut (server-sent events live while they flow).
    #[arg(long, env = "BILINGUE_API_IDLE_TIMEOUT", default_value = "60s", value_parser = parse_duration)]
    pub api_idle_timeout: Duration,

    /// Client connections open at once, at most; past it new ones wait to be accepted (each may hold ~50 KiB).
    #[arg(long, env = "BILINGUE_MAX_CONNECTIONS", default_value_t = 2048, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,

    /// How long a client may leave an answer unread before its connection is closed.
    #[arg(long, env = "BILINGUE_SEND_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub send_timeout: Duration,

    /// On SIGTERM, SIGINT or SIGHUP, keep serving this long while /readyz answers 503 and answers close
    /// their connections, so a load balancer moves traffic away (e.g. 5s behind Kubernetes).
    #[arg(long, env = "BILINGUE_DRAIN_DELAY", default_value = "0s", value_parser = parse_delay)]
    pub drain_delay: Duration,

    /// Then stop accepting and give requests in flight this long to finish before exiting.
    #[arg(long, env = "BILINGUE_DRAIN_TIMEOUT", default_value = "20s", value_parser = parse_duration)]
    pub drain_timeout: Duration,

    /// Log one line per answered request (method, path, status, language, duration, trace id).
    #[arg(long, env = "BILINGUE_ACCESS_LOG")]
    pub access_log: bool,

    /// Send each request's spans to an OpenTelemetry collector, in OTLP over HTTP/protobuf: its
    /// base URL (http://collector:4318, to which /v1/traces is added) or its full traces URL.
    #[arg(long, env = "BILINGUE_OTLP_ENDPOINT", value_name = "URL")]
    pub otlp_endpoint: Option<String>,

    /// Log format: text for people, json for machines.
    #[arg(long, env = "BILINGUE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

impl Config {
    pub fn render_threads(&self) -> usize {
        self.render_threads
            .map(NonZeroUsize::get)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
    }
}

/// `1s`, `250ms`, `2` (seconds): from 1 ms to an hour.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    parse_span(text, Duration::from_millis(1))
}

/// The same, zero allowed.
pub fn parse_delay(text: &str) -> Result<Duration, String> {
    parse_span(text, Duration::ZERO)
}

fn parse_span(text: &str, least: Duration) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration such as 1s or 250ms"))?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        _ => return Err(format!("{text:?}: use s or ms")),
    };
    if !(least.as_secs_f64()..=3600.0).contains(&seconds) {
        return Err(format!("{text:?} is outside {least:?}..3600s"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_seconds_and_milliseconds() {
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("0ms").is_err());
        assert!(parse_duration("5m").is_err());
        assert_eq!(parse_delay("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_delay("0"), Ok(Duration::ZERO));
        assert_eq!(parse_delay("5s"), Ok(Duration::from_secs(5)));
        assert!(parse_delay("-1s").is_err());
    }
}
