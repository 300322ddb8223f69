//! The ways to a page, answered before any render, from the manifest's routes:
//!
//! - `/…`, a path without a language prefix: to the page in the language it lands in
//!   (`landing`: the saved choice, else the visitor's `Accept-Language`), at its path in
//!   that language (`/languages/en` → `/fr/langues/en`). Without a cookie it is the same
//!   for everyone who sends the same reduced `Accept-Language`, and any cache may keep it.
//! - `/fr/languages/en`, a page in another language's words under a prefix: to the same
//!   page at its path in the prefix's language (`/fr/langues/en`), for good (308), the same
//!   for everyone.
//! - A page asked where its language does not sit (`placement`): `/fr/x` on the site's
//!   origin when French has its own, `/en/x` or `/fr/x` on French's origin: to where it
//!   sits, at its path in that language, for good (308), the same for everyone.
//!
//! Each way's `Location` starts where the language sits, seen from where it was asked
//! (`Placement::location`: `/fr`, or `https://exemple.fr` from another origin).
//! Each says what page it leads to, for its purge keys: its identity, from the route table.

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::sharing::{Freshness, Sharing};
use crate::lang::Language;
use crate::page_identity::PageIdentity;
use crate::url_path::push_encoded;

/// The way from an unprefixed path to `page` (asked in no language) in `language`, at its
/// path there. `headers`: who may keep it and what it varies on (`Landing::headers`).
pub fn to_the_prefixed_page(
    start: String,
    language: Language,
    page: PageIdentity,
    query: Option<&str>,
    headers: HeaderMap,
) -> Response {
    way(StatusCode::FOUND, start, language, page, query, headers)
}

/// The way to `page` (asked where `language` does not sit, or in another language's
/// words under `language`'s prefix) at its path in `language`, where `language` sits:
/// for good, for everyone.
pub fn for_good(
    start: String,
    language: Language,
    page: PageIdentity,
    query: Option<&str>,
    freshness: &Freshness,
) -> Response {
    let status = StatusCode::PERMANENT_REDIRECT;
    let cache_control = freshness.cache_control(Sharing::Public { limit: None }, status);
    let headers = HeaderMap::from_iter([(header::CACHE_CONTROL, cache_control)]);
    way(status, start, language, page, query, headers)
}

fn way(
    status: StatusCode,
    start: String,
    language: Language,
    page: PageIdentity,
    query: Option<&str>,
    headers: HeaderMap,
) -> Response {
    let mut location = start;
    push_encoded(&mut location, page.path_in(language), b"/");
    if let Some(query) = query {
        location.push('?');
        push_encoded(&mut location, query, b"/?");
    }
    let mut response = (status, headers).into_response();
    match HeaderValue::try_from(location) {
        Ok(location) => {
            response.headers_mut().insert(header::LOCATION, location);
        }
        // The path and query came in a valid request target: they make a valid header.
        Err(_) => *response.status_mut() = StatusCode::BAD_REQUEST,
    }
    response.extensions_mut().insert(language);
    response.extensions_mut().insert(Arc::new(page));
    response
}
