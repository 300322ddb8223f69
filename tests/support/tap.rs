//! What a node test run's TAP report says failed, told again at the end of a failure's
//! message: a CI log cut in its middle keeps its head and its tail; and where each run's
//! whole report is kept.

/// Where each check's whole output is kept, passed or failed (a passing test's output is
/// not shown): a browser scenario tried twice, or a slow file, is read there afterwards.
pub const REPORTS: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/app-checks");

/// Writes a check's output to `REPORTS/{name}.log`; a report that cannot be written is
/// said on stderr, and fails nothing.
pub fn keep_report(name: &str, stdout: &str, stderr: &str) {
    let report = std::path::Path::new(REPORTS).join(format!("{name}.log"));
    let written = std::fs::create_dir_all(REPORTS)
        .and_then(|()| std::fs::write(&report, format!("{stdout}\n{stderr}")));
    if let Err(error) = written {
        eprintln!("cannot keep the report {}: {error}", report.display());
    }
}

/// The failed tests of a TAP report, each with its details.
pub fn failed_tests(tap: &str) -> String {
    let mut failed = String::new();
    let mut in_failure = false;
    for line in tap.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("not ok ") {
            in_failure = true;
        }
        if in_failure {
            failed.push_str(line);
            failed.push('\n');
            in_failure = trimmed != "...";
        }
    }
    failed
}

#[cfg(test)]
mod tests {
    use super::failed_tests;

    #[test]
    fn a_failure_is_told_again_with_its_details() {
        let tap = "ok 1 - fine\n  ---\n  duration_ms: 1\n  ...\n    not ok 2 - broken\n      ---\n      error: 'boom'\n      ...\nok 3 - fine too\n";
        assert_eq!(
            failed_tests(tap),
            "    not ok 2 - broken\n      ---\n      error: 'boom'\n      ...\n"
        );
    }
}
