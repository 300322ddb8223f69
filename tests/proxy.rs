//! `--api-upstream` over real HTTP against a real upstream started here: what is forwarded
//! (and what never is: a path outside `BASE/api`), streaming both ways, the time limits,
//! and who owns the security headers.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{OriginalUri, Request};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::support::binary::Host;
use crate::support::upstream::Upstream;
use crate::support::{self, block_on, client, h2_connect, h2_get, header, raw_exchange};

const LARGE_BODY: usize = 32 * 1024 * 1024;

/// When the endless answer was dropped (its client went away), once it was.
type EndlessDropped = Arc<Mutex<Option<Instant>>>;

/// Records when the endless answer is dropped.
struct DropMark(EndlessDropped);

impl Drop for DropMark {
    fn drop(&mut self) {
        *self.0.lock().unwrap() = Some(Instant::now());
    }
}

/// An upstream API with the same routes at `/` and `/v1`, and when its endless answer
/// was dropped.
fn start_upstream() -> (Upstream, EndlessDropped) {
    async fn echo(OriginalUri(uri): OriginalUri, request: Request) -> axum::Json<Value> {
        let (parts, body) = request.into_parts();
        let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        let headers: &HeaderMap = &parts.headers;
        let h = |name: &str| {
            let values: Vec<&str> = headers
                .get_all(name)
                .iter()
                .map(|v| v.to_str().unwrap())
                .collect();
            (!values.is_empty()).then(|| values.join(" | "))
        };
        axum::Json(json!({
            "method": parts.method.as_str(),
            "uri": uri.to_string(),
            "authorization": h("authorization"),
            "custom": h("x-custom"),
            "keepAlive": h("keep-alive"),
            "namedByConnection": h("x-hop"),
            "forwardedFor": h("x-forwarded-for"),
            "forwarded": h("forwarded"),
            "realIp": h("x-real-ip"),
            "body": String::from_utf8_lossy(&body),
        }))
    }
    async fn upload(body: Body) -> String {
        let mut stream = body.into_data_stream();
        let mut total = 0usize;
        while let Some(chunk) = stream.next().await {
            total += chunk.unwrap().len();
        }
        total.to_string()
    }
    async fn download() -> Body {
        let chunk = Bytes::from(vec![b'x'; 64 * 1024]);
        Body::from_stream(futures_util::stream::iter(
            (0..LARGE_BODY / chunk.len()).map(move |_| Ok::<_, std::io::Error>(chunk.clone())),
        ))
    }
    async fn teapot() -> impl IntoResponse {
        (
            StatusCode::IM_A_TEAPOT,
            [("x-upstream", "yes")],
            "short and stout",
        )
    }
    async fn loose_policy() -> impl IntoResponse {
        (
            [
                ("content-security-policy", "default-src *"),
                ("x-frame-options", "ALLOWALL"),
                ("x-content-type-options", "none"),
                ("referrer-policy", "unsafe-url"),
                ("set-cookie", "session=1; HttpOnly"),
            ],
            "{}",
        )
    }
    /// Seven events, 700 ms apart: a stream longer than the head time-out, never idle long.
    async fn events() -> Body {
        Body::from_stream(futures_util::stream::unfold(0, |n| async move {
            if n == 7 {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(700)).await;
            Some((
                Ok::<_, std::io::Error>(Bytes::from(format!("data: {n}\n\n"))),
                n + 1,
            ))
        }))
    }
    /// One event, then silence.
    async fn stall() -> Body {
        Body::from_stream(futures_util::stream::unfold(0, |n| async move {
            if n > 0 {
                std::future::pending::<()>().await;
            }
            Some((
                Ok::<_, std::io::Error>(Bytes::from("data: first\n\n")),
                n + 1,
            ))
        }))
    }
    /// 64 KiB every 10 ms, for ever, until the host lets go of it.
    async fn endless(dropped: EndlessDropped) -> Body {
        let mark = DropMark(dropped);
        let chunk = Bytes::from(vec![b'y'; 64 * 1024]);
        Body::from_stream(futures_util::stream::unfold(mark, move |mark| {
            let chunk = chunk.clone();
            async move {
                tokio::time::sleep(Duration::from_millis(10)).await;
                Some((Ok::<_, std::io::Error>(chunk), mark))
            }
        }))
    }
    async fn headers_seen(headers: HeaderMap) -> axum::Json<Value> {
        axum::Json(Value::Object(
            headers
                .iter()
                .map(|(name, value)| (name.to_string(), json!(value.to_str().unwrap())))
                .collect(),
        ))
    }
    async fn odd_status(axum::extract::Path(code): axum::extract::Path<u16>) -> Response {
        let mut response = Response::new(Body::from("xx"));
        *response.status_mut() = StatusCode::from_u16(code).unwrap();
        response
            .headers_mut()
            .insert("content-length", axum::http::HeaderValue::from_static("2"));
        response
    }
    let endless_dropped = EndlessDropped::default();
    let routes = || {
        let dropped = endless_dropped.clone();
        Router::new()
            .route("/api/echo", any(echo))
            .route("/api/{*rest}", any(echo))
            .route("/api/upload", post(upload))
            .route("/api/download", get(download))
            .route("/api/teapot", get(teapot))
            .route("/api/loose-policy", get(loose_policy))
            .route("/api/events", get(events))
            .route("/api/stall", get(stall))
            .route("/api/endless", get(move || endless(dropped.clone())))
            .route("/api/headers-seen", get(headers_seen))
            .route("/api/status-is/{code}", get(odd_status))
            .route(
                "/api/slow",
                get(|| async {
                    tokio::time::sleep(Duration::from_secs(10)).await;
                    "late"
                }),
            )
    };
    let api = Router::new()
        .merge(routes())
        .nest("/v1", routes())
        .fallback(any(echo));
    (Upstream::builder().merge(api).start(), endless_dropped)
}

/// A host in this process whose /api goes to `UPSTREAM/v1`, with a 4 s head time-out and
/// a 2 s idle limit; and its upstream. At 1 s, then at 2 s, an echo beside the loaded suite
/// once took longer than that to answer (CI, a 504 where 200 was due).
fn proxied() -> &'static (String, Upstream) {
    static HOST: OnceLock<(String, Upstream)> = OnceLock::new();
    HOST.get_or_init(|| {
        let (upstream, _) = start_upstream();
        let host = support::start(&[
            "--render-threads",
            "1",
            "--api-upstream",
            &format!("{}/v1", upstream.url),
            "--api-timeout",
            "4s",
            "--api-idle-timeout",
            "2s",
        ]);
        (host, upstream)
    })
}

fn proxied_host() -> &'static str {
    &proxied().0
}

#[test]
fn the_proxy_forwards_method_path_query_headers_and_body() {
    let response = client()
        .put(format!("{}/api/echo?a=1&b=d%C3%A9j%C3%A0", proxied_host()))
        .header("authorization", "Bearer s3cret")
        .header("x-custom", "kept")
        .header("keep-alive", "timeout=5")
        .header("connection", "x-hop")
        .header("x-hop", "dropped")
        .body("le corps")
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().unwrap();
    assert_eq!(body["method"], "PUT");
    assert_eq!(body["uri"], "/v1/api/echo?a=1&b=d%C3%A9j%C3%A0");
    assert_eq!(body["authorization"], "Bearer s3cret");
    assert_eq!(body["custom"], "kept");
    assert_eq!(
        body["keepAlive"],
        Value::Null,
        "hop-by-hop headers are dropped"
    );
    assert_eq!(
        body["namedByConnection"],
        Value::Null,
        "headers named by Connection are dropped"
    );
    assert_eq!(body["body"], "le corps");
}

#[test]
fn a_path_that_would_leave_the_upstream_api_is_refused() {
    let (host, upstream) = proxied();
    let address = host.trim_start_matches("http://");
    let escapes = [
        "/api/a/../../../admin?x=1",
        "/api/..",
        "/api/%2e%2e/secret",
        "/api/.%2e/secret",
        "/api/%2E%2E/secret",
        "/api/a/..\\..\\secret",
        "/api/a/%5c..%5c..%5csecret",
        "/api/a/%2f..%2f..%2fsecret",
        "/api/a/%2e/b",
        "/api/./echo",
        "/api/%00/echo",
        "/api/..;/admin",
        "/api/.;x/secret",
        "/api/%252e%252e/admin",
        "/api/%c0%ae%c0%ae/admin",
        "/api/%EF%BC%8E%EF%BC%8E/admin",
    ];
    for target in escapes {
        let answer = raw_exchange(
            address,
            format!("GET {target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").as_bytes(),
        );
        let status = answer.lines().next().unwrap_or_default();
        assert!(status.contains(" 400 "), "{target}: {status}");
        assert!(
            answer.contains(r#"{"error":"#),
            "{target}: a JSON error: {answer}"
        );
    }
    // Over HTTP/2 the target is the :path pseudo-header.
    block_on(async {
        let mut client = h2_connect(address).await;
        let (refused, _) =
            h2_get(&mut client, &format!("{host}/api/%2e%2e/%2e%2e/admin"), &[]).await;
        assert_eq!(refused.status, 400);
    });
    for target in upstream.seen().iter().map(|seen| &seen.target) {
        assert!(
            target.starts_with("/v1/api/") || target == "/v1/api",
            "the upstream saw {target}"
        );
        assert!(
            !target.contains("admin") && !target.contains("secret"),
            "the upstream saw {target}"
        );
    }
    // Dots inside a segment name are not dot segments: forwarded as they are.
    let fine = client()
        .get(format!("{host}/api/a/..b/c.d/.e"))
        .send()
        .unwrap();
    assert_eq!(fine.status(), 200);
    let body: Value = fine.json().unwrap();
    assert_eq!(body["uri"], "/v1/api/a/..b/c.d/.e");
}

#[test]
fn a_malformed_request_body_is_the_client_error_400_not_a_502() {
    let address = proxied_host().trim_start_matches("http://");
    let answer = raw_exchange(
        address,
        b"POST /api/echo HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n",
    );
    let status = answer.lines().next().unwrap_or_default();
    assert!(status.contains(" 400 "), "{status}\n{answer}");
    assert!(!answer.contains("cannot be reached"), "{answer}");
}

#[test]
fn the_host_names_the_client_and_owns_the_security_headers() {
    let response = client()
        .get(format!("{}/api/echo", proxied_host()))
        .header("x-forwarded-for", "6.6.6.6")
        .header("forwarded", "for=6.6.6.6")
        .header("x-real-ip", "6.6.6.6")
        .send()
        .unwrap();
    let body: Value = response.json().unwrap();
    assert_eq!(body["forwardedFor"], "127.0.0.1", "{body}");
    assert_eq!(body["forwarded"], Value::Null, "{body}");
    assert_eq!(body["realIp"], Value::Null, "{body}");
    let claimed = client()
        .get(format!("{}/api/headers-seen", proxied_host()))
        .header("x-original-url", "/admin")
        .header("x-rewrite-url", "/admin")
        .header("x-forwarded-prefix", "/evil")
        .header("true-client-ip", "6.6.6.6")
        .header("cf-connecting-ip", "6.6.6.6")
        .header("proxy-connection", "keep-alive")
        .send()
        .unwrap();
    let seen: Value = claimed.json().unwrap();
    for name in [
        "x-original-url",
        "x-rewrite-url",
        "x-forwarded-prefix",
        "true-client-ip",
        "cf-connecting-ip",
        "proxy-connection",
    ] {
        assert_eq!(seen[name], Value::Null, "{name} is not forwarded: {seen}");
    }
    assert_eq!(seen["x-forwarded-proto"], "http");

    let loose = client()
        .get(format!("{}/api/loose-policy", proxied_host()))
        .send()
        .unwrap();
    assert_eq!(
        header(&loose, "content-security-policy"),
        header(&support::get("/api/status"), "content-security-policy"),
        "the host's policy, not the upstream's"
    );
    assert_eq!(header(&loose, "x-frame-options"), "DENY");
    assert_eq!(header(&loose, "x-content-type-options"), "nosniff");
    assert_eq!(
        header(&loose, "referrer-policy"),
        "strict-origin-when-cross-origin"
    );
    assert_eq!(
        header(&loose, "set-cookie"),
        "session=1; HttpOnly",
        "the API's own headers pass"
    );
}

#[test]
fn a_streamed_answer_outlives_the_head_time_out_while_it_flows() {
    let started = Instant::now();
    let response = client()
        .get(format!("{}/api/events", proxied_host()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let text = response.text().expect("the stream ends normally");
    assert_eq!(text.matches("data: ").count(), 7, "{text}");
    assert!(started.elapsed() > Duration::from_millis(4500));
}

#[test]
fn a_streamed_answer_that_goes_silent_is_cut_after_the_idle_limit() {
    let started = Instant::now();
    let response = client()
        .get(format!("{}/api/stall", proxied_host()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let read = response.text();
    let took = started.elapsed();
    assert!(read.is_err(), "the body ends in an error, not as complete");
    assert!(
        took >= Duration::from_millis(1800) && took < Duration::from_secs(5),
        "{took:?}"
    );
}

#[test]
fn the_proxy_keeps_the_upstream_status_and_headers() {
    let response = client()
        .get(format!("{}/api/teapot", proxied_host()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 418);
    assert_eq!(header(&response, "x-upstream"), "yes");
    assert_eq!(response.text().unwrap(), "short and stout");
}

#[test]
fn the_proxy_streams_large_bodies_both_ways() {
    let upload = client()
        .post(format!("{}/api/upload", proxied_host()))
        .body(vec![b'y'; LARGE_BODY])
        .send()
        .unwrap();
    assert_eq!(upload.text().unwrap(), LARGE_BODY.to_string());
    let download = client()
        .get(format!("{}/api/download", proxied_host()))
        .send()
        .unwrap();
    assert_eq!(download.bytes().unwrap().len(), LARGE_BODY);
}

#[test]
fn an_unreachable_upstream_is_a_json_502() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let host = support::start(&[
        "--render-threads",
        "1",
        "--api-upstream",
        &format!("http://{closed}"),
    ]);
    let response = client().get(format!("{host}/api/anything")).send().unwrap();
    assert_eq!(response.status(), 502);
    let body: Value = response.json().unwrap();
    assert_eq!(body["error"], "the API server cannot be reached");
}

#[test]
fn a_slow_upstream_is_a_json_504_after_the_time_out() {
    let started = Instant::now();
    let response = client()
        .get(format!("{}/api/slow", proxied_host()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 504);
    let body: Value = response.json().unwrap();
    assert_eq!(body["error"], "the API server did not answer in time");
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "answered at the 4 s time-out, not the upstream's 10 s"
    );
}

#[test]
fn a_client_that_never_reads_a_proxied_stream_releases_the_upstream() {
    let (upstream, endless_dropped) = start_upstream();
    let host = Host::start_with(
        &["--api-upstream", &upstream.url, "--api-timeout", "30"],
        &[("BILINGUE_SEND_TIMEOUT", "2s")],
    );
    let mut stream = std::net::TcpStream::connect(host.address()).unwrap();
    std::io::Write::write_all(&mut stream, b"GET /api/endless HTTP/1.1\r\nhost: x\r\n\r\n")
        .unwrap();
    let started = Instant::now();
    loop {
        if let Some(dropped) = *endless_dropped.lock().unwrap() {
            let took = dropped - started;
            assert!(took >= Duration::from_millis(1500), "{took:?}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the upstream's answer is still held after {:?}",
            started.elapsed()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(host.metric("bilingue_open_connections"), 0.0);
    drop(stream);
}

#[test]
fn pages_still_render_when_the_api_is_proxied() {
    let response = client()
        .get(format!("{}/en/", proxied_host()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        response
            .text()
            .unwrap()
            .contains("<h1>Welcome to Bilingue</h1>"),
        "rendered, not the client-rendered page"
    );
}

#[test]
fn an_upstream_that_is_not_plain_http_stops_start_up() {
    for (upstream, expected) in [
        ("https://api.example", "only http://"),
        ("not a url", "is not a URL"),
    ] {
        let error = support::start_error(&["--api-upstream", upstream]).expect("start-up fails");
        assert!(error.contains(expected), "{error}");
    }
}

#[test]
fn connect_trace_and_other_methods_are_not_forwarded() {
    let (host, upstream) = proxied();
    let address = host.trim_start_matches("http://");
    for method in ["CONNECT", "TRACE", "PROPFIND"] {
        let answer = raw_exchange(
            address,
            format!("{method} /api/echo HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello").as_bytes(),
        );
        assert!(
            answer.starts_with("HTTP/1.1 405 "),
            "{method}: {answer:.200}"
        );
    }
    let seen = upstream.seen();
    for method in ["CONNECT", "TRACE", "PROPFIND"] {
        assert!(
            !seen.iter().any(|seen| seen.method == method),
            "the upstream saw {method}"
        );
    }
}

#[test]
fn an_upstreams_invalid_status_is_a_502_and_a_204_carries_no_length() {
    for code in [101, 600, 999] {
        let response = client()
            .get(format!("{}/api/status-is/{code}", proxied_host()))
            .send()
            .unwrap();
        assert_eq!(response.status(), 502, "{code}");
    }
    let no_content = client()
        .get(format!("{}/api/status-is/204", proxied_host()))
        .send()
        .unwrap();
    assert_eq!(no_content.status(), 204);
    assert_eq!(header(&no_content, "content-length"), "");
}

#[test]
fn api_with_a_trailing_slash_is_the_apis_too() {
    let forwarded = client()
        .get(format!("{}/api/", proxied_host()))
        .send()
        .unwrap();
    let body: Value = forwarded.json().unwrap();
    assert_eq!(body["uri"], "/v1/api/", "forwarded: {body}");
    let built_in = support::get("/api/");
    assert_eq!(built_in.status(), 404);
    assert_eq!(header(&built_in, "content-type"), "application/json");
}

/// Every key header a proxied answer leaves with is the host's: an upstream's
/// `Surrogate-Key`, `Cache-Tag` and `xkey` are read strictly (its data keys) and written
/// again by the host, the same in both of its headers, on an answer a shared cache may
/// keep; an answer no shared cache may keep carries none, nor does the built-in
/// `/api/status` (`no-store`).
#[test]
fn every_key_header_a_proxied_answer_leaves_with_is_the_hosts() {
    use axum::http::HeaderValue;

    let many = vec!["pages build-evil lang-en route-home"; 100].join(" ");
    let keyed = move |cache_control: &'static str| {
        let many = many.clone();
        get(move || async move {
            let mut answer = axum::Json(json!({ "ok": true })).into_response();
            let headers = answer.headers_mut();
            headers.insert("cache-control", HeaderValue::from_static(cache_control));
            headers.insert(
                "surrogate-key",
                HeaderValue::from_static("user-7 build-evil"),
            );
            headers.insert("cache-tag", HeaderValue::from_static("lang-en,pages"));
            headers.insert("xkey", HeaderValue::from_str(&many).unwrap());
            answer
        })
    };
    let upstream = Upstream::builder()
        .route("/api/public", keyed("public, max-age=60"))
        .route("/api/private", keyed("private, max-age=60"))
        .route("/api/unstated", keyed("max-age=60"))
        .start();
    let host = Host::started(&["--api-upstream", &upstream.url]);
    let public = client().get(host.url("/api/public")).send().unwrap();
    assert_eq!(header(&public, "surrogate-key"), "api user-7");
    assert_eq!(header(&public, "cache-tag"), "api,user-7");
    assert_eq!(
        header(&public, "xkey"),
        "",
        "Varnish's own header is the VCL's to set"
    );
    for path in ["/api/private", "/api/unstated"] {
        let kept_by_none = client().get(host.url(path)).send().unwrap();
        for name in ["surrogate-key", "cache-tag", "xkey"] {
            assert_eq!(header(&kept_by_none, name), "", "{path}: {name}");
        }
    }
    let status = client()
        .get(format!("{}/api/status", support::base_url()))
        .send()
        .unwrap();
    assert_eq!(header(&status, "cache-control"), "no-store");
    assert_eq!(header(&status, "surrogate-key"), "");
    assert_eq!(header(&status, "cache-tag"), "");
}
