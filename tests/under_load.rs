//! The binary at saturation: short runs of the benchmark and of the soak, which hold bounds
//! on first bytes and readiness, so each runs alone (`app_checks::run_alone`).
//!
//! A module of their own, named to come late in the suite's order: libtest gives its
//! threads the tests by name, and a test waiting for its turn holds its thread idle. Here
//! they come after the checks they must not run beside (the browser tests among them) have
//! long started, and before the tests that mostly wait (`wire`), which fill the other
//! thread while they run.

use crate::app_checks::run_alone;
use crate::support::machine;

/// The benchmark's harness on a 1 s run of each row (`node bench/run.mjs --smoke`).
#[test]
fn benchmark_harness_runs_and_prints_its_table() {
    machine::require(&["wrk", "varnish"]);
    run_alone(
        "node",
        &["bench/run.mjs", "--smoke", "--no-build"],
        "needs wrk: apt-get install -y wrk",
    );
}

/// A short soak: wrk at saturation with no failed request and flat memory, then SIGTERM
/// under load with no request lost and exit code 0 (`node bench/soak.mjs` is the long one).
#[test]
fn soak_at_saturation_then_sigterm_loses_nothing() {
    machine::require(&["wrk"]);
    run_alone(
        "node",
        &["bench/soak.mjs", "--smoke"],
        "needs wrk: apt-get install -y wrk; the report above names the failed check",
    );
}
