//! A panic in a handler or in an answer's body, on the real binary (a debug build, whose
//! test-only trigger `BILINGUE_TEST_PANICS=1` makes one on demand): the visitor gets a
//! 500 page or JSON with the security headers, the panic is logged and counted, the
//! connection count stays right, and a drain after it ends at once.

use std::time::{Duration, Instant};

use crate::support::binary::Host;
use crate::support::{client, header};

#[test]
fn a_panic_answers_500_is_logged_and_counted_and_a_drain_after_it_ends_at_once() {
    let host = Host::start_with(&[], &[("BILINGUE_TEST_PANICS", "1")]);
    host.wait_ready(Duration::from_secs(60));
    let client = client();
    let panicking = |path: &str, how: &str| {
        client
            .get(host.url(path))
            .header("x-test-panic", how)
            .send()
            .unwrap_or_else(|e| panic!("{e}; logs:\n{}", host.logs()))
    };

    let page = panicking("/fr/", "handler");
    assert_eq!(page.status(), 500);
    assert_eq!(header(&page, "content-type"), "text/html; charset=utf-8");
    assert_eq!(header(&page, "cache-control"), "no-store");
    assert!(header(&page, "content-security-policy").contains("default-src 'self'"));
    assert_eq!(header(&page, "x-content-type-options"), "nosniff");
    // In the path's language, from the app's tables; the default one without a prefix.
    let html = page.text().unwrap();
    assert!(
        html.contains(r#"<html lang="fr">"#) && html.contains("<h1>Erreur du serveur</h1>"),
        "{html}"
    );
    let english = crate::support::app_page("en", "status", &[]);
    for (path, lang, title) in [
        (english.as_str(), "en", "Server error"),
        ("/nowhere", "fr", "Erreur du serveur"),
    ] {
        let html = panicking(path, "handler").text().unwrap();
        assert!(
            html.contains(&format!("<html lang=\"{lang}\">")),
            "{path}: {html}"
        );
        assert!(
            html.contains(&format!("<h1>{title}</h1>")),
            "{path}: {html}"
        );
    }

    let api = panicking("/api/status", "handler");
    assert_eq!(api.status(), 500);
    assert_eq!(header(&api, "content-type"), "application/json");
    let json: serde_json::Value = api.json().unwrap();
    assert_eq!(json["error"], "internal server error");

    // An answer whose body panics is cut (before or after its head left), and only it.
    let cut = client
        .get(host.url("/fr/"))
        .header("x-test-panic", "body")
        .send();
    assert!(
        cut.and_then(|answer| answer.bytes()).is_err(),
        "the answer is cut, not finished"
    );
    assert_eq!(client.get(host.url("/fr/")).send().unwrap().status(), 200);

    assert_eq!(host.metric("bilingue_panics_total"), 5.0);
    let logs = host.logs_holding(&[
        "x-test-panic: handler",
        "answered 500",
        "the answer was cut",
    ]);
    assert!(logs.contains("x-test-panic: handler"), "{logs}");
    assert!(logs.contains("answered 500"), "{logs}");
    assert!(logs.contains("the answer was cut"), "{logs}");

    // Every connection closed is counted closed: the drain has nothing to wait for.
    drop(client);
    let started = Instant::now();
    while host.metric("bilingue_open_connections") > 0.0 {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "connections still counted open: {}",
            host.metric("bilingue_open_connections")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    host.terminate();
    let (took, _) = host.wait_exit(Duration::from_secs(30));
    assert!(
        took < Duration::from_secs(2),
        "the drain (deadline 20s) ended at once: {took:?}"
    );
}

#[test]
fn without_the_switch_the_trigger_is_an_ordinary_header() {
    let host = Host::started(&[]);
    let page = client()
        .get(host.url("/fr/"))
        .header("x-test-panic", "handler")
        .send()
        .unwrap();
    assert_eq!(page.status(), 200);
}

/// What `/readyz` says, and when.
fn readyz(host: &Host) -> String {
    client()
        .get(host.url("/readyz"))
        .send()
        .and_then(|answer| answer.text())
        .unwrap_or_default()
}

#[test]
fn a_render_thread_that_panics_is_seen_logged_once_and_started_again() {
    let host = Host::start_with(&["--render-threads", "2"], &[("BILINGUE_TEST_PANICS", "1")]);
    host.wait_ready(Duration::from_secs(60));
    assert_eq!(readyz(&host).trim(), "2/2 render threads ready");
    let client = client();
    // More than there are threads: each dies once at least, none stays dead.
    for round in 1..=3 {
        let page = client
            .get(host.url("/fr/x-test-panic-render-thread"))
            .send()
            .unwrap_or_else(|e| panic!("{e}; logs:\n{}", host.logs()));
        assert_eq!(page.status(), 404, "the client-rendered page, for no route");
        assert_eq!(header(&page, "cache-control"), "no-store");
        // Counted as the thread unwinds, which may end after the page was answered.
        let started = Instant::now();
        while host.metric("bilingue_render_thread_panics_total") < f64::from(round) {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "panic {round} not counted"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(
            host.metric("bilingue_render_thread_panics_total"),
            f64::from(round)
        );
        assert_eq!(host.metric("bilingue_panics_total"), f64::from(round));
        let started = Instant::now();
        while readyz(&host).trim() != "2/2 render threads ready" {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the thread was not started again: {}; logs:\n{}",
                readyz(&host),
                host.logs()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(host.metric("bilingue_render_threads_ready"), 2.0);
        let pages = [
            crate::support::app_page("fr", "home", &[]),
            crate::support::app_page("en", "status", &[]),
            crate::support::app_page("en", "languages", &[("code", "fr")]),
        ];
        for path in &pages {
            let page = client.get(host.url(path)).send().unwrap();
            assert_eq!(page.status(), 200, "{path} after panic {round}");
            assert!(
                !crate::support::is_client_rendered(&page.text().unwrap()),
                "{path} rendered"
            );
        }
    }
    let logs = host.logs_holding(&["it starts again"]);
    assert_eq!(
        logs.matches("x-test-panic: render thread").count(),
        3,
        "one record per panic:\n{logs}"
    );
    assert!(logs.contains("it starts again"), "{logs}");
    assert!(logs.contains("render-"), "the thread is named: {logs}");
}

#[test]
fn a_caught_panic_is_logged_once() {
    let host = Host::start_with(&[], &[("BILINGUE_TEST_PANICS", "1")]);
    host.wait_ready(Duration::from_secs(60));
    let page = client()
        .get(host.url("/fr/"))
        .header("x-test-panic", "handler")
        .send()
        .unwrap();
    assert_eq!(page.status(), 500);
    let logs = host.logs_holding(&["x-test-panic: handler"]);
    assert_eq!(logs.matches("x-test-panic: handler").count(), 1, "{logs}");
    assert!(
        logs.contains("tests/") || logs.contains("host/server/panics.rs"),
        "where: {logs}"
    );
}
