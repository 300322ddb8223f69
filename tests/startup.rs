//! Start-up on the real binary: the warm-up is bound by its own deadline, not by
//! `--render-timeout`, so a busy machine does not crash-loop the service; readiness is
//! false until it ends; a bundle that cannot render still stops start-up with its message;
//! a signal at any moment of start-up drains and exits 0; the V8 heap limit holds; a build
//! folder made for another version of the host is refused by name.

use std::time::{Duration, Instant};

use crate::support::binary::Host;
use crate::support::{self, client, metric};

#[test]
fn a_render_time_out_shorter_than_the_warm_up_does_not_stop_start_up() {
    let host = Host::started(&["--render-threads", "4", "--render-timeout", "1ms"]);
    let page = client().get(host.url("/fr/")).send().unwrap();
    assert_eq!(page.status(), 200, "a page is still answered");
}

#[test]
fn readiness_is_false_until_the_warm_up_ends() {
    let host = Host::start(&[
        "--server-bundle",
        &support::fixture("slow-start-bundle.js"),
        "--render-threads",
        "2",
        "--render-timeout",
        "300ms",
    ]);
    let started = Instant::now();
    let http = client();
    assert_eq!(http.get(host.url("/healthz")).send().unwrap().status(), 200);
    let ready = http.get(host.url("/readyz")).send().unwrap();
    assert_eq!(ready.status(), 503, "still warming");
    let took = host.wait_ready(Duration::from_secs(20)) + started.elapsed();
    assert!(took >= Duration::from_millis(1000), "{took:?}");
    let page = http.get(host.url("/fr/")).send().unwrap().text().unwrap();
    assert!(page.contains("<p>warmed /</p>"), "{page}");
}

#[test]
fn a_bundle_that_cannot_render_still_stops_start_up_with_its_message() {
    let exit = Host::run(
        &["--server-bundle", &support::fixture("broken-bundle.js")],
        Duration::from_secs(20),
    );
    assert_eq!(exit.status.code(), Some(1), "{}", exit.logs);
    assert!(
        exit.logs
            .contains("this bundle cannot render: broken on purpose"),
        "{}",
        exit.logs
    );
}

#[test]
fn sigterm_during_the_warm_up_exits_zero() {
    let host = Host::start(&["--server-bundle", &support::fixture("slow-start-bundle.js")]);
    host.terminate();
    let exit = host.wait_exit_status(Duration::from_secs(10));
    assert!(exit.status.success(), "{}; {}", exit.status, exit.logs);
}

#[test]
fn sigterm_right_after_start_up_always_drains_and_exits_zero() {
    for attempt in 0..10 {
        let host = Host::start(&[]);
        host.terminate();
        let exit = host.wait_exit_status(Duration::from_secs(10));
        assert!(
            exit.status.success(),
            "attempt {attempt}: {}; logs:\n{}",
            exit.status,
            exit.logs
        );
    }
}

#[test]
fn sighup_drains_like_sigterm() {
    let host = Host::started(&[
        "--server-bundle",
        &support::fixture("faulty-bundle.js"),
        "--render-timeout",
        "1500ms",
    ]);
    let url = host.url("/fr/wait");
    let in_flight = std::thread::spawn(move || client().get(url).send());
    std::thread::sleep(Duration::from_millis(300));
    host.signal("HUP");
    let (_, logs) = host.wait_exit(Duration::from_secs(10));
    let answer = in_flight.join().unwrap().expect("answered, not cut");
    assert_eq!(answer.status(), 200);
    assert!(logs.contains("drained"), "{logs}");
}

#[test]
fn the_heap_limit_holds_and_the_runtime_is_replaced() {
    // A time-out long enough that only the heap limit can stop this render.
    let host = Host::started(&[
        "--server-bundle",
        &support::fixture("faulty-bundle.js"),
        "--render-heap-mb",
        "64",
        "--render-timeout",
        "20s",
    ]);
    let idle = host.peak_rss_mib();
    let started = Instant::now();
    let answer = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
        .get(host.url("/fr/alloc"))
        .send()
        .expect("answered");
    let took = started.elapsed();
    assert_eq!(answer.status(), 200);
    assert!(
        answer.text().unwrap().contains(r#"<div id="app"></div>"#),
        "the client-rendered page"
    );
    assert!(
        took < Duration::from_secs(10),
        "stopped by the limit: {took:?}"
    );
    let peak = host.peak_rss_mib();
    eprintln!(
        "peak RSS: {idle:.0} MiB warmed, {peak:.0} MiB after the render that filled its heap"
    );
    assert!(peak < 400.0, "peak RSS {peak:.0} MiB with a 64 MiB heap");
    // The thread answers first, then replaces its runtime.
    let replaced = Instant::now();
    while metric(&host.base, "bilingue_runtime_restarts_total") < 1.0 {
        assert!(
            replaced.elapsed() < Duration::from_secs(10),
            "no restart counted"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let page = support::text(host.url("/fr/"));
    assert!(page.contains("<p>rendered /</p>"), "still serves: {page}");
}

#[test]
fn array_buffer_memory_has_a_budget_and_webassembly_is_not_there() {
    let host = Host::started(&[
        "--server-bundle",
        &support::fixture("faulty-bundle.js"),
        "--render-heap-mb",
        "64",
        "--render-timeout",
        "5s",
    ]);
    for attempt in 0..4 {
        let started = Instant::now();
        let answer = client().get(host.url("/fr/xab")).send().expect("answered");
        assert_eq!(answer.status(), 200, "attempt {attempt}");
        assert!(
            answer.text().unwrap().contains(r#"<div id="app"></div>"#),
            "the client-rendered page"
        );
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
    }
    let peak = host.peak_rss_mib();
    eprintln!("peak RSS after four renders that fill their ArrayBuffer budget: {peak:.0} MiB");
    assert!(peak < 400.0, "peak RSS {peak:.0} MiB with a 64 MiB budget");
    let wasm = support::text(host.url("/fr/wasm"));
    assert!(wasm.contains("<p>WebAssembly: undefined</p>"), "{wasm}");
}

#[test]
fn every_thread_runs_under_batch_scheduling_unless_it_is_turned_off() {
    const SCHED_OTHER: u32 = 0;
    const SCHED_BATCH: u32 = 3;
    let batch = Host::started(&["--render-threads", "2"]);
    let threads = batch.thread_policies();
    let names: Vec<&str> = threads.iter().map(|(name, _)| name.as_str()).collect();
    for wanted in ["render-0", "render-1", "tokio-rt-worker"] {
        assert!(names.contains(&wanted), "no {wanted} among {names:?}");
    }
    assert!(
        threads.iter().all(|(_, policy)| *policy == SCHED_BATCH),
        "{threads:?}"
    );
    drop(batch);
    let other = Host::started(&["--render-threads", "2", "--batch-scheduling", "off"]);
    let threads = other.thread_policies();
    assert!(
        threads.iter().all(|(_, policy)| *policy == SCHED_OTHER),
        "{threads:?}"
    );
}

#[test]
fn a_build_folder_made_for_another_host_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("bilingue-other-host-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (manifest, made_for) in [
        (
            r#"{"contract":"0123456789abcdef","entry":"x.js"}"#,
            "contract 0123456789abcdef",
        ),
        // A build from before the stamp: its bundle calls what this host may not have.
        (r#"{"entry":"x.js"}"#, "no contract stamp"),
    ] {
        std::fs::write(dir.join("manifest.json"), manifest).unwrap();
        let exit = Host::run(
            &["--app-build", dir.to_str().unwrap()],
            Duration::from_secs(20),
        );
        assert_eq!(exit.status.code(), Some(1), "{}", exit.logs);
        for said in [
            made_for,
            "build it again with this version's `node app/build.mjs",
        ] {
            assert!(exit.logs.contains(said), "{said}: {}", exit.logs);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
