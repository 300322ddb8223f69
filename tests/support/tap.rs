//! What a node test run's TAP report says failed, told again at the end of a failure's
//! message: a CI log cut in its middle keeps its head and its tail.

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
