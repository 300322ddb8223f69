//! The third adversarial run's attack, on every page kind at once: each kind of answer (a
//! whole public page, a visitor's streamed page from a kept shell, a page with data, a
//! 404, a hostile parameter, a redirect) asked by GET and HEAD, plain and conditional,
//! over HTTP/1.1 and HTTP/2. Whatever is asked: no 5xx, no word of the host's, HEAD says
//! what GET says and sends nothing, a 304 carries no length, and both protocols agree.

use axum::http::Method;

use crate::support;
use crate::support::asking::{self, Answer, header};

const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/// Each kind of page, asked at the app's paths in each language's words.
fn paths() -> Vec<String> {
    let page = support::app_page;
    let mut paths = vec![
        page("fr", "home", &[]),
        page("en", "languages", &[("code", "en")]),
        page("fr", "status", &[]),
        page("en", "status", &[]),
        "/fr/nowhere".into(),
        // A path in another language's words: the way to its own, for good.
        format!("/fr{}", &page("en", "languages", &[("code", "en")])[3..]),
        "/fr/%2e%2e/status".into(),
        "/de/status".into(),
        "/status".into(),
        "/".into(),
    ];
    for hostile in [
        "zz",
        "..",
        "%2e%2e",
        "%00",
        "en%2f",
        "..%2fstatus",
        "%EF%BC%8E%EF%BC%8E",
    ] {
        paths.push(page("fr", "languages", &[("code", hostile)]));
    }
    paths
}

/// What the host's own refusals say, which no page may show.
const HOST_WORDS: &[&str] = &[
    "path segment",
    "a loader",
    "refused",
    "panicked",
    "RenderError",
];

fn asked_as_a_browser(etag: Option<&str>) -> Vec<(&str, &str)> {
    let mut headers = vec![("user-agent", BROWSER), ("accept-encoding", "identity")];
    headers.extend(etag.map(|etag| ("if-none-match", etag)));
    headers
}

fn h1(base: &str, method: &Method, path: &str, etag: Option<&str>) -> Answer {
    asking::h1(base, method, path.as_bytes(), &asked_as_a_browser(etag))
}

fn h2(base: &str, method: &Method, path: &str, etag: Option<&str>) -> Answer {
    asking::h2(base, method, path, &asked_as_a_browser(etag))
}

/// The headers a HEAD must share with its GET: all but the body's own length (a streamed
/// GET has none to give ahead) and the validator of a page made per answer.
fn said(answer: &Answer) -> Vec<(String, String)> {
    answer
        .headers
        .iter()
        .filter(|(n, _)| n != "content-length" && n != "etag")
        .cloned()
        .collect()
}

#[test]
fn every_page_kind_answers_hostile_paths_head_and_conditional_requests_alike_over_both_protocols() {
    let base = support::base_url();
    for path in &paths() {
        for protocol in ["HTTP/1.1", "HTTP/2"] {
            let ask = |method: &Method, etag: Option<&str>| match protocol {
                "HTTP/1.1" => h1(base, method, path, etag),
                _ => h2(base, method, path, etag),
            };
            let get = ask(&Method::GET, None);
            let what = format!("{protocol} {path}");
            assert!(get.status < 500, "{what}: {get:?}");
            let text = String::from_utf8_lossy(&get.body);
            for words in HOST_WORDS {
                assert!(!text.contains(words), "{what} says {words:?}: {text:.2000}");
            }
            if get.status != 200 {
                assert!(
                    !text.contains(r#"rel="canonical""#) && !text.contains(r#"rel="alternate""#),
                    "{what}: only a page found names its links"
                );
            }
            let head = ask(&Method::HEAD, None);
            assert_eq!(head.status, get.status, "{what}: HEAD");
            assert!(head.body.is_empty(), "{what}: HEAD sends no body");
            assert_eq!(said(&head), said(&get), "{what}: HEAD says what GET says");
            // A validator answers 304 for a page found; a 404 stays a 404 (RFC 9110 §13.2.1).
            if let Some(etag) = header(&get, "etag").filter(|_| get.status == 200) {
                for method in [Method::GET, Method::HEAD] {
                    let again = ask(&method, Some(etag));
                    assert_eq!(again.status, 304, "{what}: {method} with its validator");
                    assert!(again.body.is_empty(), "{what}: {method} 304");
                    assert!(
                        header(&again, "content-length").is_none(),
                        "{what}: {method} 304 says no length: {again:?}"
                    );
                }
            }
            if let Some(etag) = header(&get, "etag").filter(|_| get.status != 200) {
                let again = ask(&Method::GET, Some(etag));
                assert_eq!(
                    again.status, get.status,
                    "{what}: a validator changes no error"
                );
            }
        }
        // Both protocols give the same answer (HTTP/2 takes a streamed page's timings as a
        // trailer, which HTTP/1.1 without `TE: trailers` does not).
        let (one, two) = (
            h1(base, &Method::GET, path, None),
            h2(base, &Method::GET, path, None),
        );
        assert_eq!(one.status, two.status, "{path}");
        let framed = |answer: &Answer| {
            let mut said = said(answer);
            said.retain(|(name, _)| name != "trailer");
            said
        };
        assert_eq!(
            framed(&one),
            framed(&two),
            "{path}: the same headers over both"
        );
    }
}
