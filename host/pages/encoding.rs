//! What a page is sent in, chosen by measurement (the figures are in docs/performance.md):
//!
//! - A page written for this request that fits the first round trip goes plain: with its
//!   headers it fits the ten segments a new connection's first flight carries, so
//!   compressing it would spend the server's CPU and save the browser no time.
//! - A bigger one goes in gzip at level 1 when the client takes gzip: a 55 KB page costs
//!   about 45 µs and shrinks eightfold, where brotli's cheapest level costs twice that for
//!   a sixth fewer bytes, and Node's `compression` middleware (brotli 4) four times it.
//!   Its head (up to `</head>`: the same at every render of the page, with no nonce and
//!   nothing of the visitor's) is compressed once and kept by its text (`first_parts`, as
//!   a streamed page's frame is), the rest per request, in the same gzip member; a rest
//!   that then fits the first flight goes stored (`gzip::GzipParts::part`), as a page that
//!   fits goes plain.
//! - A cached page goes in gzip when the client takes it, compressed once when it was
//!   kept, never again.
//! - Nothing is brotli-compressed per request: a client that takes only brotli gets the
//!   page plain. Assets, which are compressed once at build time, are sent in brotli.

use axum::body::Bytes;
use axum::http::HeaderMap;

use super::cache::KeptPage;
use super::first_parts::FirstParts;
use super::gzip::{self, FIRST_FLIGHT_BYTES};
use super::representation::{Representation, etag};
use crate::accept_encoding::takes_gzip;

/// A page written for this request, in the coding the policy chooses; with its validator
/// when `validated`. `heads`: the heads compressed once, where its head may join them.
pub fn fresh(
    document: String,
    request: &HeaderMap,
    validated: bool,
    heads: Option<&FirstParts>,
) -> Representation {
    let (body, encoding) = if document.len() <= FIRST_FLIGHT_BYTES || !takes_gzip(request) {
        (Bytes::from(document), None)
    } else {
        (gzipped(&document, heads), Some("gzip"))
    };
    Representation {
        etag: validated.then(|| etag(&body)),
        body,
        encoding,
        age: None,
    }
}

/// `document` as one gzip member: its head as kept (compressed once), then the rest.
fn gzipped(document: &str, heads: Option<&FirstParts>) -> Bytes {
    const HEAD_END: &str = "</head>";
    let (Some(heads), Some(at)) = (heads, document.find(HEAD_END)) else {
        return Bytes::from(gzip::whole(document.as_bytes()));
    };
    let (head, rest) = document.split_at(at + HEAD_END.len());
    let head = heads.compressed(head);
    let rest = head.rest().part(rest.as_bytes(), true);
    let mut bytes = Vec::with_capacity(head.bytes().len() + rest.len());
    bytes.extend_from_slice(head.bytes());
    bytes.extend_from_slice(&rest);
    Bytes::from(bytes)
}

/// A kept page, gzipped for a client that takes gzip, else plain.
pub fn kept(page: &KeptPage, request: &HeaderMap) -> Representation {
    match takes_gzip(request) {
        true => page.gzip(),
        false => page.plain(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{Random, accepting, gunzip};

    #[test]
    fn a_page_that_fits_the_first_flight_goes_plain() {
        let page = "é".repeat(FIRST_FLIGHT_BYTES / 2);
        let sent = fresh(
            page.clone(),
            &accepting("gzip, deflate, br"),
            false,
            Some(&FirstParts::default()),
        );
        assert_eq!((sent.body.as_ref(), sent.encoding), (page.as_bytes(), None));
        assert_eq!(sent.etag, None);
    }

    #[test]
    fn a_bigger_page_goes_in_gzip_when_taken_with_the_gzips_validator() {
        let page = "<p>bonjour</p>".repeat(1_000);
        let sent = fresh(
            page.clone(),
            &accepting("gzip, deflate, br"),
            true,
            Some(&FirstParts::default()),
        );
        assert_eq!(sent.encoding, Some("gzip"));
        assert!(sent.body.len() < page.len() / 10);
        assert_eq!(gunzip(&sent.body), page.as_bytes());
        assert_eq!(sent.etag, Some(etag(&sent.body)));
    }

    /// Text that deflate cannot shrink much, as a page's varied words.
    fn words(len: usize) -> String {
        let letters = Random(0x9e37_79b9_7f4a_7c15).bytes(len).into_iter();
        letters.map(|byte| char::from(b'a' + byte % 26)).collect()
    }

    #[test]
    fn a_pages_head_is_compressed_once_and_a_rest_that_then_fits_the_first_flight_goes_stored() {
        let heads = FirstParts::default();
        let head = format!("<html><head>{}</head>", "<link rel=alternate>".repeat(300));
        let rest = format!("<body>{}</body></html>", words(9_000));
        let page = head.clone() + &rest;
        assert!(page.len() > FIRST_FLIGHT_BYTES);
        let sent = fresh(page.clone(), &accepting("gzip"), true, Some(&heads));
        assert_eq!(sent.encoding, Some("gzip"));
        assert_eq!(gunzip(&sent.body), page.as_bytes());
        assert_eq!(heads.len(), 1, "the head is kept");
        assert!(
            sent.body.windows(rest.len()).any(|w| w == rest.as_bytes()),
            "the rest goes stored: with the head compressed, the answer fits the first flight"
        );
        assert!(sent.body.len() <= FIRST_FLIGHT_BYTES);
        let again = fresh(page, &accepting("gzip"), true, Some(&heads));
        assert_eq!(
            again.body, sent.body,
            "the same bytes each time, so the same validator"
        );
        assert_eq!(again.etag, sent.etag);
        assert_eq!(heads.len(), 1);
    }

    #[test]
    fn a_rest_past_the_first_flight_is_deflated_after_the_kept_head() {
        let heads = FirstParts::default();
        let page = format!(
            "<head>{}</head>{}",
            words(2_000),
            "<p>bonjour</p>".repeat(3_000)
        );
        let sent = fresh(page.clone(), &accepting("gzip"), false, Some(&heads));
        assert_eq!(gunzip(&sent.body), page.as_bytes());
        assert!(sent.body.len() < 4_000, "{} bytes", sent.body.len());
        let headless = "<p>bonjour</p>".repeat(3_000);
        let sent = fresh(headless.clone(), &accepting("gzip"), false, Some(&heads));
        assert_eq!(gunzip(&sent.body), headless.as_bytes());
        assert_eq!(heads.len(), 1, "a page without a head keeps nothing");
    }

    #[test]
    fn a_head_given_nowhere_to_be_kept_is_compressed_with_its_page() {
        let page = format!(
            "<head>{}</head>{}",
            words(2_000),
            "<p>bonjour</p>".repeat(3_000)
        );
        let sent = fresh(page.clone(), &accepting("gzip"), false, None);
        assert_eq!(gunzip(&sent.body), page.as_bytes());
        assert_eq!(sent.body, gzip::whole(page.as_bytes()));
    }

    #[test]
    fn nothing_is_brotli_compressed_per_request() {
        let page = "<p>bonjour</p>".repeat(1_000);
        for accept in ["br", "br, gzip;q=0", "identity", ""] {
            let sent = fresh(
                page.clone(),
                &accepting(accept),
                false,
                Some(&FirstParts::default()),
            );
            assert_eq!(
                (sent.body.len(), sent.encoding),
                (page.len(), None),
                "{accept:?}"
            );
        }
    }
}
