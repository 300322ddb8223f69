//! Faults inside the renderer, over real HTTP: a render that never ends, one that throws,
//! one that eats the heap, and a full queue. Each gets the client-rendered page, and the
//! render thread keeps serving.

use std::time::{Duration, Instant};

use crate::support;
use crate::support::binary::Host;
use crate::support::{client, header};

/// The faulty bundle on one thread with a small heap, stopped after 300 ms unless told.
fn faulty_host(extra: &[&str]) -> Host {
    let mut args = vec!["--render-heap-mb", "64"];
    args.extend_from_slice(extra);
    if !extra.contains(&"--render-timeout") {
        args.extend_from_slice(&["--render-timeout", "300ms"]);
    }
    support::faulty_host(&args)
}

fn is_shell(html: &str, lang: &str) -> bool {
    support::is_client_rendered(html)
        && html.contains(&format!(r#"<html lang="{lang}">"#))
        && !crate::support::module_scripts(html).is_empty()
}

/// A GET on one of this file's hosts.
fn fetch(host: &Host, path: &str) -> reqwest::blocking::Response {
    client().get(host.url(path)).send().unwrap()
}

fn still_serves(host: &Host) {
    let page = fetch(host, "/fr/").text().unwrap();
    assert!(
        page.contains("<p>rendered /</p>"),
        "the render thread still serves: {page}"
    );
}

#[test]
fn a_render_that_never_ends_is_stopped_and_the_page_is_client_rendered() {
    never_ends_is_stopped("/fr/loop");
}

/// A render blocked in `Atomics.wait` uses no CPU, and the time-out stops it as it stops a
/// loop. The tests below hold the render thread this way: a loop held it as well, but
/// burned a core for as long, beside the suite's other tests.
#[test]
fn a_render_that_blocks_forever_is_stopped_and_the_page_is_client_rendered() {
    never_ends_is_stopped("/fr/wait");
}

fn never_ends_is_stopped(path: &str) {
    let host = faulty_host(&[]);
    let started = Instant::now();
    let response = fetch(&host, path);
    let elapsed = started.elapsed();
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-language"), "fr");
    assert_eq!(header(&response, "cache-control"), "no-store");
    let html = response.text().unwrap();
    assert!(is_shell(&html, "fr"), "{html}");
    // The home page's title in the page's language, as the build's manifest has it.
    assert!(
        html.contains("<title>Accueil · Bilingue</title>"),
        "the shell carries the language's title: {html}"
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
    assert_eq!(host.metric("bilingue_runtime_restarts_total"), 1.0);
}

#[test]
fn a_full_render_queue_answers_the_client_rendered_page_at_once() {
    // Renders held 10 s: a page that waited behind them would take that long, far beyond
    // what a loaded 2-core CI adds to one answered at once (386 ms seen against 250), and
    // the queue stays full for as long, however slowly a loaded machine shows it (the
    // suite's benchmark smoke may saturate both cores meanwhile: 4 s loops and a 2 s look
    // once left the queue unseen).
    let host = faulty_host(&["--render-queue", "1", "--render-timeout", "10s"]);
    // Different pages: the same one would be rendered once for both.
    let a_loop = |i: usize| {
        let url = host.url(&format!("/fr/wait-{i}"));
        std::thread::spawn(move || client().get(url).send().unwrap().status())
    };
    let mut busy = vec![a_loop(0)];
    // The queue (of one) is full once a loop runs and another waits for 300 ms. A loop that
    // came while the one before it still waited was turned away (CI, under load, once took
    // more than the 60 ms this test gave): another is sent.
    for i in 1.. {
        assert!(i <= 5, "no loop stayed queued behind the running one");
        std::thread::sleep(Duration::from_millis(60));
        let queued = a_loop(i);
        let mut held_since: Option<Instant> = None;
        let deadline = Instant::now() + Duration::from_secs(8);
        let full = loop {
            if queued.is_finished() {
                break false;
            }
            if host.metric("bilingue_render_queue_depth") == 1.0 {
                if held_since.get_or_insert_with(Instant::now).elapsed()
                    >= Duration::from_millis(300)
                {
                    break true;
                }
            } else {
                held_since = None;
            }
            assert!(
                Instant::now() < deadline,
                "the render queue never held one loop"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        busy.push(queued);
        if full {
            break;
        }
    }
    let started = Instant::now();
    let response = fetch(&host, "/fr/");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "answered without waiting: {:?}",
        started.elapsed()
    );
    assert!(is_shell(&response.text().unwrap(), "fr"));
    for handle in busy {
        assert_eq!(handle.join().unwrap(), 200);
    }
    still_serves(&host);
}

#[test]
fn a_status_outside_200_to_599_never_reaches_the_client() {
    let host = faulty_host(&[]);
    for path in [
        "/fr/status-999",
        "/fr/status-150",
        "/fr/status-0",
        "/fr/status-204",
        "/fr/status-205",
        "/fr/status-304",
    ] {
        let response = fetch(&host, path);
        assert_eq!(response.status(), 200, "{path}");
        assert!(is_shell(&response.text().unwrap(), "fr"), "{path}");
    }
    assert_eq!(
        fetch(&host, "/fr/status-503").status(),
        503,
        "a real status passes"
    );
    still_serves(&host);
}

#[test]
fn renders_whose_client_has_gone_are_skipped_while_queued() {
    for attempt in 1..=3 {
        match visitors_leave_while_a_loop_holds_the_thread() {
            Ok(()) => return,
            Err(busy_took) => eprintln!(
                "attempt {attempt}: the loop's request reached the host after a visitor's (it \
                 took {busy_took:?}, behind that visitor's loop); again, on a fresh host"
            ),
        }
    }
    panic!("three times, the loop's request reached the host after a visitor's");
}

/// One loop holds the only render thread while five visitors ask for pages and leave; `Err`
/// (how long the loop's request took) when a visitor's request reached the host first and
/// its page held the thread instead, which a loaded machine's scheduling can do: the loop's
/// request is sent first, but from another thread, and nothing the host says tells when it
/// has read it.
fn visitors_leave_while_a_loop_holds_the_thread() -> Result<(), Duration> {
    use std::io::Write;
    // Long enough for the five below to queue and leave while the loop holds the thread,
    // however loaded the machine (at 500 ms, then 2 s, under CI's browsers the fifth once
    // came after the loop was stopped, and its page ran).
    let host = faulty_host(&["--render-timeout", "5s"]);
    let address = host.address();
    let url = host.url("/fr/wait");
    let busy_since = Instant::now();
    let busy = std::thread::spawn(move || client().get(url).send().unwrap().status());
    std::thread::sleep(Duration::from_millis(100));
    // Five visitors ask for a slow page and leave while it waits for the thread: each
    // leaves once its render is queued (on a loaded machine, a request dropped before the
    // host read it never reaches the queue at all).
    for i in 0..5 {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        stream
            .write_all(format!("GET /fr/wait-{i} HTTP/1.1\r\nhost: x\r\n\r\n").as_bytes())
            .unwrap();
        let queued = Instant::now();
        while host.metric("bilingue_render_queue_depth") < f64::from(i + 1) {
            assert!(
                queued.elapsed() < Duration::from_secs(5),
                "visitor {i} never queued"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        drop(stream);
    }
    let all_left = busy_since.elapsed();
    assert_eq!(busy.join().unwrap(), 200);
    let busy_took = busy_since.elapsed();
    // The loop stops at 5 s; behind another page's loop, at 10.
    if busy_took > Duration::from_secs(8) {
        return Err(busy_took);
    }
    let started = Instant::now();
    still_serves(&host);
    let served_after = started.elapsed();
    // Each of their pages loops until the 5 s time-out: had one run, this page would wait
    // for it. Under a loaded machine's scheduling a page may take a few hundred ms.
    assert!(
        served_after < Duration::from_millis(1_500),
        "no render ran for those who left: {served_after:?}"
    );
    // The page above may be taken before the last of them is dropped (a thread picks at
    // random among its ready queues): each is counted once it is dropped.
    let counting = Instant::now();
    while host.metric("bilingue_renders_abandoned_total") < 5.0
        && counting.elapsed() < Duration::from_secs(2)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        host.metric("bilingue_renders_abandoned_total"),
        5.0,
        "the five had queued and left {all_left:?} into the loop's 5 s; the page after took {served_after:?}; the host's log:\n{}",
        host.logs()
    );
    Ok(())
}
