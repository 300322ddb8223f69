//! Partial prerendering: a streamed page's static shell is prerendered once and kept; the
//! next visitors get it before any render thread has looked at their request, and the
//! render only fills what waits for data, with each visitor's own data. What the pages in
//! hand hold is counted against a budget; a page that does not fit is answered at once,
//! never queued behind other visitors' data.

use std::io::Read as _;
use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use axum::routing::get;
use reqwest::Method;

use crate::support::upstream::{self, Upstream};
use crate::support::{self, client, header};

/// The visitor a request to the upstream is for: its `session` cookie.
fn visitor_of(headers: &HeaderMap) -> String {
    headers
        .get("cookie")
        .and_then(|c| c.to_str().ok())
        .and_then(|c| c.strip_prefix("session="))
        .unwrap_or("nobody")
        .to_string()
}

/// An upstream whose /api/status names, as its version, the visitor's cookie, after `delay`.
fn visitors_upstream(delay: Duration) -> Upstream {
    Upstream::builder()
        .route(
            "/api/status",
            get(|headers: HeaderMap| async move {
                let visitor = visitor_of(&headers);
                upstream::json(upstream::status_json(&visitor))
            }),
        )
        .delay(delay)
        .start()
}

/// The answer's body, and when its first and last bytes came.
fn timed(response: reqwest::blocking::Response, started: Instant) -> (String, Duration, Duration) {
    let mut response = response;
    let mut body = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut first = None;
    loop {
        let read = response.read(&mut buffer).unwrap();
        if read == 0 {
            break;
        }
        first.get_or_insert(started.elapsed());
        body.extend_from_slice(&buffer[..read]);
    }
    let first = first.unwrap_or_default();
    (String::from_utf8(body).unwrap(), first, started.elapsed())
}

fn status_page(host: &str, visitor: &str) -> (String, Duration, Duration) {
    status_page_from(host, visitor, client())
}

/// The same, asked with `client` (from an address of its own, say).
fn status_page_from(
    host: &str,
    visitor: &str,
    client: reqwest::blocking::Client,
) -> (String, Duration, Duration) {
    let started = Instant::now();
    let response = ask_status(&client, Method::GET, host, visitor);
    assert_eq!(response.status(), 200);
    let kept_by = header(&response, "cache-control");
    let (html, first, whole) = timed(response, started);
    // The visitor's page, or (past the budget) the client-rendered one: kept by no one.
    assert!(
        kept_by == "private, no-store"
            || (kept_by == "no-store" && support::is_client_rendered(&html)),
        "{kept_by}"
    );
    (html, first, whole)
}

/// `visitor`'s status page asked with `method`, plain, as it comes.
fn ask_status(
    client: &reqwest::blocking::Client,
    method: Method,
    host: &str,
    visitor: &str,
) -> reqwest::blocking::Response {
    let url = format!("{host}{}", crate::support::app_page("fr", "status", &[]));
    client
        .request(method, url)
        .header("accept-encoding", "identity")
        .header("cookie", format!("session={visitor}"))
        .send()
        .unwrap()
}

/// A host of one render thread whose loaders call `upstream`, holding kept shells for
/// `hold` (`--shell-hold`), with `more` options.
fn holding(upstream: &Upstream, hold: &str, more: &[&str]) -> String {
    let mut args = vec!["--render-threads", "1", "--api-upstream", &upstream.url];
    args.extend(["--shell-hold", hold]);
    args.extend(more);
    support::start(&args)
}

/// The document with its nonces and its host's address taken out (each has its own).
fn comparable(html: &str, host: &str) -> String {
    let port = host.rsplit(':').next().unwrap();
    without_nonces(html).replace(&format!("localhost:{port}"), "HOST")
}

fn without_nonces(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find("nonce=\"") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 7..];
        rest = &after[after.find('"').unwrap() + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn a_kept_shell_comes_at_once_and_each_visitor_gets_their_own_data() {
    // "At once" is within half the upstream's time: beside the browser suite in CI, a first
    // byte took 309 ms when the upstream took 600 ms and the bound was 300.
    let upstream = visitors_upstream(Duration::from_millis(1500));
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let (first, _, _) = status_page(&host, "alice");
    assert!(first.contains("<dd>alice</dd>"), "{first}");
    assert_eq!(support::metric(&host, "bilingue_shells_kept"), 1.0);
    for visitor in ["bob", "carol"] {
        let (html, first_byte, whole) = status_page(&host, visitor);
        assert!(
            first_byte < Duration::from_millis(750),
            "{visitor}: {first_byte:?}"
        );
        assert!(
            whole >= Duration::from_millis(1500),
            "{visitor}: the data when it came"
        );
        assert!(html.contains(&format!("<dd>{visitor}</dd>")), "{html}");
        assert!(!html.contains("alice"), "another visitor's data: {html}");
        let boot = html.split(r#"id="bilingue-boot""#).nth(1).unwrap();
        assert!(
            boot.contains(&format!(r#""version":"{visitor}""#)),
            "{boot}"
        );
        // React's scripts that put the data in its place carry this answer's nonce.
        assert!(html.contains("$RC") || html.contains("$RS"), "{html}");
    }
    assert_eq!(
        support::metric(&host, "bilingue_shells_kept"),
        1.0,
        "one shell, kept"
    );
}

/// Calls into V8 the render threads have made: each is timed in `bilingue_render_seconds`.
fn calls_into_v8(host: &str) -> f64 {
    support::metric(host, "bilingue_render_seconds_count")
}

/// What a call into the bundle produces comes with it, its microtasks' work included
/// (`host/render/outbox_ops.rs`): no call is made only to collect it.
#[test]
fn a_visitors_page_resumed_from_its_kept_shell_enters_v8_twice() {
    let upstream = visitors_upstream(Duration::ZERO);
    let host = holding(&upstream, "0s", &[]);
    let before = calls_into_v8(&host);
    status_page(&host, "alice");
    let made = calls_into_v8(&host);
    let (html, _, _) = status_page(&host, "bob");
    assert!(html.contains("<dd>bob</dd>"), "{html}");
    assert!(
        html.contains("$RC") || html.contains("$RS"),
        "resumed: {html}"
    );
    let resumed = calls_into_v8(&host);
    assert_eq!(
        (made - before, resumed - made),
        (3.0, 2.0),
        "the shell's maker: its start, the halt, its data; a later visitor: its start, its data"
    );
}

/// A visitor's page whose data comes while its kept shell is held (`--shell-hold`) is
/// rendered whole, as a page with its data is, and sent in one piece: its length known,
/// none of the scripts that put a stream's parts in place, two calls into V8.
#[test]
fn a_visitors_page_whose_data_comes_while_its_shell_is_held_comes_whole_in_one_piece() {
    let upstream = visitors_upstream(Duration::ZERO);
    // Not the render time-out: under the suite's load, the call that prerenders the shell
    // was once held past the default 1 s, which replaces the runtime and keeps no shell.
    let host = holding(&upstream, "1s", &["--render-timeout", "10s"]);
    status_page(&host, "alice");
    assert_eq!(
        support::metric(&host, "bilingue_shells_kept"),
        1.0,
        "runtimes replaced: {}, renders failed: {}",
        support::metric(&host, "bilingue_runtime_restarts_total"),
        support::metric(&host, "bilingue_render_failures_total")
    );
    let before = calls_into_v8(&host);
    let response = ask_status(&client(), Method::GET, &host, "bob");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "cache-control"), "private, no-store");
    assert!(
        response.headers().get("transfer-encoding").is_none(),
        "{:?}",
        response.headers()
    );
    let length: usize = header(&response, "content-length").parse().unwrap();
    let html = response.text().unwrap();
    assert_eq!(html.len(), length);
    assert!(html.contains("<dd>bob</dd>"), "{html}");
    assert!(!html.contains("$RC") && !html.contains("$RS"), "{html}");
    assert!(!html.contains("alice"), "{html}");
    assert_eq!(calls_into_v8(&host) - before, 2.0, "its start, its data");
    // HEAD says what GET says: the page whole, its length and its validator told.
    let head = ask_status(&client(), Method::HEAD, &host, "bob");
    assert_eq!(header(&head, "content-length"), length.to_string());
    assert_eq!(header(&head, "cache-control"), "private, no-store");
    assert!(head.headers().get("transfer-encoding").is_none());
}

/// Past `--shell-hold`, the kept shell goes, and the visitor's data follows it in the same
/// answer once it comes.
#[test]
fn a_kept_shell_goes_once_its_hold_is_over_and_the_data_follows() {
    let upstream = visitors_upstream(Duration::from_millis(2000));
    let host = holding(&upstream, "300ms", &[]);
    status_page(&host, "alice");
    let (html, first_byte, whole) = status_page(&host, "bob");
    assert!(
        first_byte >= Duration::from_millis(300) && first_byte < Duration::from_millis(1800),
        "the shell after the hold, before the data: {first_byte:?}"
    );
    assert!(whole >= Duration::from_millis(2000), "{whole:?}");
    assert!(html.contains("<dd>bob</dd>"), "{html}");
    assert!(html.contains("$RC") || html.contains("$RS"), "{html}");
}

/// A page whose data came too late for its last hold is not held: its next visitor's
/// shell goes at once, as the hold would only delay it, until a visitor's data comes
/// within the hold again; then the page is held, and goes whole, again.
#[test]
fn a_page_whose_data_came_too_late_for_its_hold_is_not_held_until_data_comes_in_time() {
    const SLOW: Duration = Duration::from_millis(2500);
    let upstream = Upstream::builder()
        .route(
            "/api/status",
            get(|headers: HeaderMap| async move {
                let visitor = visitor_of(&headers);
                if visitor.starts_with("slow") {
                    tokio::time::sleep(SLOW).await;
                }
                upstream::json(upstream::status_json(&visitor))
            }),
        )
        .start();
    let host = holding(&upstream, "1s", &[]);
    status_page(&host, "slow-maker");
    let (_, first_byte, _) = status_page(&host, "slow-held");
    assert!(
        first_byte >= Duration::from_millis(1000) && first_byte < SLOW,
        "held until the hold ran out: {first_byte:?}"
    );
    let (html, first_byte, whole) = status_page(&host, "slow-next");
    // "At once": well within the hold, beside the rest of the suite.
    assert!(
        first_byte < Duration::from_millis(800),
        "its data came too late for the last hold: the shell at once, {first_byte:?}"
    );
    assert!(whole >= SLOW, "{whole:?}");
    assert!(html.contains("<dd>slow-next</dd>"), "{html}");
    // Data that comes at once: this page still streams (the last data was late), and the
    // next is held again, and whole.
    let (html, _, _) = status_page(&host, "quick");
    assert!(html.contains("$RC") || html.contains("$RS"), "{html}");
    assert!(html.contains("<dd>quick</dd>"), "{html}");
    let response = ask_status(&client(), Method::GET, &host, "quick-again");
    assert!(
        response.headers().get("transfer-encoding").is_none(),
        "whole: {:?}",
        response.headers()
    );
    let html = response.text().unwrap();
    assert!(html.contains("<dd>quick-again</dd>"), "{html}");
    assert!(!html.contains("$RC") && !html.contains("$RS"), "{html}");
}

/// Pages streamed at once on one render thread share its renderer and what it writes
/// into: each page still holds its own visitor's data and no one else's.
#[test]
fn visitors_streamed_at_once_on_one_render_thread_each_get_only_their_own_data() {
    let upstream = visitors_upstream(Duration::from_millis(150));
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    status_page(&host, "warm-up");
    let visitors: Vec<String> = (0..24).map(|i| format!("visitor{i:02}")).collect();
    // Rounds enough for pages of every visitor to be under way on the thread together.
    let pages: Vec<(String, String)> = (0..8)
        .flat_map(|_| {
            std::thread::scope(|scope| {
                let asked: Vec<_> = visitors
                    .iter()
                    .map(|visitor| scope.spawn(|| (visitor.clone(), status_page(&host, visitor).0)))
                    .collect();
                asked
                    .into_iter()
                    .map(|page| page.join().unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for (visitor, html) in &pages {
        assert!(
            html.contains(&format!("<dd>{visitor}</dd>")),
            "{visitor}: {html}"
        );
        let boot = html.split(r#"id="bilingue-boot""#).nth(1).unwrap();
        assert!(
            boot.contains(&format!(r#""version":"{visitor}""#)),
            "{boot}"
        );
        for other in visitors.iter().filter(|other| *other != visitor) {
            assert!(
                !html.contains(other.as_str()),
                "{visitor} got {other}'s data: {html}"
            );
        }
    }
}

#[test]
fn the_document_is_the_one_a_render_without_a_shell_gives() {
    let upstream = visitors_upstream(Duration::from_millis(100));
    let on = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let off = support::start(&[
        "--render-threads",
        "1",
        "--api-upstream",
        &upstream.url,
        "--prerender",
        "off",
    ]);
    status_page(&on, "dave");
    let (resumed, _, _) = status_page(&on, "dave");
    let (whole, _, _) = status_page(&off, "dave");
    assert_eq!(support::metric(&off, "bilingue_shells_kept"), 0.0);
    let head = |html: &str| html[..html.find(r#"<div id="app">"#).unwrap()].to_string();
    assert_eq!(
        head(&comparable(&resumed, &on)),
        head(&comparable(&whole, &off))
    );
    // The markup, the data's time aside, is the same to the byte.
    let markup = |html: &str| {
        let start = html.find(r#"<div id="app">"#).unwrap();
        let end = html.find(r#"<script id="bilingue-boot""#).unwrap();
        let markup = html[start..end].to_string();
        let time = markup.find("<time").unwrap();
        let after = time + markup[time..].find("</time>").unwrap();
        format!("{}{}", &markup[..time], &markup[after..])
    };
    assert_eq!(
        markup(&without_nonces(&resumed)),
        markup(&without_nonces(&whole))
    );
    let boot = |html: &str| {
        let boot = &html[html.find(r#"id="bilingue-boot""#).unwrap()..];
        boot[..boot.find("serverTime").unwrap()].to_string()
    };
    assert_eq!(boot(&resumed), boot(&whole));
    for html in [&resumed, &whole] {
        assert!(html.contains("<dd>dave</dd>") && html.contains("<h1>État du serveur</h1>"));
    }
}

#[test]
fn a_page_past_the_loading_budget_is_answered_at_once_and_the_others_get_their_data() {
    // About 60 pages fit in 1 MiB; 100 visitors ask at once, their data taking 3 s, five
    // from each of 20 addresses (one address may hold a quarter of the budget). "At once"
    // is within half the data's time: under the suite's load a first byte once took 1.03 s
    // against a bound of 1 s with data taking 1.5 s.
    let upstream = visitors_upstream(Duration::from_millis(3000));
    let host = support::start(&[
        "--render-threads",
        "2",
        "--api-upstream",
        &upstream.url,
        "--loading-budget-mb",
        "1",
        "--load-timeout",
        "10s",
    ]);
    status_page(&host, "warm");
    let pages: Vec<_> = (0..100)
        .map(|i| {
            let host = host.clone();
            let from = reqwest::blocking::Client::builder()
                .local_address(std::net::IpAddr::from([127, 0, 1, (i % 20) as u8 + 1]))
                .build()
                .unwrap();
            std::thread::spawn(move || status_page_from(&host, &format!("v{i}"), from))
        })
        .collect();
    let (mut with_data, mut at_once) = (0, 0);
    for (i, page) in pages.into_iter().enumerate() {
        let (html, first_byte, whole) = page.join().unwrap();
        if html.contains(&format!("<dd>v{i}</dd>")) {
            with_data += 1;
        } else {
            assert!(support::is_client_rendered(&html), "v{i}: {html:.2000}");
            assert!(
                whole < Duration::from_millis(1500),
                "v{i} waited: {whole:?}"
            );
            at_once += 1;
        }
        assert!(
            first_byte < Duration::from_millis(1500),
            "v{i}: {first_byte:?}"
        );
    }
    assert!(
        with_data >= 40,
        "{with_data} with their data, {at_once} at once"
    );
    assert!(
        at_once >= 1,
        "the budget was crossed: {with_data} with their data"
    );
}

#[test]
fn visitors_of_a_kept_shell_wait_for_no_place_in_the_render_queue() {
    // A queue of one place, and 60 visitors at once: each is a job for the threads, but one
    // whose first byte has gone; the loading budget, not the queue, bounds them.
    // Each shell sent at once (`--shell-hold 0s`): the queue is what is looked at here. Not
    // the render time-out: under the suite's load, one call into V8 that resumes 16 of these
    // pages may be held past the default 1 s, which replaces the runtime and ends the pages
    // it held without their data (the suspected cause of one failure in six CI runs).
    let upstream = visitors_upstream(Duration::from_millis(1600));
    let host = holding(
        &upstream,
        "0s",
        &["--render-queue", "1", "--render-timeout", "10s"],
    );
    status_page(&host, "warm");
    let pages: Vec<_> = (0..60)
        .map(|i| {
            let host = host.clone();
            std::thread::spawn(move || status_page(&host, &format!("q{i}")))
        })
        .collect();
    for (i, page) in pages.into_iter().enumerate() {
        let (html, first_byte, _) = page.join().unwrap();
        // What tells why, should a page come without its data: its end (the boot state, a
        // fallback's marks), not its head.
        let end = &html[html.floor_char_boundary(html.len().saturating_sub(2500))..];
        assert!(
            html.contains(&format!("<dd>q{i}</dd>")),
            "q{i} (client-rendered: {}, first byte {first_byte:?}): …{end}",
            support::is_client_rendered(&html)
        );
        assert!(
            first_byte < Duration::from_millis(800),
            "q{i}: {first_byte:?}"
        );
    }
}
