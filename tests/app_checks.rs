//! The app's own checks, run by `cargo test` so one command tests the whole product:
//! the TypeScript type check, the app's unit tests, the browser tests that drive the
//! real binary in Chromium, Firefox and WebKit (`e2e/`), and short runs of the benchmark
//! and the soak.

use std::path::Path;
use std::process::Command;

#[path = "timed_browser_tests.rs"]
mod timed_browser_tests;
use timed_browser_tests::TIMED_BROWSER_TESTS;

/// The browser tests, the benchmark and the soak load the CPU: one at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs a check that loads the CPU for long, in its turn (see [`ONE_AT_A_TIME`]).
fn run_in_turn(program: &str, args: &[&str], fix: &str) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    run(program, args, fix);
}

/// Runs a check of one process that measures nothing (the type check, the unit tests):
/// beside the others, which would otherwise wait for it in a line that is the suite's
/// longest path.
fn run(program: &str, args: &[&str], fix: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(program)
        .args(args)
        .current_dir(root)
        .env("BILINGUE_BIN", env!("CARGO_BIN_EXE_bilingue"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e} ({fix})"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "`{program} {}` failed ({fix}):\n{stdout}\n{stderr}",
        args.join(" ")
    );
}

/// With no step first: the generated files (`app/contract.ts`,
/// `app/i18n/messages.generated.ts`) are committed, and tests fail when they drift.
#[test]
fn typescript_type_checks_in_strict_mode() {
    run(
        "node",
        &["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."],
        "run `npm ci` if node_modules is missing",
    );
}

#[test]
fn app_unit_tests_pass() {
    run("node", &["app/test/run.mjs"], "see the failing test above");
}

/// Every scenario in each engine (`BILINGUE_ENGINES=firefox` runs one alone), three files
/// at a time (each waits on its browsers more than it computes: 113 s for the suite alone
/// on 2 cores, 132 s two at a time, 110 s four at a time). The files that time what
/// a person waits for run in a test binary of their own, alone (tests/timed.rs).
#[test]
fn browser_tests_pass_in_chromium_firefox_and_webkit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root.join("e2e"))
        .expect("the e2e folder")
        .map(|entry| format!("e2e/{}", entry.unwrap().file_name().to_string_lossy()))
        .filter(|file| file.ends_with(".test.mjs") && !TIMED_BROWSER_TESTS.contains(&file.as_str()))
        .collect();
    files.sort();
    let mut args = vec!["--test", "--test-concurrency=3"];
    args.extend(files.iter().map(String::as_str));
    run_in_turn(
        "node",
        &args,
        "needs Debian's browsers: apt-get install -y chromium firefox-esr webkit2gtk-driver xvfb xauth",
    );
}

#[test]
fn benchmark_harness_runs_and_prints_its_table() {
    run_in_turn(
        "node",
        &["bench/run.mjs", "--smoke", "--no-build"],
        "needs wrk: apt-get install -y wrk",
    );
}

/// A short soak: wrk at saturation with no failed request and flat memory, then SIGTERM
/// under load with no request lost and exit code 0 (`node bench/soak.mjs` is the long one).
#[test]
fn soak_at_saturation_then_sigterm_loses_nothing() {
    run_in_turn(
        "node",
        &["bench/soak.mjs", "--smoke"],
        "needs wrk: apt-get install -y wrk; the report above names the failed check",
    );
}
