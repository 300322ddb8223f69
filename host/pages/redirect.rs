//! `/…`: the way to the page in the visitor's saved language, else the default, at its
//! prefixed URL. The way depends on the visitor's cookie (`Vary: Cookie`); without a
//! cookie it is the same for everyone, and any cache may keep it, as it may the page it
//! leads to.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::sharing::{Freshness, Sharing};
use crate::lang::Language;

/// Who may keep the way: anyone, unless the visitor sent a cookie (it may hold a choice).
pub fn cache_control(has_cookie: bool, freshness: &Freshness) -> HeaderValue {
    match has_cookie {
        false => freshness.cache_control(Sharing::Public { limit: None }, StatusCode::FOUND),
        true => HeaderValue::from_static("private, no-store"),
    }
}

pub fn to_the_prefixed_page(
    language: Language,
    path: &str,
    query: Option<&str>,
    cache_control: HeaderValue,
) -> Response {
    let mut location = format!("/{}{path}", language.code());
    if let Some(query) = query {
        location.push('?');
        location.push_str(query);
    }
    let mut response = (
        StatusCode::FOUND,
        [
            (header::CACHE_CONTROL, cache_control),
            (header::VARY, HeaderValue::from_static("cookie")),
        ],
    )
        .into_response();
    match HeaderValue::try_from(location) {
        Ok(location) => {
            response.headers_mut().insert(header::LOCATION, location);
        }
        // The path and query came in a valid request target: they make a valid header.
        Err(_) => *response.status_mut() = StatusCode::BAD_REQUEST,
    }
    response.extensions_mut().insert(language);
    response
}
