//! The URL-path grammar of the host, written once: what a path may hold as it is, how a
//! path is written so that it holds only that, how its escapes decode, and whether a
//! segment could lead elsewhere than where it stands. A page's path is made canonical here
//! before the cache or the render sees it (`page_path`); a `Location` is written with
//! [`push_encoded`]; a route's parameter is written into a page's paths with
//! [`component`]; the API and the routes' parameters refuse a segment with
//! [`segment_problem`]. The app's router applies
//! the same bound to a page's path (`PAGE_PATH_AT_MOST`, in the contract), and both sides
//! are held to the cases of `app/data/path-cases.json` and
//! `app/data/unnameable-segments.json`.

use std::borrow::Cow;
use std::fmt::Write as _;

use unicode_normalization::UnicodeNormalization as _;

/// The longest path (without its language prefix, once canonical) a page may have: a
/// longer one is no page, whatever the routes say. A page's links carry its path in every
/// language, in its document and its `Link` header, which proxies bound.
pub const PAGE_PATH_AT_MOST: usize = 2048;

/// Whether `byte` is an RFC 3986 `pchar` other than `%`: a path holds it as it is.
fn is_plain(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&byte)
}

/// Whether `bytes[at]` is a `%` that starts a well-formed escape.
fn starts_escape(bytes: &[u8], at: usize) -> bool {
    bytes[at] == b'%'
        && bytes
            .get(at + 1..at + 3)
            .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
}

/// Pushes `text` as a URL may hold it: a byte that is neither an RFC 3986 `pchar` nor in
/// `also` is percent-encoded, so what a request target was let through with (a backslash,
/// which browsers read as a slash; quotes, braces, `|`, raw UTF-8) never reaches a link or
/// a `Location`. A `%` that starts an escape stays (a path's own escapes are kept as they
/// came); any other is encoded itself.
pub fn push_encoded(out: &mut String, text: &str, also: &[u8]) {
    let bytes = text.as_bytes();
    for (at, &byte) in bytes.iter().enumerate() {
        if is_plain(byte) || starts_escape(bytes, at) || also.contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
}

/// `value` as one path segment, written as the app's router writes a parameter
/// (`encodeURIComponent`): every byte but ASCII letters, digits and `-_.!~*'()` encoded, so
/// that the host's links to a page are the app's, whatever escapes the request came with.
pub fn component(value: &str) -> Cow<'_, str> {
    let kept = |byte: u8| byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte);
    if value.bytes().all(kept) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() * 3);
    for byte in value.bytes() {
        match kept(byte) {
            true => out.push(char::from(byte)),
            false => {
                let _ = write!(out, "%{byte:02X}");
            }
        }
    }
    Cow::Owned(out)
}

/// `path` written as [`push_encoded`] writes a path; borrowed when it is so already.
pub fn canonical(path: &str) -> Cow<'_, str> {
    let bytes = path.as_bytes();
    let plain = (0..bytes.len())
        .all(|at| is_plain(bytes[at]) || bytes[at] == b'/' || starts_escape(bytes, at));
    if plain {
        return Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len() + 16);
    push_encoded(&mut out, path, b"/");
    Cow::Owned(out)
}

/// An absolute URL path with nothing to escape (RFC 3986 `path-absolute`, its escapes
/// well-formed) and at most [`PAGE_PATH_AT_MOST`] bytes: written into a document, a header
/// or a `Location` as it is, it stays on this site.
pub fn is_url_path(path: &str) -> bool {
    let bytes = path.as_bytes();
    path.len() <= PAGE_PATH_AT_MOST
        && bytes.first() == Some(&b'/')
        && bytes.get(1) != Some(&b'/')
        && canonical(path) == path
}

/// A page's path as the host takes it: canonical, or none when no page can be there.
#[derive(Debug, PartialEq, Eq)]
pub enum PagePath<'a> {
    /// The path to look up and render, canonical.
    Page(Cow<'a, str>),
    /// A path no page has (`//x`, or longer than [`PAGE_PATH_AT_MOST`] once canonical):
    /// the not-found page, at this canonical path.
    NoPage(Cow<'a, str>),
}

/// What `path` (a request's path without its language prefix) is, as a page's path: the
/// one rule, applied before the cache and the render.
pub fn page_path(path: &str) -> PagePath<'_> {
    let canonical = canonical(path);
    match is_url_path(&canonical) {
        true => PagePath::Page(canonical),
        false => PagePath::NoPage(canonical),
    }
}

/// `segment` with its `%XX` escapes decoded (a malformed escape is kept as it is).
pub fn percent_decoded(segment: &str) -> Vec<u8> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if starts_escape(bytes, i) {
            let hex = |b: u8| (b as char).to_digit(16).unwrap_or_default() as u8;
            out.push(hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// Whether a segment's escapes are all well-formed and decode to UTF-8, as
/// `decodeURIComponent` requires.
pub fn decodes(segment: &str) -> bool {
    let bytes = segment.as_bytes();
    (0..bytes.len()).all(|at| bytes[at] != b'%' || starts_escape(bytes, at))
        && String::from_utf8(percent_decoded(segment)).is_ok()
}

/// Why `segment` could lead elsewhere than where it stands, if it could: `.` and `..`,
/// plain, percent-encoded, encoded twice, with `;parameters` (as Java servers read them),
/// or in look-alike characters (NFKC reads `．．` and `‥` as `..`, `／` as `/`); a slash or
/// a backslash, encoded or look-alike; a control character (NUL and the rest); bytes that
/// are not UTF-8 (overlong encodings of a dot). The API refuses a call whose path has
/// such a segment (`api::path_problem`), and a route's parameter with one names nothing
/// (`manifest`), as the app's router says too (app/data/params.ts, `namesSomething`).
pub fn segment_problem(segment: &str) -> Option<&'static str> {
    let once = percent_decoded(segment);
    let Ok(once) = String::from_utf8(once) else {
        return Some("a path segment must be UTF-8 once decoded");
    };
    let twice = String::from_utf8_lossy(&percent_decoded(&once)).into_owned();
    [&once, &twice]
        .into_iter()
        .find_map(|decoded| naming_problem(decoded))
}

/// Why a decoded segment could not be the name of something, read as a path segment.
fn naming_problem(decoded: &str) -> Option<&'static str> {
    // NFKC leaves ASCII as it is: most segments are read without a copy.
    let plain: Cow<str> = match decoded.is_ascii() {
        true => Cow::Borrowed(decoded),
        false => Cow::Owned(decoded.nfkc().collect()),
    };
    if plain.contains(['/', '\\']) || plain.chars().any(char::is_control) {
        return Some("a path segment may not hold a slash, a backslash or a control character");
    }
    let name = plain.split(';').next().unwrap_or_default();
    (name == "." || name == "..").then_some("a path segment may not be . or ..")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(text: &str, also: &[u8]) -> String {
        let mut out = String::new();
        push_encoded(&mut out, text, also);
        out
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

    /// The cases the app's router is held to as well (`app/data/path-cases.json`).
    #[derive(serde::Deserialize)]
    struct Case {
        path: String,
        canonical: String,
        page: bool,
    }

    fn cases() -> Vec<Case> {
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../app/data/path-cases.json")).unwrap();
        assert!(cases.len() >= 10);
        cases
    }

    #[test]
    fn the_host_and_the_app_read_the_same_page_paths() {
        for case in cases() {
            let path = case.path.replace("{long}", &"z".repeat(PAGE_PATH_AT_MOST));
            let expected = case
                .canonical
                .replace("{long}", &"z".repeat(PAGE_PATH_AT_MOST));
            let (page, canonical) = match page_path(&path) {
                PagePath::Page(canonical) => (true, canonical),
                PagePath::NoPage(canonical) => (false, canonical),
            };
            assert_eq!(canonical, expected, "{path:.60}");
            assert_eq!(page, case.page, "{path:.60}");
            if page {
                assert!(is_url_path(&canonical), "{path:.60}");
            }
        }
    }

    #[test]
    fn a_canonical_path_is_its_own_canonical_form() {
        let mut random = crate::test_support::Random(0xca70);
        for _ in 0..20_000 {
            let bytes = random.text();
            let path = format!("/{}", String::from_utf8_lossy(&bytes));
            let once = canonical(&path).into_owned();
            assert_eq!(canonical(&once), once, "{path:?}");
            assert!(once.len() <= PAGE_PATH_AT_MOST || !is_url_path(&once));
        }
    }

    #[test]
    fn a_path_that_is_no_url_path_is_refused() {
        for path in [
            "",
            "x",
            "//evil.example/",
            "/a b",
            "/a>",
            "/a\\b",
            "/%zz",
            "/é",
        ] {
            assert!(!is_url_path(path), "{path}");
        }
        let long = format!("/{}", "z".repeat(PAGE_PATH_AT_MOST));
        assert!(!is_url_path(&long));
        assert!(is_url_path(&long[..PAGE_PATH_AT_MOST]));
        for path in ["/", "/langues/en", "/x/%C3%A9", "/a;b=c/@:~"] {
            assert!(is_url_path(path), "{path}");
        }
    }

    #[test]
    fn escapes_decode_once_and_strictly_where_asked() {
        assert_eq!(percent_decoded("%2e%2E"), b"..");
        assert_eq!(percent_decoded("a%zz%4"), b"a%zz%4");
        assert!(decodes("%C3%A9") && decodes("plain"));
        for segment in ["%ff", "%zz", "%e", "%"] {
            assert!(!decodes(segment), "{segment}");
        }
    }
}
