//! The app's own checks, run by `cargo test` so one command tests the whole product:
//! the TypeScript type check, the app's unit tests, the browser tests that drive the
//! real binary in Chromium, Firefox and WebKit (`e2e/`), and short runs of the benchmark
//! and the soak.

use std::path::Path;
use std::process::Command;

/// The browser tests time a notification; the benchmark and the soak saturate the CPU: one at a time.
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

/// Every scenario in each engine (`BILINGUE_ENGINES=firefox` runs one alone).
#[test]
fn browser_tests_pass_in_chromium_firefox_and_webkit() {
    run(
        "node",
        &["--test", "--test-concurrency=1", "e2e/"],
        "needs Debian's browsers: apt-get install -y chromium firefox-esr webkit2gtk-driver xvfb xauth",
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

/// A short soak: wrk at saturation with no failed request and flat memory, then SIGTERM
/// under load with no request lost and exit code 0 (`node bench/soak.mjs` is the long one).
#[test]
fn soak_at_saturation_then_sigterm_loses_nothing() {
    run(
        "node",
        &["bench/soak.mjs", "--smoke"],
        "needs wrk: apt-get install -y wrk; the report above names the failed check",
    );
}
