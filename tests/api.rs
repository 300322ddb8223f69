//! The host's built-in /api over real HTTP: its endpoints and its JSON errors.

use serde_json::Value;

use crate::support::{client, get as fetch, header};

/// The languages the app declares, as the one list has them (app/i18n/languages.json).
fn declared_languages() -> Vec<Value> {
    let list: Value = serde_json::from_str(include_str!("../app/i18n/languages.json")).unwrap();
    list["languages"].as_array().unwrap().clone()
}

#[test]
fn status_reports_version_languages_and_time() {
    let response = fetch("/api/status");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-type"), "application/json");
    let body: Value = response.json().unwrap();
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    let codes: Vec<Value> = declared_languages()
        .iter()
        .map(|language| language["code"].clone())
        .collect();
    assert_eq!(body["languages"], Value::Array(codes));
    let time = body["serverTime"].as_str().unwrap();
    assert!(
        time.len() == 24 && time.ends_with('Z') && time.starts_with("20"),
        "{time}"
    );
}

#[test]
fn an_unknown_api_path_is_a_json_404() {
    for path in ["/api/nope", "/api", "/api/status/extra"] {
        let response = fetch(path);
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("no such API endpoint"),
            "{path}"
        );
    }
}

#[test]
fn a_wrong_method_on_an_api_endpoint_is_a_json_error() {
    let response = client()
        .post(format!("{}/api/status", crate::support::base_url()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 405);
    let body: Value = response.json().unwrap();
    assert_eq!(body["error"], "POST is not allowed on /api/status");
}

#[test]
fn each_language_is_described_by_its_own_endpoint() {
    for language in declared_languages() {
        let code = language["code"].as_str().unwrap();
        let response = fetch(&format!("/api/languages/{code}"));
        assert_eq!(response.status(), 200, "{code}");
        assert_eq!(header(&response, "cache-control"), "public, max-age=3600");
        let body: Value = response.json().unwrap();
        assert_eq!(body, language, "{code}: the list's entry, as it is");
    }
}

#[test]
fn an_unknown_language_is_a_json_404() {
    for path in [
        "/api/languages/zz",
        "/api/languages/%3Cb%3E",
        "/api/languages/FR",
    ] {
        let response = fetch(path);
        assert_eq!(response.status(), 404, "{path}");
        assert_eq!(header(&response, "cache-control"), "no-store", "{path}");
        let body: Value = response.json().unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with("no such language: "),
            "{path}: {body}"
        );
    }
    assert_eq!(fetch("/api/languages/fr/extra").status(), 404);
    let post = client()
        .post(format!("{}/api/languages/fr", crate::support::base_url()))
        .send()
        .unwrap();
    assert_eq!(post.status(), 405);
}
