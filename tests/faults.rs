//! Faults inside the renderer, over real HTTP: a render that never ends, one that throws,
//! one that eats the heap, and a full queue. Each gets the client-rendered page, and the
//! render thread keeps serving.

mod support;

use std::time::{Duration, Instant};

use support::{client, header};

fn faulty_host(extra: &[&str]) -> String {
    let bundle = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/faulty-bundle.js"
    );
    let mut args = vec![
        "--server-bundle",
        bundle,
        "--render-threads",
        "1",
        "--render-heap-mb",
        "64",
    ];
    args.extend_from_slice(extra);
    if !extra.contains(&"--render-timeout") {
        args.extend_from_slice(&["--render-timeout", "300ms"]);
    }
    support::start(&args)
}

fn is_shell(html: &str, lang: &str) -> bool {
    html.contains(r#"<div id="app"></div>"#)
        && html.contains(&format!(r#"<html lang="{lang}">"#))
        && html.contains(r#"<script type="module""#)
}

/// A GET on one of this file's hosts.
fn fetch(host: &str, path: &str) -> reqwest::blocking::Response {
    client().get(format!("{host}{path}")).send().unwrap()
}

fn still_serves(host: &str) {
    let page = fetch(host, "/fr/").text().unwrap();
    assert!(
        page.contains("<p>rendered /</p>"),
        "the render thread still serves: {page}"
    );
}

#[test]
fn a_render_that_never_ends_is_stopped_and_the_page_is_client_rendered() {
    let host = faulty_host(&[]);
    let started = Instant::now();
    let response = fetch(&host, "/fr/loop");
    let elapsed = started.elapsed();
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-language"), "fr");
    assert_eq!(header(&response, "cache-control"), "no-store");
    let html = response.text().unwrap();
    assert!(is_shell(&html, "fr"), "{html}");
    assert!(
        html.contains("<title>Faulty fr</title>"),
        "the shell carries the language's title"
    );
    assert!(
        elapsed >= Duration::from_millis(300) && elapsed < Duration::from_secs(2),
        "{elapsed:?}"
    );
    still_serves(&host);
}

#[test]
fn a_render_that_throws_gets_the_client_rendered_page() {
    let host = faulty_host(&[]);
    let response = fetch(&host, "/en/throw");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-language"), "en");
    assert!(is_shell(&response.text().unwrap(), "en"));
    still_serves(&host);
}

#[test]
fn a_render_that_eats_the_heap_is_stopped_and_its_runtime_replaced() {
    // A time-out long enough that the heap limit, not the clock, stops this render.
    let host = faulty_host(&["--render-timeout", "20s"]);
    let response = fetch(&host, "/fr/alloc");
    assert_eq!(response.status(), 200);
    assert!(is_shell(&response.text().unwrap(), "fr"));
    still_serves(&host);
    let metrics = fetch(&host, "/metrics").text().unwrap();
    assert!(
        metrics.contains("bilingue_runtime_restarts_total 1"),
        "{metrics}"
    );
}

#[test]
fn a_full_render_queue_answers_the_client_rendered_page_at_once() {
    let host = faulty_host(&["--render-queue", "1"]);
    let busy: Vec<_> = (0..2)
        .map(|_| {
            let url = format!("{host}/fr/loop");
            let handle = std::thread::spawn(move || client().get(url).send().unwrap().status());
            std::thread::sleep(Duration::from_millis(60));
            handle
        })
        .collect();
    let started = Instant::now();
    let response = fetch(&host, "/fr/");
    assert!(
        started.elapsed() < Duration::from_millis(250),
        "answered without waiting: {:?}",
        started.elapsed()
    );
    assert!(is_shell(&response.text().unwrap(), "fr"));
    for handle in busy {
        assert_eq!(handle.join().unwrap(), 200);
    }
    still_serves(&host);
}
