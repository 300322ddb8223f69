//! The host's /api over real HTTP: the built-in endpoints, JSON errors, and the proxy to
//! a real upstream started here (forwarding, streaming, 502, 504).

mod support;

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::HeaderMap;
use axum::routing::{any, get, post};
use futures_util::StreamExt;
use serde_json::{Value, json};
use support::{client, get as fetch, header};

const LARGE_BODY: usize = 32 * 1024 * 1024;

#[test]
fn status_reports_version_languages_and_time() {
    let response = fetch("/api/status");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-type"), "application/json");
    let body: Value = response.json().unwrap();
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(body["languages"], json!(["fr", "en"]));
    let time = body["serverTime"].as_str().unwrap();
    assert!(
        time.len() == 24 && time.ends_with('Z') && time.starts_with("20"),
        "{time}"
    );
}

#[test]
fn an_unknown_api_path_is_a_json_404() {
    for path in ["/api/nope", "/api", "/api/status/extra"] {
        let response = fetch(path);
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("no such API endpoint"),
            "{path}"
        );
    }
}

#[test]
fn a_wrong_method_on_an_api_endpoint_is_a_json_error() {
    let response = client()
        .post(format!("{}/api/status", support::base_url()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 405);
    let body: Value = response.json().unwrap();
    assert_eq!(body["error"], "POST is not allowed on /api/status");
}

/// An upstream API, on its own thread and port.
fn start_upstream() -> String {
    async fn echo(request: Request) -> axum::Json<Value> {
        let (parts, body) = request.into_parts();
        let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        let headers: &HeaderMap = &parts.headers;
        let h = |name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_string());
        axum::Json(json!({
            "method": parts.method.as_str(),
            "uri": parts.uri.to_string(),
            "authorization": h("authorization"),
            "custom": h("x-custom"),
            "keepAlive": h("keep-alive"),
            "namedByConnection": h("x-hop"),
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
    async fn teapot() -> (
        axum::http::StatusCode,
        [(&'static str, &'static str); 1],
        &'static str,
    ) {
        (
            axum::http::StatusCode::IM_A_TEAPOT,
            [("x-upstream", "yes")],
            "short and stout",
        )
    }
    let router = Router::new()
        .route("/api/echo", any(echo))
        .route("/api/upload", post(upload))
        .route("/api/download", get(download))
        .route("/api/teapot", get(teapot))
        .route(
            "/api/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(5)).await;
                "late"
            }),
        );
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
            .block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                axum::serve(listener, router).await.unwrap();
            });
    });
    format!("http://{}", rx.recv().unwrap())
}

fn proxied_host() -> &'static str {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let upstream = start_upstream();
        support::start(&[
            "--render-threads",
            "1",
            "--api-upstream",
            &upstream,
            "--api-timeout",
            "1",
        ])
    })
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
    assert_eq!(body["uri"], "/api/echo?a=1&b=d%C3%A9j%C3%A0");
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
        started.elapsed() < Duration::from_secs(4),
        "answered at the 1 s time-out, not the upstream's 5 s"
    );
}

#[test]
fn pages_still_render_when_the_api_is_proxied() {
    let response = client()
        .get(format!("{}/en/", proxied_host()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
}

#[test]
fn an_upstream_that_is_not_plain_http_stops_start_up() {
    support::init_v8_once();
    for (upstream, expected) in [
        ("https://api.example", "only http://"),
        ("not a url", "is not a URL"),
    ] {
        let config = <bilingue::config::Config as clap::Parser>::parse_from([
            "bilingue",
            "--api-upstream",
            upstream,
        ]);
        let error = bilingue::AppState::start(&config)
            .err()
            .expect("start-up fails")
            .to_string();
        assert!(error.contains(expected), "{error}");
    }
}
