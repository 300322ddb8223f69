//! The third adversarial run's attack, on every page kind at once: each kind of answer (a
//! whole public page, a visitor's streamed page from a kept shell, a page with data, a
//! 404, a hostile parameter, a redirect) asked by GET and HEAD, plain and conditional,
//! over HTTP/1.1 and HTTP/2. Whatever is asked: no 5xx, no word of the host's, HEAD says
//! what GET says and sends nothing, a 304 carries no length, and both protocols agree.

use axum::http::Method;

use crate::support;

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

/// One answer: its status, its headers (name, value) but the ones that vary per answer,
/// and its body.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// Headers whose value is the answer's own (a date, a nonce, a trace), or that HTTP/1.1
/// and HTTP/2 frame differently.
fn comparable(name: &str, value: &str) -> Option<(String, String)> {
    match name {
        "date" | "server-timing" | "traceparent" | "transfer-encoding" | "connection"
        | "keep-alive" => None,
        "content-security-policy" => Some((
            name.into(),
            value
                .split("'nonce-")
                .next()
                .unwrap_or_default()
                .to_string(),
        )),
        _ => Some((name.into(), value.into())),
    }
}

/// Over HTTP/1.1, on a connection of its own, the path sent as it is (an HTTP client
/// library would resolve its dot segments first).
fn h1(base: &str, method: &Method, path: &str, etag: Option<&str>) -> Answer {
    let address = base.trim_start_matches("http://");
    let condition = etag.map_or(String::new(), |etag| format!("If-None-Match: {etag}\r\n"));
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nUser-Agent: {BROWSER}\r\n\
         Accept-Encoding: identity\r\n{condition}Connection: close\r\n\r\n"
    );
    let raw = raw_bytes(address, request.as_bytes());
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a whole head");
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let mut headers: Vec<_> = lines
        .filter_map(|line| line.split_once(':'))
        .filter_map(|(n, v)| comparable(&n.to_ascii_lowercase(), v.trim()))
        .collect();
    headers.sort();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v == "chunked")
        || head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked");
    let rest = &raw[end + 4..];
    let body = if chunked {
        dechunked(rest)
    } else {
        rest.to_vec()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn raw_bytes(address: &str, request: &[u8]) -> Vec<u8> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    answer
}

/// A chunked body's bytes.
fn dechunked(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size");
        let size_text = String::from_utf8_lossy(&rest[..line_end]).into_owned();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        rest = &rest[line_end + 2..];
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

fn h2(base: &str, method: &Method, path: &str, etag: Option<&str>) -> Answer {
    let address = base.trim_start_matches("http://").to_string();
    let url = format!("{base}{path}");
    support::block_on(async move {
        let mut client = support::h2_connect(&address).await.ready().await.unwrap();
        let mut request = axum::http::Request::builder()
            .method(method)
            .uri(url)
            .header("user-agent", BROWSER)
            .header("accept-encoding", "identity");
        if let Some(etag) = etag {
            request = request.header("if-none-match", etag);
        }
        let (answer, _) = client
            .send_request(request.body(()).unwrap(), true)
            .unwrap();
        let (parts, mut body) = answer.await.unwrap().into_parts();
        let mut bytes = Vec::new();
        while let Some(chunk) = body.data().await {
            let chunk = chunk.unwrap();
            let _ = body.flow_control().release_capacity(chunk.len());
            bytes.extend_from_slice(&chunk);
        }
        let mut headers: Vec<_> = parts
            .headers
            .iter()
            .filter_map(|(n, v)| comparable(n.as_str(), v.to_str().unwrap_or("(not text)")))
            .collect();
        headers.sort();
        Answer {
            status: parts.status.as_u16(),
            headers,
            body: bytes,
        }
    })
}

fn header<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
    answer
        .headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
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
