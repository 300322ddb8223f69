//! The binary under load: a short run of the benchmark beside the suite's other heavy
//! checks (its bounds on first bytes are loose, 250 ms where a quiet machine gives 17),
//! and, each alone (`app_checks::run_alone`), a short soak at saturation, which holds a
//! bound on readiness, and a start-up on a small share of one busy core, whose share the
//! rest of the suite would make smaller still.
//!
//! A module of their own, named to come late in the suite's order: libtest gives its
//! threads the tests by name, and a test waiting for its turn holds its thread idle. Here
//! they come after the checks they must not run beside (the browser tests among them) have
//! long started, and before the tests that mostly wait (`wire`), which fill the other
//! thread while they run.

use std::process::{Child, Command};
use std::time::Duration;

use crate::app_checks::{alone, run_alone, run_beside_others};
use crate::support::binary::Host;
use crate::support::{client, machine};

/// The benchmark's harness on a 1 s run of each row (`node bench/run.mjs --smoke`).
#[test]
fn benchmark_harness_runs_and_prints_its_table() {
    machine::require(&["wrk", "varnish"]);
    run_beside_others(
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

/// A small share of one busy core (what a low CPU quota gives): the old host, bound by
/// `--render-timeout`, failed to start 10 times out of 10 like this.
#[test]
fn render_threads_start_on_a_small_share_of_a_busy_core() {
    let _turn = alone();
    let _spinner = Spinners::on_cpu0(1);
    for attempt in 0..2 {
        let host = Host::start_wrapped(
            &["taskset", "-c", "0", "nice", "-n", "19"],
            &["--render-threads", "4"],
        );
        let took = host.wait_ready(Duration::from_secs(60));
        let page = client().get(host.url("/en/")).send().unwrap();
        assert_eq!(page.status(), 200, "attempt {attempt}");
        assert!(
            page.text().unwrap().contains("Welcome to Bilingue"),
            "attempt {attempt}: rendered, ready after {took:?}"
        );
    }
}

/// Busy loops pinned to CPU 0, killed when dropped.
struct Spinners(Vec<Child>);

impl Spinners {
    fn on_cpu0(count: usize) -> Self {
        Self(
            (0..count)
                .map(|_| {
                    Command::new("taskset")
                        .args(["-c", "0", "sh", "-c", "while :; do :; done"])
                        .spawn()
                        .expect("taskset (util-linux) runs")
                })
                .collect(),
        )
    }
}

impl Drop for Spinners {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
