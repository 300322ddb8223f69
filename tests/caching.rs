//! What browsers and shared caches may keep, and how they revalidate: public pages carry
//! `public` lifetimes and a strong `ETag`, answered `304` whether the page came from the
//! page cache or a fresh render; HEAD says what GET says; pages holding data fresh at
//! each request, or the visitor's own, are kept privately or by no one.

use std::time::Duration;

use axum::response::IntoResponse as _;

use crate::support::binary::Host;
use crate::support::{self, client, header};

/// The answer's headers that describe the page, as a list to compare.
fn described(response: &reqwest::blocking::Response) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .filter(|(name, _)| name.as_str() != "date")
        .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_string()))
        .collect();
    headers.sort();
    headers
}

fn revalidated(base: &str, path: &str, accept: &str) {
    let url = format!("{base}{path}");
    let first = client()
        .get(&url)
        .header("accept-encoding", accept)
        .send()
        .unwrap();
    assert_eq!(first.status(), 200, "{path}");
    let etag = header(&first, "etag");
    assert!(
        etag.starts_with('"') && etag.ends_with('"'),
        "a strong validator: {etag}"
    );
    let again = client()
        .get(&url)
        .header("accept-encoding", accept)
        .header("if-none-match", &etag)
        .send()
        .unwrap();
    assert_eq!(again.status(), 304, "{path} {accept}");
    assert_eq!(header(&again, "etag"), etag);
    assert_eq!(
        header(&again, "cache-control"),
        header(&first, "cache-control")
    );
    assert_eq!(header(&again, "vary"), header(&first, "vary"));
    assert!(again.bytes().unwrap().is_empty());
    let other = client()
        .get(&url)
        .header("accept-encoding", accept)
        .header("if-none-match", "\"someone-elses\", W/\"x\"")
        .send()
        .unwrap();
    assert_eq!(other.status(), 200, "another validator gets the page");
}

#[test]
fn a_public_page_is_revalidated_with_a_304_from_the_page_cache_or_a_fresh_render() {
    for cache in ["1000", "0"] {
        let base = support::start(&["--render-threads", "1", "--page-cache-entries", cache]);
        for accept in ["gzip, deflate, br", "identity"] {
            revalidated(&base, "/fr/", accept);
            revalidated(&base, "/en/", accept);
        }
    }
}

#[test]
fn head_says_what_get_says() {
    let status = support::app_page("fr", "status", &[]);
    // A page, a 404, the streamed page, the way to a page, a path in another language's words.
    for path in [
        "/fr/",
        "/en/nowhere",
        &status,
        "/status",
        "/fr/languages/en",
    ] {
        let url = format!("{}{path}", support::base_url());
        let get = client()
            .get(&url)
            .header("accept-encoding", "gzip")
            .send()
            .unwrap();
        let head = client()
            .head(&url)
            .header("accept-encoding", "gzip")
            .send()
            .unwrap();
        assert_eq!(head.status(), get.status(), "{path}");
        let (mut get_headers, mut head_headers) = (described(&get), described(&head));
        // Where each answer's time went is its own (the first rendered it, the second came
        // from the cache); that it is said at all is the same.
        for headers in [&mut get_headers, &mut head_headers] {
            for (name, value) in headers.iter_mut() {
                if name == "server-timing" {
                    *value = String::from("…");
                }
            }
        }
        // The status page is streamed: its nonce is its own.
        if path == status {
            let nonce = |headers: &mut Vec<(String, String)>| {
                for (name, value) in headers.iter_mut() {
                    if name == "content-security-policy" {
                        *value = value.split("'nonce-").next().unwrap().to_string();
                    }
                }
            };
            nonce(&mut get_headers);
            nonce(&mut head_headers);
            // And its framing: chunks for GET, none for HEAD.
            get_headers.retain(|(name, _)| name != "transfer-encoding");
        }
        assert_eq!(head_headers, get_headers, "{path}");
        assert!(head.bytes().unwrap().is_empty());
    }
}

/// A crawler, which gets every page whole.
const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

#[test]
fn a_page_whose_data_is_fresh_at_each_request_is_kept_by_its_visitor_alone() {
    // Whole (a crawler's), it is revalidated with its validator.
    let status = support::app_page("fr", "status", &[]);
    let whole = support::get_with(&status, "user-agent", GOOGLEBOT);
    assert_eq!(header(&whole, "cache-control"), "private, no-cache");
    assert_eq!(header(&whole, "vary"), "accept-encoding");
    assert!(!header(&whole, "etag").is_empty());
    // Streamed (a person's), it carries a nonce: no one keeps it.
    let streamed = support::get(&status);
    assert_eq!(header(&streamed, "cache-control"), "private, no-store");
    assert_eq!(header(&streamed, "etag"), "");
}

#[test]
fn a_loader_that_declares_its_data_public_caps_every_lifetime() {
    let bundle = support::LOADER_BUNDLE;
    let host = Host::started(&["--server-bundle", bundle]);
    let response = client()
        .get(host.url("/fr/public/%2Fapi%2Fstatus"))
        .send()
        .unwrap();
    assert_eq!(
        header(&response, "cache-control"),
        "public, max-age=60, s-maxage=60, stale-while-revalidate=60, stale-if-error=60"
    );
    assert_eq!(header(&response, "age"), "0");
    // Kept for its declared time, it says how long it has been kept: no cache downstream
    // keeps its data longer than declared.
    std::thread::sleep(Duration::from_millis(1100));
    let later = client()
        .get(host.url("/fr/public/%2Fapi%2Fstatus"))
        .send()
        .unwrap();
    assert!(header(&later, "age").parse::<u64>().unwrap() >= 1);
    assert_eq!(
        header(&support::get("/fr/"), "age"),
        "",
        "a page of the build has no age"
    );
    let short = Host::started(&[
        "--server-bundle",
        bundle,
        "--page-max-age",
        "10s",
        "--page-s-maxage",
        "120s",
        "--page-stale-while-revalidate",
        "0s",
    ]);
    let response = client()
        .get(short.url("/fr/public/%2Fapi%2Fstatus"))
        .send()
        .unwrap();
    assert_eq!(
        header(&response, "cache-control"),
        "public, max-age=10, s-maxage=60, stale-while-revalidate=0, stale-if-error=60"
    );
}

#[test]
fn a_page_not_found_is_public_for_a_minute_at_most() {
    for path in ["/fr/nowhere", "/de/"] {
        let response = support::get(path);
        assert_eq!(response.status(), 404);
        assert_eq!(
            header(&response, "cache-control"),
            "public, max-age=60, s-maxage=60, stale-while-revalidate=60, stale-if-error=60",
            "{path}"
        );
    }
}

#[test]
fn no_answer_that_sets_a_cookie_may_be_kept_by_another_whoever_wrote_it() {
    use axum::extract::Path;
    use axum::routing::get;

    use crate::support::upstream::Upstream;
    let upstream = Upstream::builder()
        .route(
            "/api/login/{kind}",
            get(|Path(kind): Path<String>| async move {
                let mut response = ([("set-cookie", "session=1")], "ok").into_response();
                let (name, value) = match kind.as_str() {
                    "public" => ("cache-control", "public, max-age=600"),
                    "s-maxage" => ("cache-control", "s-maxage=600"),
                    "max-age" => ("cache-control", "max-age=600"),
                    _ => ("expires", "Wed, 21 Oct 2099 07:28:00 GMT"),
                };
                response.headers_mut().insert(name, value.parse().unwrap());
                response
            }),
        )
        .start();
    let base = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    for kind in ["public", "s-maxage", "max-age", "expires"] {
        let response = client()
            .get(format!("{base}/api/login/{kind}"))
            .send()
            .unwrap();
        assert_eq!(header(&response, "set-cookie"), "session=1", "{kind}");
        assert_eq!(
            header(&response, "cache-control"),
            "private, no-store",
            "{kind}"
        );
        assert_eq!(header(&response, "expires"), "", "{kind}");
    }
}

/// A 304 carries no `Content-Length` (RFC 9110 §8.6: only the 200's own length, or none),
/// over HTTP/1.1 and HTTP/2, for GET and HEAD alike.
#[test]
fn a_304_says_no_length_over_either_protocol() {
    let base = support::base_url();
    let address = base.trim_start_matches("http://");
    for path in ["/fr/", "/en/"] {
        let etag = header(
            &client().get(format!("{base}{path}")).send().unwrap(),
            "etag",
        );
        for method in ["GET", "HEAD"] {
            let request = format!(
                "{method} {path} HTTP/1.1\r\nHost: {address}\r\nIf-None-Match: {etag}\r\nConnection: close\r\n\r\n"
            );
            let answer = support::raw_exchange(address, request.as_bytes());
            let head = answer
                .split("\r\n\r\n")
                .next()
                .unwrap()
                .to_ascii_lowercase();
            assert!(head.starts_with("http/1.1 304"), "{method} {path}: {head}");
            assert!(!head.contains("content-length"), "{method} {path}: {head}");
            let parts = support::block_on(async {
                let mut h2 = support::h2_connect(address).await.ready().await.unwrap();
                let request = axum::http::Request::builder()
                    .method(method)
                    .uri(format!("{base}{path}"))
                    .header("if-none-match", &etag)
                    .body(())
                    .unwrap();
                let (answer, _) = h2.send_request(request, true).unwrap();
                answer.await.unwrap().into_parts().0
            });
            assert_eq!(parts.status, 304, "HTTP/2 {method} {path}");
            assert!(
                !parts.headers.contains_key("content-length"),
                "HTTP/2 {method} {path}: {:?}",
                parts.headers
            );
        }
    }
}
