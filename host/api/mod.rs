//! The host's `/api`: built-in endpoints (`GET /api/status`), JSON errors for everything
//! else, or, with `--api-upstream`, every `/api/…` request forwarded (see `proxy.rs`).

pub mod proxy;

use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use crate::lang::Language;

/// A JSON error the shared client reads into its `detail`: `{"error": "…"}`.
pub fn json_error(status: StatusCode, message: impl Into<String>) -> Response {
    let mut response = (status, Json(json!({ "error": message.into() }))).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

pub fn built_in<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/api/status", get(status).fallback(method_not_allowed))
        .route("/api", axum::routing::any(not_found))
        .route("/api/{*rest}", axum::routing::any(not_found))
}

async fn status() -> Response {
    let languages: Vec<&str> = Language::all().map(Language::code).collect();
    let mut response = Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "languages": languages,
        "serverTime": rfc3339_now(),
    }))
    .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
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
    fn times_are_written_in_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(1_795_318_761_123), "2026-11-22T03:39:21.123Z");
    }
}
