/// The browser test files that time what a person waits for: run by the `timed` test
/// binary (tests/timed.rs), with nothing else of the suite beside them, and left out of
/// the integration binary's browser tests (tests/app_checks.rs).
pub const TIMED_BROWSER_TESTS: [&str; 2] = ["e2e/dev.test.mjs", "e2e/notifications.test.mjs"];
