//! The fourth adversarial run's paths: every shape of path and parameter a browser, a
//! crawler or an attacker sends (raw `|`, `^`, `"` and UTF-8, a malformed escape, a double
//! slash, a path longer than a page may have), against every route of the app in every
//! language, asked by a person and by a crawler, GET and HEAD, over HTTP/1.1 and HTTP/2.
//! Each is a page the host takes or the not-found page, rendered, 404 and cacheable as
//! `/fr/nope` is; never a failed render (a person's client-rendered page, a crawler's
//! 503), never an ERROR line, never a render failure counted.

use axum::http::Method;

use crate::support;
use crate::support::asking::{self, Answer, header};
use crate::support::binary::Host;

const BROWSER: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";
const CRAWLER: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/// What a segment may come as, byte for byte.
fn shapes() -> Vec<Vec<u8>> {
    let mut shapes: Vec<Vec<u8>> = [
        "x|y", "x^y", "x\"y", "%zz", "x%7Cy", "a{b}", "a\\b", "%C3%A9",
    ]
    .iter()
    .map(|shape| shape.as_bytes().to_vec())
    .collect();
    shapes.push("é".as_bytes().to_vec());
    shapes.push("日本".as_bytes().to_vec());
    shapes.push(vec![b'z'; 2100]);
    shapes
}

/// Every route's page in every language with each shape in its parameters, or after it
/// as one more segment; a double slash before it; each shape as the whole path.
fn odd_paths() -> Vec<Vec<u8>> {
    let mut paths = Vec::new();
    for route in bilingue::declared_routes() {
        for (code, pattern) in &route.paths {
            for shape in shapes() {
                let shape_text = String::from_utf8_lossy(&shape).into_owned();
                let mut path = format!("/{code}").into_bytes();
                if pattern.contains(':') {
                    path.extend_from_slice(
                        bilingue::filled_pattern(pattern, |_| &shape_text).as_bytes(),
                    );
                } else {
                    path.extend_from_slice(pattern.trim_end_matches('/').as_bytes());
                    path.push(b'/');
                    path.extend_from_slice(&shape);
                }
                paths.push(path);
                paths.push(format!("/{code}/{pattern}").into_bytes());
                let mut whole = format!("/{code}/").into_bytes();
                whole.extend_from_slice(&shape);
                paths.push(whole);
            }
        }
    }
    paths.sort();
    paths.dedup();
    paths
}

fn title(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let start = text.find("<title>").expect("a title") + "<title>".len();
    text[start..start + text[start..].find("</title>").unwrap()].to_string()
}

fn ask(host: &Host, protocol: &str, method: &Method, path: &[u8], agent: &str) -> Answer {
    let headers = [("user-agent", agent), ("accept-encoding", "identity")];
    match protocol {
        "HTTP/1.1" => asking::h1(&host.base, method, path, &headers),
        // An HTTP/2 client sends what a URL may hold: the path as a browser escapes it.
        _ => {
            let mut escaped = String::new();
            for &byte in path {
                match byte {
                    b'!'..=b'~' if !b"\"<>\\^`{|}".contains(&byte) => escaped.push(byte.into()),
                    _ => escaped.push_str(&format!("%{byte:02X}")),
                }
            }
            asking::h2(&host.base, method, &escaped, &headers)
        }
    }
}

#[test]
fn an_odd_path_is_a_page_or_the_not_found_page_rendered_and_kept_never_a_failed_render() {
    let host = Host::started(&["--render-threads", "2"]);
    let codes: Vec<String> = bilingue::declared_routes()[0]
        .paths
        .keys()
        .cloned()
        .collect();
    let not_found: Vec<(String, String)> = codes
        .iter()
        .map(|code| {
            let page = asking::h1(
                &host.base,
                &Method::GET,
                format!("/{code}/nope").as_bytes(),
                &[],
            );
            assert_eq!(page.status, 404);
            (code.clone(), title(&page.body))
        })
        .collect();
    let paths = odd_paths();
    assert!(paths.len() >= 60, "{}", paths.len());
    for path in &paths {
        let shown = String::from_utf8_lossy(path);
        let shown = format!("{shown:.80}");
        let code = &shown[1..shown[1..].find('/').map_or(shown.len(), |end| end + 1)];
        for protocol in ["HTTP/1.1", "HTTP/2"] {
            for agent in [BROWSER, CRAWLER] {
                let what = format!("{protocol} {shown} ({})", &agent[..20]);
                let mut get = ask(&host, protocol, &Method::GET, path, agent);
                if get.status == 308 {
                    // In another language's words: the way to its own, then the same rule.
                    let location = header(&get, "location").expect("a Location").to_string();
                    assert!(
                        location.starts_with(&format!("/{code}/")),
                        "{what}: {location}"
                    );
                    get = ask(&host, protocol, &Method::GET, location.as_bytes(), agent);
                }
                let text = String::from_utf8_lossy(&get.body);
                assert!(
                    get.status == 200 || get.status == 404,
                    "{what}: {} {text:.300}",
                    get.status
                );
                assert!(
                    !support::is_client_rendered(&text),
                    "{what}: a failed render"
                );
                assert!(header(&get, "retry-after").is_none(), "{what}");
                if get.status == 404 {
                    let expected = &not_found.iter().find(|(c, _)| c == code).unwrap().1;
                    assert_eq!(&title(&get.body), expected, "{what}");
                    let cache_control = header(&get, "cache-control").unwrap_or_default();
                    assert!(
                        cache_control.starts_with("public"),
                        "{what}: {cache_control}"
                    );
                }
                let head = ask(&host, protocol, &Method::HEAD, path, agent);
                let first = if head.status == 308 { 308 } else { get.status };
                assert_eq!(head.status, first, "{what}: HEAD");
            }
        }
    }
    assert_eq!(host.metric("bilingue_render_failures_total"), 0.0);
    let logs = host.logs();
    assert!(
        !logs.contains("ERROR") && !logs.contains("WARN"),
        "no odd path is worth a line above DEBUG:\n{logs:.3000}"
    );
    // Kept as `/fr/nope` is: asked again, it comes from the page cache.
    let hits = host.metric("bilingue_page_cache_hits_total");
    let long = format!("/{}/{}", codes[0], "z".repeat(2100));
    asking::h1(&host.base, &Method::GET, long.as_bytes(), &[]);
    assert_eq!(host.metric("bilingue_page_cache_hits_total"), hits + 1.0);
}
