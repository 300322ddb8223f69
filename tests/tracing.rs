//! Traces and timings, against the real binary: a caller's `traceparent` is continued to
//! the API upstream (a page's loader calls and the proxy alike, each with a new parent id),
//! the access log carries the trace id, a real OTLP receiver here gets the spans with their
//! parent links, a collector that refuses or hangs changes nothing for visitors, and pages
//! say where their time went in `Server-Timing` (a streamed page's end in a trailer).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message as _;

use crate::support::binary::Host;
use crate::support::upstream::{self, Upstream};
use crate::support::{block_on, client, h2_connect, header, raw_exchange};

const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";
const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/// An upstream whose /api/status answers after `delay`.
fn upstream(delay: Duration) -> Upstream {
    Upstream::builder()
        .route(
            "/api/status",
            get(|| async { upstream::json(upstream::status_json("9.9.9")) }),
        )
        .delay(delay)
        .start()
}

/// The `traceparent` of every request the upstream got.
fn traceparents(upstream: &Upstream) -> Vec<Option<String>> {
    upstream
        .seen()
        .iter()
        .map(|seen| seen.header("traceparent"))
        .collect()
}

/// `00-<trace>-<parent>-<flags>`, split.
fn fields(traceparent: &str) -> (String, String, String) {
    let parts: Vec<&str> = traceparent.split('-').collect();
    assert_eq!(parts.len(), 4, "{traceparent}");
    assert_eq!(parts[0], "00");
    assert_eq!(parts[1].len(), 32);
    assert_eq!(parts[2].len(), 16);
    (parts[1].into(), parts[2].into(), parts[3].into())
}

#[test]
fn a_callers_trace_reaches_the_upstream_through_a_loader_and_through_the_proxy() {
    let api = upstream(Duration::ZERO);
    let host = Host::started(&["--api-upstream", &api.url, "--access-log"]);

    // A page whose loader calls the API (whole, for a crawler).
    let page = client()
        .get(host.url(&crate::support::app_page("fr", "status", &[])))
        .header("user-agent", GOOGLEBOT)
        .header("traceparent", TRACEPARENT)
        .header("tracestate", "vendor=opaque")
        .send()
        .unwrap();
    assert_eq!(page.status(), 200);
    // A browser's own API call, through the proxy.
    let proxied = client()
        .get(host.url("/api/status"))
        .header("traceparent", TRACEPARENT)
        .send()
        .unwrap();
    assert_eq!(proxied.status(), 200);

    let seen = traceparents(&api);
    assert_eq!(seen.len(), 2, "{seen:?}");
    let mut parents = Vec::new();
    for traceparent in &seen {
        let (trace, parent, flags) = fields(traceparent.as_deref().expect("a traceparent"));
        assert_eq!(trace, TRACE_ID, "the caller's trace goes on");
        assert_ne!(parent, CALLER_SPAN, "each call has a parent of its own");
        assert_eq!(flags, "01");
        parents.push(parent);
    }
    assert_ne!(parents[0], parents[1]);

    // Without a traceparent (or with a broken one), each request starts a trace of its own.
    for sent in [None, Some("00-zz-00f067aa0ba902b7-01")] {
        let mut request = client().get(host.url("/api/status"));
        if let Some(broken) = sent {
            request = request.header("traceparent", broken);
        }
        assert_eq!(request.send().unwrap().status(), 200);
    }
    let seen = traceparents(&api);
    assert_eq!(seen.len(), 4, "{seen:?}");
    let fresh: Vec<String> = seen[2..]
        .iter()
        .map(|tp| fields(tp.as_deref().unwrap()).0)
        .collect();
    assert!(
        fresh
            .iter()
            .all(|trace| trace != TRACE_ID && trace != &"0".repeat(32))
    );
    assert_ne!(fresh[0], fresh[1]);

    // The access log names each request's trace.
    let logs = host.logs();
    let page_line = logs
        .lines()
        .find(|line| {
            line.contains("bilingue::access")
                && line.contains(&crate::support::app_page("fr", "status", &[]))
        })
        .unwrap_or_else(|| panic!("an access line for the page in:\n{logs}"));
    assert!(
        page_line.contains(&format!("trace_id={TRACE_ID}")),
        "{page_line}"
    );
}

/// A span as the collector got it.
#[derive(Debug, Clone)]
struct Got {
    trace: String,
    id: String,
    parent: String,
    name: String,
    kind: i32,
    attributes: HashMap<String, String>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An OTLP/HTTP receiver (protobuf) on its own port: what it got, decoded.
fn collector() -> (String, Arc<Mutex<Vec<Got>>>) {
    let got: Arc<Mutex<Vec<Got>>> = Arc::default();
    let collector = Upstream::builder()
        .route(
            "/v1/traces",
            post(|State(got): State<Arc<Mutex<Vec<Got>>>>, headers: HeaderMap, body: Bytes| async move {
                assert_eq!(header_of(&headers, "content-type"), "application/x-protobuf");
                let request = ExportTraceServiceRequest::decode(body).expect("OTLP protobuf");
                let mut got = got.lock().unwrap();
                for resource in request.resource_spans {
                    let service = resource
                        .resource
                        .iter()
                        .flat_map(|r| &r.attributes)
                        .find(|kv| kv.key == "service.name")
                        .and_then(|kv| kv.value.as_ref())
                        .map(|v| format!("{:?}", v.value))
                        .unwrap_or_default();
                    assert!(service.contains("bilingue"), "{service}");
                    for scope in resource.scope_spans {
                        for span in scope.spans {
                            got.push(Got {
                                trace: hex(&span.trace_id),
                                id: hex(&span.span_id),
                                parent: hex(&span.parent_span_id),
                                name: span.name,
                                kind: span.kind,
                                attributes: span
                                    .attributes
                                    .into_iter()
                                    .map(|kv| (kv.key, format!("{:?}", kv.value.and_then(|v| v.value))))
                                    .collect(),
                            });
                        }
                    }
                }
                (
                    [("content-type", "application/x-protobuf")],
                    Bytes::new(),
                )
                    .into_response()
            })
            .with_state(got.clone()),
        )
        .start();
    (collector.url, got)
}

fn header_of(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

/// The spans of `trace`, once the server span of it has come (at most 10 s).
fn spans_of(got: &Arc<Mutex<Vec<Got>>>, trace: &str) -> Vec<Got> {
    let started = Instant::now();
    loop {
        let spans: Vec<Got> = got
            .lock()
            .unwrap()
            .iter()
            .filter(|span| span.trace == trace)
            .cloned()
            .collect();
        if spans
            .iter()
            .any(|span| span.kind == SpanKind::Server as i32)
        {
            return spans;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no server span of {trace} came; got {:?}",
            got.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn named<'a>(spans: &'a [Got], name: &str) -> &'a Got {
    spans
        .iter()
        .find(|span| span.name == name)
        .unwrap_or_else(|| panic!("no {name} span in {spans:#?}"))
}

#[test]
fn a_collector_gets_a_pages_spans_with_their_parents() {
    let (otlp, got) = collector();
    let api = upstream(Duration::from_millis(200));
    let host = Host::started(&["--api-upstream", &api.url, "--otlp-endpoint", &otlp]);

    // A person's page streams; a crawler's comes whole.
    let streamed = client()
        .get(host.url(&crate::support::app_page("fr", "status", &[])))
        .header("traceparent", TRACEPARENT)
        .send()
        .unwrap();
    assert_eq!(header(&streamed, "cache-control"), "private, no-store");
    assert!(streamed.text().unwrap().contains("9.9.9"));
    let crawler_trace = "0af7651916cd43dd8448eb211c80319c";
    let whole = client()
        .get(host.url(&crate::support::app_page("fr", "status", &[])))
        .header("user-agent", GOOGLEBOT)
        .header(
            "traceparent",
            format!("00-{crawler_trace}-b7ad6b7169203331-01"),
        )
        .send()
        .unwrap();
    assert_eq!(whole.status(), 200);
    assert!(whole.text().unwrap().contains("9.9.9"));

    let spans = spans_of(&got, TRACE_ID);
    let server = named(&spans, "GET");
    assert_eq!(server.kind, SpanKind::Server as i32);
    assert_eq!(
        server.parent, CALLER_SPAN,
        "the caller's span is the request's parent"
    );
    assert!(server.attributes["url.path"].contains(&crate::support::app_page("fr", "status", &[])));
    assert!(server.attributes["http.response.status_code"].contains("200"));
    for name in ["render queue", "render", "stream"] {
        assert_eq!(named(&spans, name).parent, server.id, "{name}");
    }
    let render = named(&spans, "render");
    let call = named(&spans, "api call");
    assert_eq!(call.kind, SpanKind::Client as i32);
    assert_eq!(
        call.parent, render.id,
        "a loader's call belongs to its render"
    );
    assert!(call.attributes["url.path"].contains("/api/status"));
    // The upstream's parent is the call's own span: one trace from the browser to the API.
    let upstream_parent = traceparents(&api)
        .iter()
        .filter_map(|tp| tp.as_deref().map(fields))
        .find(|(trace, _, _)| trace == TRACE_ID)
        .expect("the upstream got the trace")
        .1;
    assert_eq!(upstream_parent, call.id);

    let crawler = spans_of(&got, crawler_trace);
    for name in ["render queue", "render", "api call", "encode"] {
        named(&crawler, name);
    }
    assert!(crawler.iter().all(|span| span.name != "stream"));

    // The counts say what went.
    let started = Instant::now();
    while host.metric("bilingue_trace_spans_exported_total") < spans.len() as f64 {
        assert!(started.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(host.metric("bilingue_trace_spans_dropped_total"), 0.0);
}

#[test]
fn a_collector_that_refuses_or_hangs_changes_nothing_for_visitors() {
    // One refuses every connection; the other takes them and never answers.
    let refusing = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let hanging_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let hanging = format!("http://{}", hanging_listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in hanging_listener.incoming() {
            held.push(stream);
        }
    });
    for (collector, kind) in [(refusing, "refusing"), (hanging, "hanging")] {
        let host = Host::started(&["--otlp-endpoint", &collector]);
        let mut slowest = Duration::ZERO;
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(2) {
            let asked = Instant::now();
            let page = client()
                .get(host.url("/en/"))
                .header("accept-encoding", "gzip, deflate, br")
                .send()
                .unwrap();
            assert_eq!(page.status(), 200, "{kind}");
            assert!(page.bytes().unwrap().len() > 100);
            slowest = slowest.max(asked.elapsed());
        }
        // A page that waited on the collector would wait for the export's time-out (5 s)
        // or a full queue; a page on a loaded 2-core CI, beside three browsers, has taken
        // 0.7 s without any wait of the kind: the bound tells the two apart.
        assert!(
            slowest < Duration::from_secs(2),
            "{kind}: a page took {slowest:?}"
        );
        if kind == "refusing" {
            let waited = Instant::now();
            while host.metric("bilingue_trace_spans_dropped_total") == 0.0 {
                assert!(
                    waited.elapsed() < Duration::from_secs(5),
                    "dropped spans are counted"
                );
                std::thread::sleep(Duration::from_millis(100));
            }
            assert_eq!(host.metric("bilingue_trace_spans_exported_total"), 0.0);
        }
        assert!(host.logs().contains("spans could not be exported") || kind == "hanging");
    }
}

#[test]
fn a_bad_collector_url_is_refused_at_start_with_the_option_named() {
    for url in [
        "not a url",
        "https://collector:4318",
        "http://user:pw@collector:4318",
    ] {
        let exit = Host::run(&["--otlp-endpoint", url], Duration::from_secs(30));
        assert!(!exit.status.success(), "{url}");
        assert!(
            exit.logs.contains("--otlp-endpoint"),
            "{url}: {}",
            exit.logs
        );
    }
}

/// `name;dur=X` of a Server-Timing value, in milliseconds.
fn duration_of(server_timing: &str, name: &str) -> Option<f64> {
    server_timing
        .split(',')
        .map(str::trim)
        .find(|metric| metric.split(';').next() == Some(name))
        .and_then(|metric| metric.split(";dur=").nth(1))
        .map(|dur| dur.split(';').next().unwrap().parse().unwrap())
}

#[test]
fn a_whole_page_says_where_its_time_went_and_a_kept_one_that_it_was_kept() {
    let api = upstream(Duration::from_millis(150));
    let host = Host::started(&["--api-upstream", &api.url]);
    let get = |path: &str, agent: &str| {
        client()
            .get(host.url(path))
            .header("user-agent", agent)
            .header("accept-encoding", "gzip, deflate, br")
            .send()
            .unwrap()
    };
    let with_data = get(&crate::support::app_page("fr", "status", &[]), GOOGLEBOT);
    let timing = header(&with_data, "server-timing");
    assert!(duration_of(&timing, "data").unwrap() >= 150.0, "{timing}");
    for name in ["queue", "render", "encode"] {
        assert!(duration_of(&timing, name).is_some(), "{name} in {timing}");
    }

    // A public page: the first answer renders it, the next comes from the cache, with the
    // same bytes and the same validator.
    let first = get("/en/", "Mozilla/5.0 Firefox/140.0");
    let first_timing = header(&first, "server-timing");
    assert!(
        first_timing.contains(r#"cache;desc="miss""#),
        "{first_timing}"
    );
    assert!(duration_of(&first_timing, "render").is_some());
    let first_tag = header(&first, "etag");
    let first_body = first.bytes().unwrap();
    let again = get("/en/", "Mozilla/5.0 Firefox/140.0");
    assert_eq!(header(&again, "server-timing"), r#"cache;desc="hit""#);
    assert_eq!(header(&again, "etag"), first_tag);
    assert_eq!(again.bytes().unwrap(), first_body);
}

#[test]
fn a_streamed_page_says_its_head_at_once_and_the_rest_in_a_trailer() {
    let api = upstream(Duration::from_millis(300));
    let host = Host::started(&["--api-upstream", &api.url]);

    // HTTP/2: trailers always reach the client.
    let (head, trailers) = block_on(async {
        let mut h2 = h2_connect(&host.address()).await;
        let request =
            axum::http::Request::get(host.url(&crate::support::app_page("fr", "status", &[])))
                .body(())
                .unwrap();
        let (answer, _) = h2.send_request(request, true).unwrap();
        let (head, mut body) = answer.await.unwrap().into_parts();
        while let Some(chunk) = body.data().await {
            let chunk = chunk.unwrap();
            let _ = body.flow_control().release_capacity(chunk.len());
        }
        (head, body.trailers().await.unwrap())
    });
    assert_eq!(head.status, StatusCode::OK);
    let at_head = head.headers["server-timing"].to_str().unwrap().to_string();
    assert!(duration_of(&at_head, "head").is_some(), "{at_head}");
    assert!(
        duration_of(&at_head, "data").is_none(),
        "the data is not there yet"
    );
    assert_eq!(head.headers["trailer"], "server-timing");
    let trailers = trailers.expect("a trailer");
    let at_end = trailers["server-timing"].to_str().unwrap();
    assert!(duration_of(at_end, "data").unwrap() >= 300.0, "{at_end}");
    assert!(duration_of(at_end, "stream").unwrap() >= 250.0, "{at_end}");

    // HTTP/1.1: only to a client that says it takes trailers.
    let request = |te: &str| {
        format!(
            "GET {} HTTP/1.1\r\nHost: {}\r\n{te}Connection: close\r\n\r\n",
            crate::support::app_page("fr", "status", &[]),
            host.address()
        )
    };
    let taking = raw_exchange(&host.address(), request("TE: trailers\r\n").as_bytes());
    assert!(
        taking
            .to_lowercase()
            .contains("\r\ntrailer: server-timing\r\n"),
        "{taking}"
    );
    let end = taking.rsplit_once("\r\n0\r\n").expect("the last chunk").1;
    assert!(end.starts_with("server-timing: data;dur="), "{end:?}");
    let plain = raw_exchange(&host.address(), request("").as_bytes());
    assert!(!plain.to_lowercase().contains("\r\ntrailer:"), "{plain}");
    assert!(
        plain.ends_with("\r\n0\r\n\r\n"),
        "{:?}",
        &plain[plain.len() - 40..]
    );
}
