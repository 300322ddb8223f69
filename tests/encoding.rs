//! What pages are sent in (host/page_encoding.rs), asked as browsers ask
//! (`Accept-Encoding: gzip, deflate, br`) and as other clients do: a fresh page that fits
//! the first round trip goes plain, a bigger one in gzip, a cached one in spliced gzip,
//! and nothing is brotli-compressed per request.

use crate::support;
use crate::support::binary::Host;
use crate::support::{client, gunzip, header, start};

const BROWSERS: &str = "gzip, deflate, br";

fn get(url: &str, accept: Option<&str>) -> reqwest::blocking::Response {
    let request = client().get(url);
    let request = match accept {
        Some(accept) => request.header("accept-encoding", accept),
        None => request,
    };
    request.send().unwrap()
}

#[test]
fn a_small_page_rendered_for_the_request_goes_plain_even_to_browsers() {
    let base = start(&["--page-cache-entries", "0"]);
    let response = get(&format!("{base}/fr/"), Some(BROWSERS));
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-encoding"), "");
    assert_eq!(header(&response, "vary"), "accept-encoding");
    let html = response.text().unwrap();
    assert!(html.len() < 12 * 1024 && html.contains("</html>"), "{html}");
}

#[test]
fn a_cached_page_goes_in_gzip_to_browsers_and_plain_to_a_brotli_only_client() {
    let base = start(&[]);
    let url = format!("{base}/en/");
    let plain = get(&url, None).text().unwrap();
    let gzip = get(&url, Some(BROWSERS));
    assert_eq!(header(&gzip, "content-encoding"), "gzip");
    let gzip = gunzip(&gzip.bytes().unwrap());
    assert_eq!(gzip, plain);
    for accept in ["br", "br;q=1, gzip;q=0", "gzip;Q=0"] {
        let response = get(&url, Some(accept));
        assert_eq!(header(&response, "content-encoding"), "", "{accept}");
        assert_eq!(response.text().unwrap(), plain);
    }
}

#[test]
fn a_big_page_goes_in_gzip_and_is_never_brotli_compressed_per_request() {
    let bundle = support::FAULTY_BUNDLE;
    let host = Host::started(&["--server-bundle", bundle, "--render-threads", "1"]);
    let url = host.url("/fr/big");
    let plain = get(&url, None).text().unwrap();
    assert!(plain.len() > 60_000, "{}", plain.len());
    let response = get(&url, Some(BROWSERS));
    assert_eq!(header(&response, "content-encoding"), "gzip");
    assert_eq!(header(&response, "vary"), "accept-encoding");
    let body = response.bytes().unwrap();
    assert!(body.len() < plain.len() / 4, "{} bytes", body.len());
    assert_eq!(gunzip(&body), plain);
    for accept in ["br", "identity", "gzip;q=0, br"] {
        let response = get(&url, Some(accept));
        assert_eq!(header(&response, "content-encoding"), "", "{accept}");
        assert_eq!(response.bytes().unwrap().len(), plain.len(), "{accept}");
    }
}
