//! What a page is sent in, chosen by measurement (the figures are in docs/performance.md):
//!
//! - A page written for this request that fits the first round trip goes plain: with its
//!   headers it fits the ten segments a new connection's first flight carries, so
//!   compressing it would spend the server's CPU and save the browser no time.
//! - A bigger one goes in gzip at level 1 when the client takes gzip: a 55 KB page costs
//!   about 45 µs and shrinks eightfold, where brotli's cheapest level costs twice that for
//!   a sixth fewer bytes, and Node's `compression` middleware (brotli 4) four times it.
//! - A cached page goes in gzip when the client takes it, compressed once when it was
//!   kept, never again.
//! - Nothing is brotli-compressed per request: a client that takes only brotli gets the
//!   page plain. Assets, which are compressed once at build time, are sent in brotli.

use axum::body::Bytes;
use axum::http::HeaderMap;

use super::cache::KeptPage;
use super::gzip::{self, FIRST_FLIGHT_BYTES};
use super::representation::{Representation, etag};
use crate::accept_encoding::takes_gzip;

/// A page written for this request, in the coding the policy chooses; with its validator
/// when `validated`.
pub fn fresh(document: String, request: &HeaderMap, validated: bool) -> Representation {
    let (body, encoding) = if document.len() <= FIRST_FLIGHT_BYTES || !takes_gzip(request) {
        (Bytes::from(document), None)
    } else {
        (Bytes::from(gzip::whole(document.as_bytes())), Some("gzip"))
    };
    Representation {
        etag: validated.then(|| etag(&body)),
        body,
        encoding,
        age: None,
    }
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
    use crate::test_support::{accepting, gunzip};

    #[test]
    fn a_page_that_fits_the_first_flight_goes_plain() {
        let page = "é".repeat(FIRST_FLIGHT_BYTES / 2);
        let sent = fresh(page.clone(), &accepting("gzip, deflate, br"), false);
        assert_eq!((sent.body.as_ref(), sent.encoding), (page.as_bytes(), None));
        assert_eq!(sent.etag, None);
    }

    #[test]
    fn a_bigger_page_goes_in_gzip_when_taken_with_the_gzips_validator() {
        let page = "<p>bonjour</p>".repeat(1_000);
        let sent = fresh(page.clone(), &accepting("gzip, deflate, br"), true);
        assert_eq!(sent.encoding, Some("gzip"));
        assert!(sent.body.len() < page.len() / 10);
        assert_eq!(gunzip(&sent.body), page.as_bytes());
        assert_eq!(sent.etag, Some(etag(&sent.body)));
    }

    #[test]
    fn nothing_is_brotli_compressed_per_request() {
        let page = "<p>bonjour</p>".repeat(1_000);
        for accept in ["br", "br, gzip;q=0", "identity", ""] {
            let sent = fresh(page.clone(), &accepting(accept), false);
            assert_eq!(
                (sent.body.len(), sent.encoding),
                (page.len(), None),
                "{accept:?}"
            );
        }
    }
}
