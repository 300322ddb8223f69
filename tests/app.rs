//! The app's own checks, run by `cargo test` so one command tests the whole product:
//! the TypeScript type check, the app's unit tests, and the browser tests that drive the
//! real binary in headless Chromium (`e2e/`).

use std::path::Path;
use std::process::Command;

/// The browser tests time a notification and the benchmark saturates the CPU: one at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn run(program: &str, args: &[&str], fix: &str) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
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

#[test]
fn browser_tests_pass_in_headless_chromium() {
    run(
        "node",
        &["--test", "--test-concurrency=1", "e2e/"],
        "needs Debian's chromium: apt-get install -y chromium",
    );
}

#[test]
fn benchmark_harness_runs_and_prints_its_table() {
    run(
        "node",
        &["bench/run.mjs", "--smoke", "--no-build"],
        "needs wrk: apt-get install -y wrk",
    );
}
