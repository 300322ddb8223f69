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

use std::fmt::Write as _;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::sharing::{Freshness, Sharing};
use crate::lang::Language;
use crate::manifest::RoutedPage;
use crate::purge_keys::PageFamily;

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

/// Pushes `text` as a URL may hold it: a byte that is neither an RFC 3986 `pchar` nor in
/// `also` is percent-encoded, so a Location never carries what the request target was let
/// through with (a backslash, which browsers read as a slash; quotes, braces). A `%` that
/// starts an encoded byte stays (the target's own encoding is kept as it came); any other
/// is encoded itself.
fn push_encoded(location: &mut String, text: &str, also: &[u8]) {
    let bytes = text.as_bytes();
    for (at, &byte) in bytes.iter().enumerate() {
        let encodes = |offset: usize| bytes.get(at + offset).is_some_and(u8::is_ascii_hexdigit);
        let raw = byte.is_ascii_alphanumeric()
            || b"-._~!$&'()*+,;=:@".contains(&byte)
            || (byte == b'%' && encodes(1) && encodes(2))
            || also.contains(&byte);
        if raw {
            location.push(char::from(byte));
        } else {
            let _ = write!(location, "%{byte:02X}");
        }
    }
}

fn way(
    status: StatusCode,
    language: Language,
    path: &str,
    query: Option<&str>,
    cache_control: HeaderValue,
    family: PageFamily,
) -> Response {
    let mut location = format!("/{}", language.code());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(text: &str, also: &[u8]) -> String {
        let mut location = String::new();
        push_encoded(&mut location, text, also);
        location
    }

    #[test]
    fn a_location_holds_only_what_a_url_may() {
        assert_eq!(encoded("/fr\\..\\etat", b"/"), "/fr%5C..%5Cetat");
        assert_eq!(
            encoded("/a b\"<>{}|^`", b"/"),
            "/a%20b%22%3C%3E%7B%7D%7C%5E%60"
        );
        assert_eq!(encoded("/é", b"/"), "/%C3%A9");
        assert_eq!(
            encoded("/langues/en;x=1/a%2Fb@c:d~e!$&'()*+,", b"/"),
            "/langues/en;x=1/a%2Fb@c:d~e!$&'()*+,",
            "kept as it came"
        );
        assert_eq!(encoded("a=1&b=/?c#", b"/?"), "a=1&b=/?c%23");
        assert_eq!(
            encoded("/%zz/%4/%", b"/"),
            "/%25zz/%254/%25",
            "not an encoded byte"
        );
        assert_eq!(encoded("?", b"/"), "%3F", "a path holds no query");
    }
}
