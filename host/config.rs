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

    /// Serve Prometheus /metrics, and PURGE / of the page cache by key (xkey), on this address and port of its own (e.g. 127.0.0.1:9464; port 0 picks a free one), never on the public one [default: neither].
    #[arg(long, env = "BILINGUE_METRICS_BIND", value_name = "ADDR:PORT")]
    pub metrics_bind: Option<SocketAddr>,

    /// The address visitors reach the site at, scheme://host[:port] (e.g. https://www.example.org): every absolute URL (canonical, alternates, sitemap) is built from it [default: http://localhost:PORT].
    #[arg(long, env = "BILINGUE_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,

    /// A language served at the root of an origin of its own, as CODE=ORIGIN (e.g. fr=https://exemple.fr); repeat it for each such language (the variable takes them comma-separated). Its pages, links and sitemap are there; its prefix on --public-url answers 308 to there [default: every language under its prefix on --public-url].
    #[arg(
        long,
        env = "BILINGUE_LANGUAGE_ORIGIN",
        value_name = "CODE=ORIGIN",
        value_delimiter = ','
    )]
    pub language_origin: Vec<String>,

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
    #[arg(long, env = "BILINGUE_PAGE_MAX_AGE", default_value = "60s", value_parser = cache_lifetime(DAY * 7))]
    pub page_max_age: Duration,

    /// How long shared caches (a CDN, Varnish) may keep a public page (s-maxage).
    #[arg(long, env = "BILINGUE_PAGE_S_MAXAGE", default_value = "300s", value_parser = cache_lifetime(DAY * 365))]
    pub page_s_maxage: Duration,

    /// How long past that a cache may serve a public page while it fetches it again (stale-while-revalidate).
    #[arg(long, env = "BILINGUE_PAGE_STALE_WHILE_REVALIDATE", default_value = "60s", value_parser = cache_lifetime(DAY * 7))]
    pub page_stale_while_revalidate: Duration,

    /// How long past that a cache may serve a public page while the origin errors or cannot be reached (stale-if-error).
    #[arg(long, env = "BILINGUE_PAGE_STALE_IF_ERROR", default_value = "1d", value_parser = cache_lifetime(DAY * 30))]
    pub page_stale_if_error: Duration,

    /// A render running longer is stopped inside V8 and the page is sent client-rendered (e.g. 1s, 250ms).
    #[arg(long, env = "BILINGUE_RENDER_TIMEOUT", default_value = "1s", value_parser = within(MS, MINUTE))]
    pub render_timeout: Duration,

    /// Prerender each streamed page's static shell once and send it at once; the render then only fills what waits for data (`off`: every page rendered whole, or streamed from the start).
    #[arg(long, env = "BILINGUE_PRERENDER", default_value = "on", value_parser = on_or_off, action = clap::ArgAction::Set)]
    pub prerender: bool,

    /// How long a visitor's page whose shell is kept waits for its data before the shell is sent: data that comes within it makes the page whole, in one piece; a page whose data came too late for its last hold is not held (`0s`: the shell goes at once, and the rest follows).
    #[arg(long, env = "BILINGUE_SHELL_HOLD", default_value = "20ms", value_parser = within(Duration::ZERO, SECOND))]
    pub shell_hold: Duration,

    /// Run every thread under Linux's `SCHED_BATCH` policy: a thread woken (a request read, a page rendered) waits for a core instead of preempting the thread on it, so a page is not cut into pieces by other pages' hand-offs (`off`, or a process started under another policy than the default: that policy is kept).
    #[arg(long, env = "BILINGUE_BATCH_SCHEDULING", default_value = "on", value_parser = on_or_off, action = clap::ArgAction::Set)]
    pub batch_scheduling: bool,

    /// What the pages waiting for data or being rendered may hold at once, in MiB; a page that does not fit is sent client-rendered at once.
    #[arg(long, env = "BILINGUE_LOADING_BUDGET_MB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub loading_budget_mb: u64,

    /// V8 heap of each render runtime, in MiB; a render that fills it is stopped and the runtime replaced.
    #[arg(long, env = "BILINGUE_RENDER_HEAP_MB", default_value_t = 128, value_parser = clap::value_parser!(u64).range(16..=65536))]
    pub render_heap_mb: u64,

    /// How long the render threads may take to warm up at start-up (slow on a busy machine) before start-up fails.
    #[arg(long, env = "BILINGUE_WARM_UP_TIMEOUT", default_value = "60s", value_parser = within(SECOND, HOUR))]
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

    /// Serve the app from this build folder (`node app/build.mjs DIR`: manifest.json, server.js, assets/) instead of the built-in one: to try a build without building the binary, and the deploy tests (starts are slower: no V8 snapshot).
    #[arg(long, env = "BILINGUE_APP_BUILD", value_name = "DIR", conflicts_with_all = ["dev", "server_bundle"])]
    pub app_build: Option<std::path::PathBuf>,

    /// Also serve the assets of earlier builds from this folder (each written by its binary's --write-assets), so that pages cached before a deploy keep their scripts; keep them until every page naming them has expired.
    #[arg(long, env = "BILINGUE_PREVIOUS_ASSETS", value_name = "DIR")]
    pub previous_assets: Option<std::path::PathBuf>,

    /// Write the built-in assets (each with its .gz and .br) into DIR and exit: the next release's --previous-assets.
    #[arg(long, env = "BILINGUE_WRITE_ASSETS", value_name = "DIR")]
    pub write_assets: Option<std::path::PathBuf>,

    /// IANA time zone dates are shown in; the browser uses the same, so hydration matches.
    #[arg(long, env = "BILINGUE_TIME_ZONE", default_value = "UTC")]
    pub time_zone: String,

    /// Forward every /api/… request to this plain-HTTP server (URL/api/…) instead of the built-in API.
    #[arg(long, env = "BILINGUE_API_UPSTREAM", value_name = "URL")]
    pub api_upstream: Option<String>,

    /// How long the upstream API may take to begin its answer before the call is answered 504 (e.g. 30s).
    #[arg(long, env = "BILINGUE_API_TIMEOUT", default_value = "600s", value_parser = within(MS, HOUR))]
    pub api_timeout: Duration,

    /// How long a page's loader may wait for its data; past it the screen renders with the time-out error.
    #[arg(long, env = "BILINGUE_LOAD_TIMEOUT", default_value = "3s", value_parser = within(MS, MINUTE))]
    pub load_timeout: Duration,

    /// How long a proxied body, either way, may go without a byte before it is cut (server-sent events live while they flow).
    #[arg(long, env = "BILINGUE_API_IDLE_TIMEOUT", default_value = "60s", value_parser = within(MS, DAY))]
    pub api_idle_timeout: Duration,

    /// Client connections open at once, at most; past it new ones wait to be accepted (each may hold ~50 KiB).
    #[arg(long, env = "BILINGUE_MAX_CONNECTIONS", default_value_t = 2048, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,

    /// How long a client may leave an answer unread before its connection is closed.
    #[arg(long, env = "BILINGUE_SEND_TIMEOUT", default_value = "30s", value_parser = within(MS * 100, HOUR))]
    pub send_timeout: Duration,

    /// On SIGTERM, SIGINT or SIGHUP, keep serving this long while /readyz answers 503 and answers close
    /// their connections, so a load balancer moves traffic away (e.g. 5s behind Kubernetes).
    #[arg(long, env = "BILINGUE_DRAIN_DELAY", default_value = "0s", value_parser = within(Duration::ZERO, HOUR))]
    pub drain_delay: Duration,

    /// Then stop accepting and give requests in flight this long to finish before exiting.
    #[arg(long, env = "BILINGUE_DRAIN_TIMEOUT", default_value = "20s", value_parser = within(MS, HOUR))]
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

/// `on` or `off`.
fn on_or_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{text:?} is neither on nor off")),
    }
}

pub const MS: Duration = Duration::from_millis(1);
pub const SECOND: Duration = Duration::from_secs(1);
pub const MINUTE: Duration = Duration::from_secs(60);
pub const HOUR: Duration = Duration::from_secs(3600);
pub const DAY: Duration = Duration::from_secs(86_400);

/// A duration option's parser: human units (see [`parse_span`]), from `least` to `most`;
/// every refusal names both.
pub fn within(
    least: Duration,
    most: Duration,
) -> impl Fn(&str) -> Result<Duration, String> + Clone + Send + Sync + 'static {
    move |text| {
        let bounds = format!("{}..{}", human(least), human(most));
        let span = parse_span(text).map_err(|why| format!("{why}, within {bounds}"))?;
        if span < least || span > most {
            return Err(format!("{text:?} is outside {bounds} for this option"));
        }
        Ok(span)
    }
}

/// The same for a lifetime written into `Cache-Control`, which counts whole seconds.
pub fn cache_lifetime(
    most: Duration,
) -> impl Fn(&str) -> Result<Duration, String> + Clone + Send + Sync + 'static {
    let bounded = within(Duration::ZERO, most);
    move |text| {
        let span = bounded(text)?;
        if span.subsec_nanos() != 0 {
            return Err(format!(
                "{text:?}: Cache-Control counts whole seconds (0s..{})",
                human(most)
            ));
        }
        Ok(span)
    }
}

/// Any duration a timeout may be: 1 ms to a year.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    within(MS, DAY * 365)(text)
}

/// The same, zero allowed.
pub fn parse_delay(text: &str) -> Result<Duration, String> {
    within(Duration::ZERO, DAY * 365)(text)
}

/// `1500ms`, `90s`, `5m`, `1h`, `1d`, `1h30m` (humantime's units), or a bare number of
/// seconds; written exactly, with no space around it.
pub fn parse_span(text: &str) -> Result<Duration, String> {
    let wrong = || format!("{text:?} is not a duration such as 1500ms, 90s, 5m, 1h or 1d");
    if text.is_empty() || text.trim() != text {
        return Err(wrong());
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().map(Duration::from_secs).map_err(|_| wrong());
    }
    // humantime reads any digit and space Unicode knows; an option is written in ASCII.
    if !text.is_ascii() || text.contains(|c: char| c.is_ascii_whitespace() && c != ' ') {
        return Err(wrong());
    }
    humantime::parse_duration(text).map_err(|_| wrong())
}

/// A duration as an operator writes it: `7d`, `1h`, `90s`, `1500ms`.
fn human(span: Duration) -> String {
    let millis = span.as_millis();
    for (unit, size) in [("d", DAY), ("h", HOUR), ("m", MINUTE), ("s", SECOND)] {
        let size = size.as_millis();
        if millis != 0 && millis.is_multiple_of(size) {
            return format!("{}{unit}", millis / size);
        }
    }
    match millis {
        0 => "0s".into(),
        _ => format!("{millis}ms"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_human_units() {
        assert_eq!(parse_span("1500ms"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_span("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_span("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_span("1h"), Ok(HOUR));
        assert_eq!(parse_span("1d"), Ok(DAY));
        assert_eq!(parse_span("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_span("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_span("5 minutes"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_span("0.5s"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_span("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_span("86400s"), Ok(DAY));
        for wrong in [
            "soon",
            "",
            "-1s",
            "1x",
            "1h30",
            "s",
            ".s",
            "1e9999d",
            "99999999999999999999999s",
            " 90s",
            "90s ",
            "\t90s",
            "\u{a0}90s",
            "\u{3000}90s",
            "90\u{a0}s",
            "１s",
        ] {
            assert!(parse_span(wrong).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn each_option_keeps_its_bounds_and_says_them() {
        let render = within(MS, MINUTE);
        assert_eq!(render("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(
            render("0ms").unwrap_err(),
            r#""0ms" is outside 1ms..1m for this option"#
        );
        assert!(render("2m").is_err());
        assert_eq!(
            render("soon").unwrap_err(),
            r#""soon" is not a duration such as 1500ms, 90s, 5m, 1h or 1d, within 1ms..1m"#
        );
        let drain_delay = within(Duration::ZERO, HOUR);
        assert_eq!(drain_delay("0"), Ok(Duration::ZERO));
        assert!(drain_delay("2h").unwrap_err().contains("0s..1h"));
        let s_maxage = cache_lifetime(DAY * 365);
        assert_eq!(s_maxage("86400s"), Ok(DAY));
        assert_eq!(s_maxage("1d"), Ok(DAY));
        assert!(s_maxage("366d").unwrap_err().contains("0s..365d"));
        assert!(s_maxage("1500ms").unwrap_err().contains("whole seconds"));
        assert_eq!(human(MS * 100), "100ms");
        assert_eq!(human(Duration::from_secs(90)), "90s");
    }

    #[test]
    fn the_shell_hold_goes_up_to_a_second_and_no_further() {
        use clap::Parser as _;
        let hold = |value: &str| Config::try_parse_from(["bilingue", "--shell-hold", value]);
        assert_eq!(hold("1s").expect("the bound").shell_hold, SECOND);
        assert_eq!(hold("0s").expect("at once").shell_hold, Duration::ZERO);
        let refused = hold("1001ms").expect_err("past the bound").to_string();
        assert!(refused.contains("0s..1s"), "{refused}");
    }

    #[test]
    fn every_default_is_within_its_own_bounds() {
        // clap checks the defaults against the parsers only when an option is left out.
        use clap::Parser as _;
        let config = Config::try_parse_from(["bilingue"]).expect("the defaults parse");
        assert_eq!(config.page_s_maxage, Duration::from_secs(300));
    }
}
