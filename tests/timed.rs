//! The browser tests that time what a person waits for (a saved change showing in the
//! open page within a second, a notification's 1.5 s), in a test binary of their own.
//! `cargo test` runs test binaries one after another, so these run when nothing else of
//! the suite does: in the integration binary they shared two cores with up to seven other
//! tests, some of which load the CPU on purpose, and a save then took over a second to
//! show in CI while it takes about 0.6 s on a quiet machine. This binary does not link the
//! host: it drives the built binary, as a developer's browser would.

use std::path::Path;
use std::process::Command;

mod timed_browser_tests;
use timed_browser_tests::TIMED_BROWSER_TESTS;

/// What the tests need of the machine, installed by the first that asks (shared with the
/// integration binary; this one asks for the browsers only).
#[allow(dead_code)]
#[path = "support/machine/mod.rs"]
mod machine;

#[path = "support/tap.rs"]
mod tap;

/// Every scenario of each file in each engine (`BILINGUE_ENGINES=firefox` runs one
/// alone), one file after the other. Side by side they took 42 s against 53, but a save
/// then showed in 0.56 to 0.77 s (median of five, each engine) on a quiet machine, and in
/// 1.0 s in CI: the other file's browsers started while the development loop rebuilt. One
/// after the other, 0.50 to 0.62 s, which is what a developer with one browser waits for.
#[test]
fn timed_browser_tests_pass_in_chromium_firefox_and_webkit() {
    machine::require(machine::BROWSERS);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("node")
        .args(["--test", "--test-concurrency=1"])
        .args(TIMED_BROWSER_TESTS)
        .current_dir(root)
        .env("BILINGUE_BIN", env!("CARGO_BIN_EXE_bilingue"))
        .output()
        .expect("cannot run node");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    tap::keep_report("timed-browser-tests", &stdout, &stderr);
    assert!(
        output.status.success(),
        "the timed browser tests failed (they need Debian's browsers: apt-get install -y \
         chromium firefox-esr webkit2gtk-driver xvfb xauth):\n{stdout}\n{}\nwhat failed, again:\n{}",
        stderr,
        tap::failed_tests(&stdout)
    );
}
