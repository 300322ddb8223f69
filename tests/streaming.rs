//! Pages whose data is slow come as they are rendered: the document's head and the
//! screen's frame at once, each part that waits for data when it comes, over HTTP/1.1
//! (chunked) and HTTP/2 alike; the load time-out and a failing API end the page with their
//! error; a client that leaves stops the render; a crawler gets the page whole.

use std::io::Read as _;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::routing::get;

use crate::support::upstream::{self, Upstream};
use crate::support::{self, client, header};

const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/// An upstream whose /api/status answers after `delay`, with `status`.
fn slow_upstream(delay: Duration, status: StatusCode) -> Upstream {
    let body = match status {
        StatusCode::OK => upstream::status_json("9.9.9"),
        _ => r#"{"error":"the upstream's database is down"}"#.to_string(),
    };
    Upstream::builder()
        .route(
            "/api/status",
            get(move || async move { (status, upstream::json(body)) }),
        )
        .delay(delay)
        .start()
}

/// Every piece of the body as it arrived, with when.
fn pieces(response: reqwest::blocking::Response, started: Instant) -> Vec<(Duration, String)> {
    let mut response = response;
    let mut pieces = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let read = response.read(&mut buffer).unwrap();
        if read == 0 {
            return pieces;
        }
        pieces.push((
            started.elapsed(),
            String::from_utf8_lossy(&buffer[..read]).into_owned(),
        ));
    }
}

fn whole(pieces: &[(Duration, String)]) -> String {
    pieces.iter().map(|(_, text)| text.as_str()).collect()
}

#[test]
fn the_frame_comes_at_once_and_the_data_in_the_same_answer_when_it_comes() {
    let upstream = slow_upstream(Duration::from_millis(1500), StatusCode::OK);
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let started = Instant::now();
    let response = client()
        .get(format!(
            "{host}{}",
            crate::support::app_page("fr", "status", &[])
        ))
        .header("accept-encoding", "identity")
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "cache-control"), "private, no-store");
    let policy = header(&response, "content-security-policy");
    let nonce = policy
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a streamed page's scripts carry a nonce")
        .to_string();
    let pieces = pieces(response, started);
    let (first_at, _) = &pieces[0];
    let before_data: String = pieces
        .iter()
        .filter(|(at, _)| *at < Duration::from_millis(1000))
        .map(|(_, text)| text.as_str())
        .collect();
    assert!(
        *first_at < Duration::from_millis(1000),
        "the head comes before the data: {first_at:?}"
    );
    for sign in [
        r#"<html lang="fr">"#,
        "<title>État du serveur · Bilingue</title>",
        r#"<link rel="canonical""#,
        r#"<link rel="alternate" hreflang="en""#,
        "<h1>État du serveur</h1>",
        r#"<p aria-busy="true">Chargement…</p>"#,
    ] {
        assert!(
            before_data.contains(sign),
            "{sign} before the data: {before_data}"
        );
    }
    assert!(!before_data.contains("9.9.9"), "{before_data}");
    let (last_at, _) = pieces.last().unwrap();
    assert!(
        *last_at >= Duration::from_millis(1400),
        "the data when it comes: {last_at:?}"
    );
    let html = whole(&pieces);
    assert!(html.contains("<dd>9.9.9</dd>"), "{html}");
    assert!(html.trim_end().ends_with("</html>"));
    // React's inline scripts run under the page's policy, with its nonce.
    assert!(
        html.contains(&format!(r#"<script nonce="{nonce}">"#)),
        "{html}"
    );
    let boot = html
        .split(r#"<script id="bilingue-boot" type="application/json">"#)
        .nth(1)
        .unwrap();
    assert!(
        boot.contains(r#""version":"9.9.9""#),
        "the boot state carries the data"
    );
    let order = [
        "<title>",
        "<h1>",
        "aria-busy",
        "<dd>9.9.9</dd>",
        "bilingue-boot",
        "</html>",
    ];
    let positions: Vec<usize> = order.iter().map(|s| html.find(s).unwrap()).collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "in order: {positions:?}"
    );
}

#[test]
fn over_http2_the_frame_comes_first_too() {
    let upstream = slow_upstream(Duration::from_millis(1500), StatusCode::OK);
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let address = host.trim_start_matches("http://").to_string();
    let frames = support::block_on(async move {
        let client = support::h2_connect(&address).await;
        let status = support::app_page("en", "status", &[]);
        let request = axum::http::Request::get(format!("http://{address}{status}"))
            .body(())
            .unwrap();
        let mut client = client.clone().ready().await.unwrap();
        let started = Instant::now();
        let (answer, _) = client.send_request(request, true).unwrap();
        let (parts, mut body) = answer.await.unwrap().into_parts();
        assert_eq!(parts.status, 200);
        let mut frames = Vec::new();
        while let Some(data) = body.data().await {
            let data = data.unwrap();
            let _ = body.flow_control().release_capacity(data.len());
            frames.push((
                started.elapsed(),
                String::from_utf8_lossy(&data).into_owned(),
            ));
        }
        frames
    });
    assert!(
        frames[0].0 < Duration::from_millis(1000),
        "{:?}",
        frames[0].0
    );
    assert!(
        frames[0]
            .1
            .contains("<title>Server status · Bilingue</title>")
    );
    assert!(frames.last().unwrap().0 >= Duration::from_millis(1400));
    assert!(whole(&frames).contains("<dd>9.9.9</dd>"));
}

#[test]
fn past_the_load_time_out_the_part_shows_the_time_out_error_and_the_page_ends() {
    let upstream = slow_upstream(Duration::from_secs(10), StatusCode::OK);
    let host = support::start(&[
        "--render-threads",
        "1",
        "--api-upstream",
        &upstream.url,
        "--load-timeout",
        "500ms",
    ]);
    let started = Instant::now();
    let html = support::text(format!(
        "{host}{}",
        crate::support::app_page("en", "status", &[])
    ));
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(450) && took < Duration::from_secs(3),
        "{took:?}"
    );
    assert!(
        html.contains("The server’s status could not be obtained."),
        "{html}"
    );
    // The time-out travels in the data, for the browser; a person reads the message alone.
    assert!(html.contains("timeout of 500ms exceeded"), "{html}");
    assert!(!outside_scripts(&html).contains("timeout of"), "{html}");
    assert!(html.trim_end().ends_with("</html>"));
}

#[test]
fn an_api_error_after_the_head_shows_its_translated_message_not_the_apis_words() {
    let upstream = slow_upstream(
        Duration::from_millis(300),
        StatusCode::INTERNAL_SERVER_ERROR,
    );
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let html = support::text(format!(
        "{host}{}",
        crate::support::app_page("fr", "status", &[])
    ));
    assert!(
        html.contains("L’état du serveur n’a pas pu être obtenu."),
        "{html}"
    );
    assert!(
        !outside_scripts(&html).contains("database is down"),
        "the API's words are not the visitor's to read: {html}"
    );
    let boot = html
        .split(r#"<script id="bilingue-boot" type="application/json">"#)
        .nth(1)
        .unwrap();
    assert!(boot.contains(r#""status":500"#), "{boot}");
    assert!(boot.contains("the upstream's database is down"), "{boot}");
}

/// What a person reads of a page: its markup without its scripts' contents.
fn outside_scripts(html: &str) -> String {
    let mut shown = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        shown.push_str(&rest[..start]);
        rest = rest[start..]
            .find("</script>")
            .map_or("", |end| &rest[start + end..]);
    }
    shown + rest
}

#[test]
fn a_crawler_gets_the_whole_page_in_one_piece_with_its_data() {
    let upstream = slow_upstream(Duration::from_millis(500), StatusCode::OK);
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let response = client()
        .get(format!(
            "{host}{}",
            crate::support::app_page("fr", "status", &[])
        ))
        .header("user-agent", GOOGLEBOT)
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        !header(&response, "content-length").is_empty(),
        "in one piece"
    );
    assert!(!header(&response, "content-security-policy").contains("nonce"));
    let html = response.text().unwrap();
    assert!(html.contains("<dd>9.9.9</dd>"));
    for streamed in ["aria-busy=\"true\"", "$RC", "hidden id=\"S:"] {
        assert!(!html.contains(streamed), "no {streamed} in what is indexed");
    }
}

/// The status page asked over a connection of its own, once its answer's first bytes
/// (a 200) have come: the client can then leave mid-stream by dropping it.
fn status_page_begun(host: &str) -> std::net::TcpStream {
    use std::io::Write as _;
    let mut stream = std::net::TcpStream::connect(host.trim_start_matches("http://")).unwrap();
    let request = format!(
        "GET {} HTTP/1.1\r\nhost: x\r\n\r\n",
        support::app_page("fr", "status", &[])
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut first = [0u8; 1024];
    let read = stream.read(&mut first).unwrap();
    assert!(String::from_utf8_lossy(&first[..read]).starts_with("HTTP/1.1 200"));
    stream
}

/// Waits until `done`, asking every 10 ms; fails with `what` past `limit`.
fn within(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_client_that_leaves_mid_stream_stops_the_render_and_is_counted() {
    let upstream = slow_upstream(Duration::from_secs(2), StatusCode::OK);
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let before = support::metric(&host, "bilingue_streams_abandoned_total");
    drop(status_page_begun(&host));
    within(
        Duration::from_secs(2),
        "the stream's end was not noticed",
        || support::metric(&host, "bilingue_streams_abandoned_total") >= before + 1.0,
    );
    // The thread serves on.
    let html = support::text(format!("{host}/en/"));
    assert!(html.contains("<h1>Welcome to Bilingue</h1>"));
    // HEAD gets the head and stops the render, without counting as a client that left.
    let abandoned = support::metric(&host, "bilingue_streams_abandoned_total");
    let head = client()
        .head(format!(
            "{host}{}",
            crate::support::app_page("fr", "status", &[])
        ))
        .send()
        .unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(header(&head, "cache-control"), "private, no-store");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        support::metric(&host, "bilingue_streams_abandoned_total"),
        abandoned
    );
}

/// What an upstream's /api/status saw of a request: that its answer began to be made, and
/// when the request was dropped before its answer (its connection closed), if it was.
#[derive(Default)]
struct Held {
    began: bool,
    dropped: Option<Instant>,
}

type Noting = std::sync::Arc<std::sync::Mutex<Held>>;

/// An upstream whose /api/status answers after `delay`, noting a request dropped before.
fn upstream_noting_drops(delay: Duration) -> (Upstream, Noting) {
    struct Noted(Noting, bool);
    impl Drop for Noted {
        fn drop(&mut self) {
            if !self.1 {
                self.0.lock().unwrap().dropped = Some(Instant::now());
            }
        }
    }
    let held = Noting::default();
    let noting = held.clone();
    let upstream = Upstream::builder()
        .route(
            "/api/status",
            get(move || {
                noting.lock().unwrap().began = true;
                let noted = Noted(noting.clone(), false);
                async move {
                    // The guard itself, not a copy of its flag: it lives as long as the answer.
                    let mut noted = noted;
                    tokio::time::sleep(delay).await;
                    noted.1 = true;
                    upstream::json(upstream::status_json("9.9.9"))
                }
            }),
        )
        .start();
    (upstream, held)
}

/// A host on one thread whose pages wait 10 s for their data, past the upstream's answer:
/// a call cut sooner was cut by the page's end, not by the load time-out.
fn host_whose_calls_outlast(upstream: &Upstream) -> String {
    support::start(&[
        "--render-threads",
        "1",
        "--load-timeout",
        "10s",
        "--api-upstream",
        &upstream.url,
    ])
}

#[test]
fn a_client_that_leaves_while_its_page_waits_has_its_api_call_cut() {
    let (upstream, held) = upstream_noting_drops(Duration::from_secs(4));
    let host = host_whose_calls_outlast(&upstream);
    let stream = status_page_begun(&host);
    within(
        Duration::from_secs(2),
        "the page's call never reached the upstream",
        || held.lock().unwrap().began,
    );
    drop(stream);
    within(
        Duration::from_secs(2),
        "the call went on for no one after its client left",
        || held.lock().unwrap().dropped.is_some(),
    );
    // The thread serves on.
    let html = support::text(format!("{host}/en/"));
    assert!(html.contains("<h1>Welcome to Bilingue</h1>"));
}

#[test]
fn a_head_has_its_pages_api_call_cut_once_its_head_is_sent() {
    let (upstream, held) = upstream_noting_drops(Duration::from_secs(4));
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let head = client()
        .head(format!("{host}{}", support::app_page("fr", "status", &[])))
        .send()
        .unwrap();
    assert_eq!(head.status(), 200);
    // Cut before the upstream began its answer, or while it made it: not held for the 4 s.
    std::thread::sleep(Duration::from_secs(1));
    let held = held.lock().unwrap();
    assert!(
        !held.began || held.dropped.is_some(),
        "a HEAD's call went on for no one ({} seen)",
        upstream.seen().len()
    );
}

/// Over HTTP/2 a client leaves one page by resetting its stream (`RST_STREAM`), not by
/// closing the connection: that page's call is cut, and the connection serves on.
#[test]
fn over_http2_a_stream_reset_while_its_page_waits_cuts_its_call_and_nothing_else() {
    let (upstream, held) = upstream_noting_drops(Duration::from_secs(4));
    let host = host_whose_calls_outlast(&upstream);
    let address = host.trim_start_matches("http://").to_string();
    let status = support::app_page("fr", "status", &[]);
    let waiting = held.clone();
    let home = support::block_on(async move {
        let mut client = support::h2_connect(&address).await;
        let request = axum::http::Request::get(format!("http://{address}{status}"))
            .body(())
            .unwrap();
        let mut ready = client.clone().ready().await.unwrap();
        let (answer, _) = ready.send_request(request, true).unwrap();
        let (parts, mut body) = answer.await.unwrap().into_parts();
        assert_eq!(parts.status, 200);
        let first = body.data().await.unwrap().unwrap();
        assert!(!first.is_empty());
        let started = Instant::now();
        while !waiting.lock().unwrap().began {
            assert!(
                started.elapsed() < Duration::from_secs(2),
                "the page's call never reached the upstream"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // The last handle on the stream: h2 resets it (CANCEL).
        drop(body);
        support::h2_get(&mut client, &format!("http://{address}/en/"), &[]).await
    });
    assert_eq!(home.0.status, 200);
    assert!(String::from_utf8_lossy(&home.1).contains("<h1>Welcome to Bilingue</h1>"));
    within(
        Duration::from_secs(2),
        "the call went on for no one after its stream was reset",
        || held.lock().unwrap().dropped.is_some(),
    );
}

/// A page that fails while its call waits (here: its runtime is replaced, after another
/// page on the same thread ran out of heap) has its call cut: the answer would reach no one.
#[test]
fn a_page_failed_by_its_runtimes_replacement_has_its_api_call_cut() {
    // The upstream holds the call long past the hoarder's end, the small heap filled soon.
    let (upstream, held) = upstream_noting_drops(Duration::from_secs(8));
    // A time-out long enough that the heap limit, not the clock, stops the hoarder.
    let host = support::binary::Host::started(&[
        "--server-bundle",
        support::LOADER_BUNDLE,
        "--render-threads",
        "1",
        "--render-heap-mb",
        "64",
        "--render-timeout",
        "20s",
        "--load-timeout",
        "10s",
        "--api-upstream",
        &upstream.url,
    ]);
    let waiting = host.url("/fr/call/%2Fapi%2Fstatus");
    let page = std::thread::spawn(move || client().get(waiting).send().unwrap().status());
    within(
        Duration::from_secs(2),
        "the page's call never reached the upstream",
        || held.lock().unwrap().began,
    );
    assert_eq!(
        client().get(host.url("/fr/alloc")).send().unwrap().status(),
        200
    );
    assert_eq!(page.join().unwrap(), 200, "sent client-rendered");
    within(
        Duration::from_secs(2),
        "the failed page's call went on for no one",
        || held.lock().unwrap().dropped.is_some(),
    );
    within(
        Duration::from_secs(5),
        "the runtime was not replaced",
        || host.metric("bilingue_runtime_restarts_total") == 1.0,
    );
}
