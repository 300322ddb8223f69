//! A panic never reaches the visitor as a dropped connection: one in a handler is caught
//! here and answered `500` (a small HTML page, or JSON under `/api`; the outer layers add
//! the security headers and count it), one in an answer's body cuts that answer only
//! (`connection.rs`); either way it is logged and counted (`bilingue_panics_total`).
//!
//! Debug builds only, for the tests: with `BILINGUE_TEST_PANICS=1` in the environment, a
//! request carrying `x-test-panic: handler` panics in its handler, and `x-test-panic: body`
//! gets an answer whose body panics once sent. Release builds have neither.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt as _;

/// Panics caught since start-up, handlers and bodies alike.
static PANICS: AtomicU64 = AtomicU64::new(0);

pub fn caught() -> u64 {
    PANICS.load(Ordering::Relaxed)
}

/// Logs and counts a caught panic.
pub fn note(payload: &(dyn Any + Send), while_doing: &str, path: &str) {
    PANICS.fetch_add(1, Ordering::Relaxed);
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(not a string)");
    tracing::error!(panic = message, path = %path.escape_debug(), "a panic {while_doing}");
}

const PAGE: &str = concat!(
    "<!doctype html>\n<html lang=\"fr\"><head><meta charset=\"utf-8\">",
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    "<title>Erreur du serveur · Server error</title></head><body>",
    "<h1>Erreur du serveur</h1><p>Cette page n’a pas pu être préparée. Réessayez dans un instant.</p>",
    "<h1 lang=\"en\">Server error</h1><p lang=\"en\">This page could not be made. Try again in a moment.</p>",
    "</body></html>\n"
);

/// The answer to a request whose handler panicked.
fn internal_error(api: bool) -> Response {
    let (content_type, body) = match api {
        true => ("application/json", "{\"error\":\"internal server error\"}"),
        false => ("text/html; charset=utf-8", PAGE),
    };
    let mut response = (StatusCode::INTERNAL_SERVER_ERROR, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Answers `500` for a handler that panics.
pub async fn catch(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    match AssertUnwindSafe(next.run(request)).catch_unwind().await {
        Ok(response) => response,
        Err(payload) => {
            note(&*payload, "in a handler: answered 500", &path);
            let api = path == "/api" || path.starts_with("/api/");
            internal_error(api)
        }
    }
}

/// The tests' way to make a handler panic: only in debug builds, only when asked for.
#[cfg(debug_assertions)]
pub fn test_trigger(router: axum::Router) -> axum::Router {
    match std::env::var("BILINGUE_TEST_PANICS").as_deref() {
        Ok("1") => router.layer(axum::middleware::from_fn(panic_on_demand)),
        _ => router,
    }
}

#[cfg(debug_assertions)]
async fn panic_on_demand(request: Request, next: Next) -> Response {
    match request
        .headers()
        .get("x-test-panic")
        .map(HeaderValue::as_bytes)
    {
        Some(b"handler") => panic!("x-test-panic: handler"),
        Some(b"body") => {
            use futures_util::StreamExt as _;
            let parts = futures_util::stream::iter([Ok::<_, std::io::Error>(
                axum::body::Bytes::from_static(b"<!doctype html>"),
            )])
            .chain(futures_util::stream::poll_fn(
                |_| -> std::task::Poll<Option<Result<axum::body::Bytes, std::io::Error>>> {
                    panic!("x-test-panic: body")
                },
            ));
            axum::body::Body::from_stream(parts).into_response()
        }
        _ => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_a_page_or_json_and_kept_by_no_one() {
        let page = internal_error(false);
        assert_eq!(page.status(), 500);
        assert_eq!(page.headers()[header::CACHE_CONTROL], "no-store");
        assert!(
            page.headers()[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        let json = internal_error(true);
        assert_eq!(json.headers()[header::CONTENT_TYPE], "application/json");
    }
}
