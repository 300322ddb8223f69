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
//! Each says what page it leads to, for its purge keys (`PageFamily`).

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::sharing::{Freshness, Sharing};
use crate::lang::Language;
use crate::manifest::RoutedPage;
use crate::purge_keys::PageFamily;
use crate::url_path::push_encoded;

/// The way from an unprefixed path to the page in `language`: at its path there when a
/// route takes it (in any language's words), else the same path under the prefix.
/// `headers`: who may keep it and what it varies on (`Landing::headers`).
pub fn to_the_prefixed_page(
    start: String,
    language: Language,
    path: &str,
    page: Option<&RoutedPage<'_, '_>>,
    query: Option<&str>,
    headers: HeaderMap,
) -> Response {
    let path = page.map_or_else(|| path.to_owned(), |page| page.path_in(language));
    let family = PageFamily {
        language: None,
        route: page.map(|page| page.route().clone()),
    };
    way(
        StatusCode::FOUND,
        start,
        language,
        &path,
        query,
        headers,
        family,
    )
}

/// The way from a page asked where `language` does not sit to where it does, at its path
/// in `language` when a route takes it (in any language's words): for good, for everyone.
pub fn to_where_it_sits(
    start: String,
    language: Language,
    path: &str,
    page: Option<&RoutedPage<'_, '_>>,
    query: Option<&str>,
    freshness: &Freshness,
) -> Response {
    let status = StatusCode::PERMANENT_REDIRECT;
    let cache_control = freshness.cache_control(Sharing::Public { limit: None }, status);
    let path = page.map_or_else(|| path.to_owned(), |page| page.path_in(language));
    let family = PageFamily {
        language: Some(language),
        route: page.map(|page| page.route().clone()),
    };
    let headers = HeaderMap::from_iter([(header::CACHE_CONTROL, cache_control)]);
    way(status, start, language, &path, query, headers, family)
}

/// The way from a page in another language's words under `language`'s prefix to its path
/// in `language`: for good, and for everyone.
pub fn to_its_own_path(
    start: String,
    language: Language,
    page: &RoutedPage<'_, '_>,
    query: Option<&str>,
    freshness: &Freshness,
) -> Response {
    let status = StatusCode::PERMANENT_REDIRECT;
    let cache_control = freshness.cache_control(Sharing::Public { limit: None }, status);
    let family = PageFamily {
        language: Some(language),
        route: Some(page.route().clone()),
    };
    let path = page.path_in(language);
    let headers = HeaderMap::from_iter([(header::CACHE_CONTROL, cache_control)]);
    way(status, start, language, &path, query, headers, family)
}

fn way(
    status: StatusCode,
    start: String,
    language: Language,
    path: &str,
    query: Option<&str>,
    headers: HeaderMap,
    family: PageFamily,
) -> Response {
    let mut location = start;
    push_encoded(&mut location, path, b"/");
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
    response.extensions_mut().insert(family);
    response
}
