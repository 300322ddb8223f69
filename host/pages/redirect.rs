//! The ways to a page, answered before any render, from the manifest's routes:
//!
//! - `/…`, a path without a language prefix: to the page in the visitor's saved language,
//!   else the default, at its path in that language (`/languages/en` → `/fr/langues/en`).
//!   The way depends on the visitor's cookie (`Vary: Cookie`); without a cookie it is the
//!   same for everyone, and any cache may keep it, as it may the page it leads to.
//! - `/fr/languages/en`, a page in another language's words under a prefix: to the same
//!   page at its path in the prefix's language (`/fr/langues/en`), for good (308), the same
//!   for everyone.
//!
//! Each says what page it leads to, for its purge keys (`PageFamily`).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::sharing::{Freshness, Sharing};
use crate::lang::Language;
use crate::manifest::RoutedPage;
use crate::purge_keys::PageFamily;
use crate::url_path::push_encoded;

/// Who may keep the way: anyone, unless the visitor sent a cookie (it may hold a choice).
pub fn cache_control(has_cookie: bool, freshness: &Freshness) -> HeaderValue {
    match has_cookie {
        false => freshness.cache_control(Sharing::Public { limit: None }, StatusCode::FOUND),
        true => HeaderValue::from_static("private, no-store"),
    }
}

/// The way from an unprefixed path to the page in `language`: at its path there when a
/// route takes it (in any language's words), else the same path under the prefix.
pub fn to_the_prefixed_page(
    language: Language,
    path: &str,
    page: Option<&RoutedPage<'_, '_>>,
    query: Option<&str>,
    cache_control: HeaderValue,
) -> Response {
    let path = page.map_or_else(|| path.to_owned(), |page| page.path_in(language));
    let family = PageFamily {
        language: None,
        route: page.map(|page| page.route().clone()),
    };
    let mut response = way(
        StatusCode::FOUND,
        language,
        &path,
        query,
        cache_control,
        family,
    );
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("cookie"));
    response
}

/// The way from a page in another language's words under `language`'s prefix to its path
/// in `language`: for good, and for everyone.
pub fn to_its_own_path(
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
    way(status, language, &path, query, cache_control, family)
}

fn way(
    status: StatusCode,
    language: Language,
    path: &str,
    query: Option<&str>,
    cache_control: HeaderValue,
    family: PageFamily,
) -> Response {
    let mut location = format!("/{}", language.segment());
    push_encoded(&mut location, path, b"/");
    if let Some(query) = query {
        location.push('?');
        push_encoded(&mut location, query, b"/?");
    }
    let mut response = (status, [(header::CACHE_CONTROL, cache_control)]).into_response();
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
