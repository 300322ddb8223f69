//! The host's `/api`: built-in endpoints (`GET /api/status`, `GET /api/languages/:code`),
//! JSON errors for everything else, or, with `--api-upstream`, every `/api/…` request forwarded (see `proxy.rs`).
//! A built-in answer names its data in `Surrogate-Key` (`status`, `language-en`), as an
//! upstream may: the pages its data goes into carry the key, and so does the answer.

mod forwarded_headers;
mod http1_client;
mod languages;
mod loader_calls;
pub mod proxy;

pub use loader_calls::LoaderCalls;

use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::{Json, Router};
use serde_json::json;

use crate::data_keys::DataKeys;
use crate::lang::Languages;
use crate::purge_keys::SURROGATE_KEY;
use crate::url_path::segment_problem;

/// A JSON error the shared client reads into its `detail`: `{"error": "…"}`.
pub fn json_error(status: StatusCode, message: impl Into<String>) -> Response {
    let mut response = (status, Json(json!({ "error": message.into() }))).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Names the data of a built-in answer: `key`, when it can be a data key (`data_keys`).
fn name_data(response: &mut Response, key: &str) {
    if let Some(keys) = DataKeys::own(key) {
        let value = HeaderValue::try_from(keys.joined(" ")).expect("a data key is header-safe");
        response.headers_mut().insert(SURROGATE_KEY, value);
    }
}

/// The routes of `/api`: the built-in ones, or every path forwarded to the upstream. The
/// app serves them, and a page's loader calls them in-process.
pub fn router(languages: Languages, upstream: Option<proxy::Upstream>) -> Router {
    match upstream {
        Some(upstream) => Router::new()
            .route("/api", any(proxy::forward))
            .route("/api/", any(proxy::forward))
            .route("/api/{*rest}", any(proxy::forward))
            .with_state(upstream),
        None => Router::new()
            .route("/api/status", get(status).fallback(method_not_allowed))
            .route(
                "/api/languages/{code}",
                get(languages::language).fallback(method_not_allowed),
            )
            .route("/api", any(not_found))
            .route("/api/", any(not_found))
            .route("/api/{*rest}", any(not_found))
            .with_state(languages),
    }
}

/// Why `path` may not be asked of the API, if it may not: it is not under `/api`, or a
/// segment would lead out of it once some URL parser or server had its way with it: `.`
/// and `..`, plain, percent-encoded, encoded twice, with `;parameters` (as Java servers
/// read them), or in look-alike dots; an encoded slash or backslash; NUL; bytes that are
/// not UTF-8 (overlong encodings of a dot).
pub fn path_problem(path: &str) -> Option<&'static str> {
    if !(path == "/api" || path.starts_with("/api/")) {
        return Some("only paths under /api are answered");
    }
    path.split('/').skip(1).find_map(segment_problem)
}

async fn status(State(languages): State<Languages>) -> Response {
    let languages: Vec<String> = languages.all().map(|l| l.code().to_owned()).collect();
    let mut response = Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "languages": languages,
        "serverTime": rfc3339_now(),
    }))
    .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    name_data(&mut response, "status");
    response
}

async fn not_found(uri: Uri) -> Response {
    json_error(
        StatusCode::NOT_FOUND,
        format!("no such API endpoint: {}", uri.path()),
    )
}

async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    let mut response = json_error(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {}", uri.path()),
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

/// `2026-11-22T03:26:01.123Z`, from the system clock.
fn rfc3339_now() -> String {
    let since_epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    rfc3339(since_epoch.as_millis() as i64)
}

fn rfc3339(millis: i64) -> String {
    let (days, ms_of_day) = (millis.div_euclid(86_400_000), millis.rem_euclid(86_400_000));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s, ms) = (
        ms_of_day / 3_600_000,
        ms_of_day / 60_000 % 60,
        ms_of_day / 1000 % 60,
        ms_of_day % 1000,
    );
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z")
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn no_path_leads_out_of_the_api_however_it_is_read() {
        for path in [
            "/api/..;/admin",
            "/api/.;x/admin",
            "/api/%252e%252e/admin",
            "/api/%252f..",
            "/api/%c0%ae%c0%ae/admin",
            "/api/\u{FF0E}\u{FF0E}/admin",
            "/api/%EF%BC%8E%EF%BC%8E/admin",
        ] {
            assert!(super::path_problem(path).is_some(), "{path}");
        }
        for path in ["/api/a;b/c", "/api/..b", "/api/100%25", "/api/caf%C3%A9"] {
            assert_eq!(super::path_problem(path), None, "{path}");
        }
    }

    /// The app's router refuses the same segments as a route's parameter, before any call
    /// (app/data/params.test.ts reads these cases too).
    #[test]
    fn segments_the_app_refuses_as_parameters_are_refused_here_too() {
        let segments: Vec<String> =
            serde_json::from_str(include_str!("../../app/data/unnameable-segments.json"))
                .expect("app/data/unnameable-segments.json");
        assert!(segments.len() >= 20);
        for segment in segments {
            let path = format!("/api/languages/{segment}");
            assert!(super::path_problem(&path).is_some(), "{path}");
        }
    }

    #[test]
    fn times_are_written_in_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(1_795_318_761_123), "2026-11-22T03:39:21.123Z");
    }
}
