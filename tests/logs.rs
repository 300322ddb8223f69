//! What the binary writes for operators: with `--log-format json`, every line on stderr is
//! one JSON object; `--access-log` adds one per answered request.

use std::time::Duration;

use crate::support::binary::Host;

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
