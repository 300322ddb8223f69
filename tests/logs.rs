//! What the binary writes for operators: with `--log-format json`, every line on stderr is
//! one JSON object; `--access-log` adds one per answered request.

use std::time::Duration;

use crate::support;
use crate::support::binary::Host;

/// The leading part of a text log record: `2026-11-23T10:00:00.000000Z  INFO `.
fn starts_a_record(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let time = words.next().unwrap_or_default();
    let level = words.next().unwrap_or_default();
    time.len() >= 20
        && time.ends_with('Z')
        && time.as_bytes()[4] == b'-'
        && ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"].contains(&level)
}

#[test]
fn text_logs_hold_one_record_per_line_stack_traces_included() {
    let bundle = support::FAULTY_BUNDLE;
    let host = Host::started(&["--server-bundle", bundle, "--access-log"]);
    let client = crate::support::client();
    // A render that fails logs the bundle's stack trace, several lines long.
    client.get(host.url("/fr/throw")).send().unwrap();
    client
        .get(host.url("/fr/x%0Afake%20ERROR%20line"))
        .send()
        .unwrap();
    host.terminate();
    let (_, logs) = host.wait_exit(Duration::from_secs(10));
    assert!(logs.contains("boom from the faulty bundle"), "{logs}");
    for line in logs.lines() {
        assert!(
            starts_a_record(line),
            "a line that is no record: {line:?}\n{logs}"
        );
    }
}

#[test]
fn json_logs_with_one_access_line_per_request() {
    let host = Host::start(&["--log-format", "json", "--access-log"]);
    let client = crate::support::client();
    assert_eq!(
        client
            .get(format!("{}/fr/", host.base))
            .send()
            .unwrap()
            .status(),
        200
    );
    assert_eq!(
        client
            .get(format!("{}/en/nowhere", host.base))
            .send()
            .unwrap()
            .status(),
        404
    );
    host.terminate();
    let (_, logs) = host.wait_exit(Duration::from_secs(10));
    let lines: Vec<serde_json::Value> = logs
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    let access: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|line| line["target"] == "bilingue::access")
        .map(|line| &line["fields"])
        .collect();
    assert_eq!(access.len(), 2, "{logs}");
    assert_eq!(access[0]["method"], "GET");
    assert_eq!(access[0]["path"], "/fr/");
    assert_eq!(access[0]["status"], 200);
    assert_eq!(access[0]["language"], "fr");
    assert!(access[0]["micros"].as_u64().is_some());
    assert_eq!(access[1]["path"], "/en/nowhere");
    assert_eq!(access[1]["status"], 404);
    assert_eq!(access[1]["language"], "en");
    for level in lines.iter().map(|line| &line["level"]) {
        assert!(level.is_string(), "every line has a level");
    }
    assert!(
        lines
            .iter()
            .any(|line| line["fields"]["message"] == "serving"),
        "{logs}"
    );
}
