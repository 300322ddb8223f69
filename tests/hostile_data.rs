//! Data built to break the renderer, from an API or from a bundle: whatever one page's
//! data does, that page fails alone (or shows its translated error), every other page keeps
//! rendering, and a runtime whose state can no longer be trusted is replaced and counted.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use axum::http::{HeaderMap, header};
use axum::routing::get;

use crate::support::upstream::{Upstream, json, status_json};
use crate::support::{self, client, metric};

const FRENCH_HOME: &str = "<h1>Bienvenue sur Bilingue</h1>";
const FRENCH_UNAVAILABLE: &str = "L’état du serveur n’a pas pu être obtenu.";

/// The binary behind `upstream`, with this many render threads and no page cache: every
/// page is rendered, its loader calling the upstream.
fn host_behind(upstream: &Upstream, render_threads: &str) -> String {
    host_behind_with(upstream, render_threads, &[])
}

/// The same, with more options: the tests of what a hostile answer costs give its page
/// time enough to load on a loaded machine (`--load-timeout`, `--render-timeout`).
fn host_behind_with(upstream: &Upstream, render_threads: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "--render-threads",
        render_threads,
        "--api-upstream",
        &upstream.url,
        "--page-cache-entries",
        "0",
    ];
    args.extend_from_slice(extra);
    support::start(&args)
}

/// `{"version":…,"extra":[[[…]]]}`: a valid status with a field nested `depth` deep.
fn deeply_nested_status(depth: usize) -> String {
    format!(
        r#"{{"version":"1.0.0","languages":["fr","en"],"serverTime":"2030-01-02T03:04:05.000Z","extra":{}1{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

#[test]
fn an_answer_nested_100_000_deep_fails_no_other_page_and_every_thread_keeps_rendering() {
    let upstream = Upstream::builder()
        .route(
            "/api/status",
            get(|| async { json(deeply_nested_status(100_000)) }),
        )
        .start();
    // What is checked is that the answer breaks nothing, not how fast it is read: a loaded
    // machine once took past the default 3 s for the status's data (CI), and the page came
    // without it.
    let host = host_behind_with(
        &upstream,
        "2",
        &["--load-timeout", "30s", "--render-timeout", "10s"],
    );
    for _ in 0..8 {
        let html = support::text(format!(
            "{host}{}",
            crate::support::app_page("fr", "status", &[])
        ));
        // The screen keeps only what it shows: the page is rendered by the server.
        assert!(
            html.contains("<dd>1.0.0</dd>") && !support::is_client_rendered(&html),
            "{html:.2000}"
        );
    }
    for _ in 0..20 {
        let html = support::text(format!("{host}/fr/"));
        assert!(
            html.contains(FRENCH_HOME) && !support::is_client_rendered(&html),
            "every later page is rendered on the server: {html:.2000}"
        );
    }
}

#[test]
fn one_visitors_lone_surrogate_fails_no_page_loading_beside_it() {
    const VISITORS: usize = 12;
    // Every answer waits until every page is loading, so that they come back together.
    let barrier = Arc::new(Barrier::new(VISITORS));
    let upstream = Upstream::builder()
        .route(
            "/api/status",
            get(move |headers: HeaderMap| {
                let barrier = barrier.clone();
                async move {
                    tokio::task::spawn_blocking(move || barrier.wait())
                        .await
                        .unwrap();
                    let version = if headers.contains_key(header::AUTHORIZATION) {
                        r#"a\ud800b"#
                    } else {
                        "9.9.9"
                    };
                    json(status_json(version))
                }
            }),
        )
        .start();
    let host = host_behind(&upstream, "1");
    let pages: Vec<_> = (0..VISITORS)
        .map(|i| {
            let url = format!("{host}{}", crate::support::app_page("fr", "status", &[]));
            std::thread::spawn(move || {
                let mut request = client().get(url);
                if i == 0 {
                    request = request.header("authorization", "Bearer mallory");
                }
                request.send().unwrap().text().unwrap()
            })
        })
        .collect();
    let pages: Vec<String> = pages.into_iter().map(|p| p.join().unwrap()).collect();
    assert!(
        pages[0].contains("<dd>a\u{FFFD}b</dd>"),
        "the surrogate's own page renders, the lone half replaced: {:.3000}",
        pages[0]
    );
    for page in &pages[1..] {
        assert!(
            page.contains("<dd>9.9.9</dd>"),
            "a page loading beside it is rendered with its data: {page:.3000}"
        );
    }
}

#[test]
fn data_the_status_screen_cannot_use_shows_its_translated_message() {
    let answers = Arc::new(AtomicUsize::new(0));
    let upstream = Upstream::builder()
        .route(
            "/api/status",
            get(move || {
                let n = answers.fetch_add(1, Ordering::SeqCst);
                let body = [
                    r#"{"unexpected":true}"#,
                    "[]",
                    r#""text""#,
                    "null",
                    r#"{"version":1,"languages":"fr","serverTime":"yesterday"}"#,
                    r#"{"version":"1","languages":[1,2],"serverTime":"2030-01-02T03:04:05.000Z"}"#,
                ][n % 6];
                async move { json(body.to_string()) }
            }),
        )
        .start();
    let host = host_behind(&upstream, "1");
    for _ in 0..6 {
        let html = support::text(format!(
            "{host}{}",
            crate::support::app_page("fr", "status", &[])
        ));
        assert!(
            html.contains(FRENCH_UNAVAILABLE) && !support::is_client_rendered(&html),
            "{html:.3000}"
        );
    }
}

#[test]
fn an_exception_in_the_exchange_itself_replaces_the_runtime_and_is_counted() {
    let host = support::faulty_host(&[]);
    // From this call on, every call into the bundle throws: its exchange is broken.
    let poisoned = client().get(host.url("/fr/poison")).send().unwrap();
    assert_eq!(poisoned.status(), 200);
    assert!(support::is_client_rendered(&poisoned.text().unwrap()));
    let started = std::time::Instant::now();
    while metric(&host.base, "bilingue_runtime_restarts_total") < 1.0 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the broken runtime was not replaced"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    for _ in 0..5 {
        let page = support::text(host.url("/fr/"));
        assert!(page.contains("<p>rendered /</p>"), "serves again: {page}");
    }
    assert_eq!(metric(&host.base, "bilingue_runtime_restarts_total"), 1.0);
}

#[test]
fn a_page_whose_own_render_throws_fails_alone_without_a_restart() {
    let host = support::faulty_host(&[]);
    for _ in 0..3 {
        let thrown = client().get(host.url("/en/throw")).send().unwrap();
        assert!(support::is_client_rendered(&thrown.text().unwrap()));
    }
    let page = support::text(host.url("/fr/"));
    assert!(page.contains("<p>rendered /</p>"), "{page}");
    assert_eq!(metric(&host.base, "bilingue_render_failures_total"), 3.0);
    assert_eq!(metric(&host.base, "bilingue_runtime_restarts_total"), 0.0);
}

#[test]
fn other_visitors_large_answers_fail_no_page_beside_them() {
    // Sixteen visitors whose answers are 3 MB each, all at once, beside twenty whose
    // answers are small, on one render thread with the default heap.
    // Shown on the page: each is in the markup, the boot state and the outbox too.
    let big = status_json(&"x".repeat(3_000_000));
    let upstream = Upstream::builder()
        .route(
            "/api/status",
            get(move |headers: HeaderMap| {
                let big = big.clone();
                async move {
                    if headers.contains_key(header::AUTHORIZATION) {
                        tokio::time::sleep(Duration::from_millis(400)).await;
                        json(big)
                    } else {
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        json(status_json("9.9.9"))
                    }
                }
            }),
        )
        .start();
    // What is tested is the heap they share, not time: a debug build under CI's load can
    // take more than the default 3 s + 1 s to render sixteen pages of 3 MB on one thread.
    let host = host_behind_with(
        &upstream,
        "1",
        &["--load-timeout", "30s", "--render-timeout", "30s"],
    );
    let pages: Vec<_> = (0..36)
        .map(|i| {
            let url = format!("{host}{}", crate::support::app_page("fr", "status", &[]));
            std::thread::spawn(move || {
                let mut request = client().get(url);
                if i < 16 {
                    request = request.header("authorization", "Bearer big");
                }
                (i, request.send().unwrap().text().unwrap())
            })
        })
        .collect();
    for page in pages {
        let (i, html) = page.join().unwrap();
        if i >= 16 {
            // The page's body, where what it shows instead of the data is.
            let body = &html[html.find("<div id=\"app\">").unwrap_or(0)..];
            assert!(html.contains("<dd>9.9.9</dd>"), "visitor {i}: {body:.3000}");
        }
    }
    assert_eq!(metric(&host, "bilingue_runtime_restarts_total"), 0.0);
}

/// Answers up to the loaders' 4 MiB cap, of the shapes that cost V8 most to parse and to
/// show, each handed to a runtime with the lowest heap allowed.
fn costly_answers() -> Vec<(&'static str, String)> {
    let cap = 4 << 20;
    let keys: String = (0..)
        .map(|i| format!("\"k{i}\":{i},"))
        .take_while({
            let mut len = 0;
            move |pair: &String| {
                len += pair.len();
                len < cap - 2
            }
        })
        .collect();
    vec![
        // 4,194,298 bytes: the answer that ended the process.
        (
            "empty objects",
            format!("[{}{{}}]", "{},".repeat(1_398_098)),
        ),
        ("numbers", format!("[{}1]", "1,".repeat(cap / 2 - 2))),
        ("keys", format!("{{{}\"end\":0}}", keys)),
        (
            "nesting",
            format!("{}{}", "[".repeat(cap / 2), "]".repeat(cap / 2)),
        ),
        ("a long version", status_json(&"x".repeat(cap - 100))),
        (
            "a long two-byte version",
            status_json(&"é".repeat(cap / 2 - 100)),
        ),
        ("control characters", "\u{1}".repeat(cap)),
        ("quotes", format!("[\"{}\"]", "\\\"".repeat(cap / 2 - 4))),
        // Within half the heap, by the host's reckoning: shown on the page.
        (
            "a version just allowed",
            status_json(&"x".repeat(1_900_000)),
        ),
        (
            "strings just allowed",
            format!("[{}\"ab\"]", "\"ab\",".repeat(200_000)),
        ),
        (
            "nesting just allowed",
            format!("{}{}", "[".repeat(45_000), "]".repeat(45_000)),
        ),
    ]
}

#[test]
fn no_answer_within_the_caps_ends_the_process_at_the_lowest_heap() {
    let answers = costly_answers();
    for (what, body) in &answers {
        assert!(body.len() <= 4 << 20, "{what}: {} bytes", body.len());
    }
    let served = Arc::new(AtomicUsize::new(0));
    let bodies: Arc<Vec<String>> = Arc::new(answers.iter().map(|(_, b)| b.clone()).collect());
    let upstream = Upstream::builder()
        .route(
            "/api/status",
            get({
                let served = served.clone();
                move || {
                    let body = bodies[served.load(Ordering::SeqCst)].clone();
                    async move { json(body) }
                }
            }),
        )
        .start();
    let host = crate::support::binary::Host::started(&[
        "--render-heap-mb",
        "16",
        "--api-upstream",
        &upstream.url,
        "--page-cache-entries",
        "0",
    ]);
    for (i, (what, _)) in answers.iter().enumerate() {
        served.store(i, Ordering::SeqCst);
        let page = client()
            .get(host.url(&crate::support::app_page("fr", "status", &[])))
            .send()
            .unwrap_or_else(|e| panic!("{what}: {e}; logs:\n{}", host.logs()));
        assert_eq!(page.status(), 200, "{what}");
        let home = client()
            .get(host.url("/fr/"))
            .send()
            .and_then(|answer| answer.text())
            .unwrap_or_else(|e| {
                panic!(
                    "after {what}, the host is gone: {e}; logs:\n{}",
                    host.logs()
                )
            });
        assert!(home.contains(FRENCH_HOME), "after {what}: {home:.1500}");
    }
    let logs = host.logs();
    assert!(logs.contains("a loader's answer was refused"), "{logs}");
    assert_eq!(host.metric("bilingue_panics_total"), 0.0);
}

/// A loader's answer over the 4 MiB the host reads fails that call alone: its page shows
/// the translated error, and a page beside it has its data.
#[test]
fn an_answer_over_four_mib_fails_its_call_alone() {
    let big = status_json(&"y".repeat(5 << 20));
    let upstream = Upstream::builder()
        .route(
            "/api/status",
            get(move |headers: HeaderMap| {
                let big = big.clone();
                async move {
                    match headers.contains_key(header::AUTHORIZATION) {
                        true => json(big),
                        false => json(status_json("9.9.9")),
                    }
                }
            }),
        )
        .start();
    let host = host_behind(&upstream, "1");
    let url = format!("{host}{}", crate::support::app_page("fr", "status", &[]));
    let refused = client()
        .get(&url)
        .header("authorization", "Bearer big")
        .send()
        .unwrap();
    assert_eq!(refused.status(), 200);
    let html = refused.text().unwrap();
    assert!(html.contains(FRENCH_UNAVAILABLE), "{html:.1500}");
    assert!(
        !html.contains("yyyy"),
        "none of the answer reaches the page"
    );
    let beside = client().get(&url).send().unwrap().text().unwrap();
    assert!(beside.contains("<dd>9.9.9</dd>"), "{beside:.1500}");
    assert_eq!(metric(&host, "bilingue_runtime_restarts_total"), 0.0);
}
