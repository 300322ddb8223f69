//! The app's own checks, run by `cargo test` so one command tests the whole product:
//! the TypeScript type check, the app's unit tests, the browser tests that drive the
//! real binary in Chromium, Firefox and WebKit (`e2e/`), and the real-size site's
//! benchmark; the short runs of the benchmark and the soak are `under_load`'s.

use std::path::Path;
use std::process::Command;

#[path = "timed_browser_tests.rs"]
mod timed_browser_tests;
use timed_browser_tests::TIMED_BROWSER_TESTS;

use crate::support::{machine, tap};

/// The checks that load the CPU take turns. The soak's smoke run holds bounds on
/// readiness, and a start-up on a small share of a busy core needs that share: each runs
/// alone. The browser tests, the type check, the app's unit tests and the benchmarks'
/// smoke runs go beside one another (the browser files wait on their browsers more than
/// they compute; the benchmarks' first-byte bounds are 15 times what they measure on a
/// quiet machine), and not beside those two.
static TURNS: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// A turn alone (see [`TURNS`]), for a check that times what it measures.
pub fn alone() -> std::sync::RwLockWriteGuard<'static, ()> {
    TURNS.write().unwrap_or_else(|e| e.into_inner())
}

/// Runs a check that times what it measures, with nothing of the others beside it.
pub fn run_alone(program: &str, args: &[&str], fix: &str) {
    let _turn = alone();
    run(program, args, fix);
}

/// A turn beside the others (see [`TURNS`]), for a check of another module that loads the
/// CPU and times nothing (the real-size site's smoke, `tests/site.rs`).
pub fn beside_others() -> std::sync::RwLockReadGuard<'static, ()> {
    TURNS.read().unwrap_or_else(|e| e.into_inner())
}

/// Runs a check beside the others that may share the machine (see [`TURNS`]).
pub fn run_beside_others(program: &str, args: &[&str], fix: &str) {
    let _turn = TURNS.read().unwrap_or_else(|e| e.into_inner());
    run(program, args, fix);
}

fn run(program: &str, args: &[&str], fix: &str) {
    run_with(program, args, &[], fix);
}

fn run_with(program: &str, args: &[&str], env: &[(&str, &str)], fix: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(root)
        .env("BILINGUE_BIN", env!("CARGO_BIN_EXE_bilingue"))
        // varnishd, which the benchmark starts, may be in /usr/sbin.
        .env("PATH", machine::path())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e} ({fix})"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    keep_report(args, &stdout, &stderr);
    assert!(
        output.status.success(),
        "`{program} {}` failed ({fix}):\n{stdout}\n{stderr}\nwhat failed, again:\n{}",
        args.join(" "),
        tap::failed_tests(&stdout)
    );
}

/// [`run_beside_others`], with `env` set for the check.
fn run_beside_others_with(program: &str, args: &[&str], env: &[(&str, &str)], fix: &str) {
    let _turn = TURNS.read().unwrap_or_else(|e| e.into_inner());
    run_with(program, args, env, fix);
}

/// Keeps a check's output (`tap::REPORTS`), named by its script (the browser suite,
/// several files, by its own name).
fn keep_report(args: &[&str], stdout: &str, stderr: &str) {
    let name = match args.contains(&"--test") || args[0] == "e2e/in-order.mjs" {
        true => "browser-tests".to_string(),
        false => args[0].replace(['/', '.'], "_"),
    };
    tap::keep_report(&name, stdout, stderr);
}

/// With no step first: the generated files (`app/contract.ts`,
/// `app/i18n/messages.generated.ts`) are committed, and tests fail when they drift.
#[test]
fn typescript_type_checks_in_strict_mode() {
    run_beside_others(
        "node",
        &["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."],
        "run `npm ci` if node_modules is missing",
    );
}

#[test]
fn app_unit_tests_pass() {
    run_beside_others("node", &["app/test/run.mjs"], "see the failing test above");
}

/// The browser files run in one process per engine (e2e/one-browser/), with one launch of
/// its browser for all of them: every test of each is a scenario in each engine, on the
/// built binary. The others (a file that tests the server too, or whose site is a
/// development loop of its own, or that drives one engine itself) run a file at a time.
const ONE_BROWSER_TESTS: [&str; 8] = [
    "e2e/hostile-routes.test.mjs",
    "e2e/hydration.test.mjs",
    "e2e/language-and-url.test.mjs",
    "e2e/language.test.mjs",
    "e2e/navigation.test.mjs",
    "e2e/page-messages.test.mjs",
    "e2e/prerender.test.mjs",
    "e2e/status.test.mjs",
];

/// Of the other browser files, those that take longest, longest first: run by name (as
/// `node --test` runs its files, whatever order they are given in), the longest came last
/// and ran on alone for 76 s at the end of the suite in CI.
const LONGEST_OTHER_BROWSER_TESTS: [&str; 4] = [
    "e2e/variants.test.mjs",
    "e2e/pseudo-language.test.mjs",
    "e2e/add-a-screen.test.mjs",
    "e2e/seo.test.mjs",
];

/// Every scenario in each engine (`BILINGUE_ENGINES=firefox` runs one alone): the three
/// engines' processes of ONE_BROWSER_TESTS side by side, and beside them the other files,
/// five files at a time in all, the longest first. Three files at a time by name, each launching the
/// three engines, the suite launched each engine 14 times and took 204 s alone on 2
/// cores; this way, 131 s.
/// The files that time what a person waits for run in a test binary of their own, alone
/// (tests/timed.rs).
#[test]
fn browser_tests_pass_in_chromium_firefox_and_webkit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root.join("e2e"))
        .expect("the e2e folder")
        .map(|entry| format!("e2e/{}", entry.unwrap().file_name().to_string_lossy()))
        .filter(|file| file.ends_with(".test.mjs") && !TIMED_BROWSER_TESTS.contains(&file.as_str()))
        .collect();
    for long in LONGEST_OTHER_BROWSER_TESTS {
        assert!(
            files.iter().any(|file| file == long),
            "{long} is gone: update LONGEST_OTHER_BROWSER_TESTS"
        );
    }
    files.sort_by_key(|file| {
        let longest = LONGEST_OTHER_BROWSER_TESTS
            .iter()
            .position(|long| long == file);
        (
            longest.unwrap_or(LONGEST_OTHER_BROWSER_TESTS.len()),
            file.clone(),
        )
    });
    for file in ONE_BROWSER_TESTS {
        let source = std::fs::read_to_string(root.join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}: update ONE_BROWSER_TESTS"));
        assert!(
            source.contains("inEachEngine("),
            "{file} has no scenario in each engine: update ONE_BROWSER_TESTS"
        );
        // A test of its own would run once in each engine's process.
        assert!(
            !source.contains("\"node:test\""),
            "{file} registers tests of its own (it imports node:test): update ONE_BROWSER_TESTS"
        );
    }
    machine::require(machine::BROWSERS);
    // The engines' processes first: the other two places take the other files in turn, in
    // this order (e2e/in-order.mjs).
    let mut args = vec![
        "e2e/in-order.mjs",
        "--concurrency",
        "5",
        "e2e/one-browser/chromium.mjs",
        "e2e/one-browser/firefox.mjs",
        "e2e/one-browser/webkit.mjs",
    ];
    args.extend(
        files
            .iter()
            .map(String::as_str)
            .filter(|file| !ONE_BROWSER_TESTS.contains(file)),
    );
    run_beside_others_with(
        "node",
        &args,
        &[("BILINGUE_E2E_FILES", &ONE_BROWSER_TESTS.join(","))],
        "needs Debian's browsers: apt-get install -y chromium firefox-esr webkit2gtk-driver xvfb xauth",
    );
}

/// The one launch a process of e2e/one-browser/ shares stays open for a file that registers
/// its scenarios only after the first file's have ended (as a file slow to import would):
/// node:test's root `after`, which closed it before, ran in that gap.
#[test]
fn one_browser_outlives_a_file_registered_late() {
    machine::require(machine::BROWSERS);
    run_beside_others_with(
        "node",
        &["e2e/one-browser/chromium.mjs"],
        &[
            ("BILINGUE_ENGINES", "chromium"),
            (
                "BILINGUE_E2E_FILES",
                "e2e/one-browser/fixtures/first.mjs,e2e/one-browser/fixtures/late.mjs",
            ),
        ],
        "a late file found the shared browser closed: see e2e/engines/index.mjs",
    );
}

/// The real-size site's benchmark on a small site (`bench/site/bench.mjs --smoke`): every
/// route in every language answers and its first load is measured, the growth from 50
/// messages computed, the world page and a visitor's streamed page against the Node peers
/// (each checked to write the host's page), a crawl of the locale pages with the memory
/// read along it; it fails on a page that errors, a wrong sum in the gates' arithmetic, or
/// a missed gate that holds on any build. It times nothing it judges: it runs beside others.
#[test]
fn real_size_site_benchmark_runs_and_judges_its_gates() {
    machine::require(&["wrk"]);
    run_beside_others(
        "node",
        &["bench/site/bench.mjs", "--smoke"],
        "needs wrk: apt-get install -y wrk; the report above names the failed check",
    );
}
