//! What a page is sent in, chosen by measurement (the figures are in the README, under
//! "Compression"):
//!
//! - A page written for this request that fits the first round trip goes plain: with its
//!   headers it fits the ten segments a new connection's first flight carries, so
//!   compressing it would spend the server's CPU and save the browser no time.
//! - A bigger one goes in gzip at level 1 when the client takes gzip: a 55 KB page costs
//!   about 45 µs and shrinks eightfold, where brotli's cheapest level costs twice that for
//!   a sixth fewer bytes, and Node's `compression` middleware (brotli 4) four times it.
//! - A cached page goes in gzip when the client takes it, spliced around the response's
//!   nonce from parts deflated once (`spliced_gzip.rs`), so it is never compressed again.
//! - Nothing is brotli-compressed per request: a client that takes only brotli gets the
//!   page plain. Assets, which are compressed once at build time, are sent in brotli.

use std::io::Write as _;

use axum::body::Bytes;
use axum::http::HeaderMap;
use flate2::Compression;
use flate2::write::GzEncoder;

use super::cache::CachedPage;
use super::nonce::Nonce;
use crate::encoding::{Encoding, negotiate};

/// The largest page sent plain: 10 segments of 1,460 bytes, less room for the headers.
pub const FIRST_FLIGHT_BYTES: usize = 12 * 1024;

/// A page written for this request: its body and `Content-Encoding`.
pub fn fresh(document: String, request: &HeaderMap) -> (Bytes, Option<&'static str>) {
    if document.len() <= FIRST_FLIGHT_BYTES || negotiate(request, false, true) != Encoding::Gzip {
        return (document.into(), None);
    }
    let mut encoder = GzEncoder::new(Vec::with_capacity(document.len() / 4), Compression::fast());
    encoder
        .write_all(document.as_bytes())
        .expect("writing to memory");
    let gzip = encoder.finish().expect("writing to memory");
    (gzip.into(), Some("gzip"))
}

/// A cached page with this response's nonce: its body and `Content-Encoding`.
pub fn cached(
    page: &CachedPage,
    request: &HeaderMap,
    nonce: &Nonce,
) -> (Bytes, Option<&'static str>) {
    match negotiate(request, false, true) {
        Encoding::Gzip => (page.gzip(nonce).into(), Some("gzip")),
        _ => (page.plain(nonce).into(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{accepting, gunzip};

    #[test]
    fn a_page_that_fits_the_first_flight_goes_plain() {
        let page = "é".repeat(FIRST_FLIGHT_BYTES / 2);
        let (body, encoding) = fresh(page.clone(), &accepting("gzip, deflate, br"));
        assert_eq!((body.as_ref(), encoding), (page.as_bytes(), None));
    }

    #[test]
    fn a_bigger_page_goes_in_gzip_when_taken() {
        let page = "<p>bonjour</p>".repeat(1_000);
        let (body, encoding) = fresh(page.clone(), &accepting("gzip, deflate, br"));
        assert_eq!(encoding, Some("gzip"));
        assert!(body.len() < page.len() / 10);
        assert_eq!(gunzip(&body), page.as_bytes());
    }

    #[test]
    fn nothing_is_brotli_compressed_per_request() {
        let page = "<p>bonjour</p>".repeat(1_000);
        for accept in ["br", "br, gzip;q=0", "identity", ""] {
            let (body, encoding) = fresh(page.clone(), &accepting(accept));
            assert_eq!((body.len(), encoding), (page.len(), None), "{accept:?}");
        }
        let cached_page = CachedPage::new(axum::http::StatusCode::OK, &page, None);
        let nonce = Nonce::random();
        let (body, encoding) = cached(&cached_page, &accepting("br"), &nonce);
        assert_eq!((body.len(), encoding), (page.len(), None));
        let (body, encoding) = cached(&cached_page, &accepting("gzip, deflate, br"), &nonce);
        assert_eq!(
            (gunzip(&body).as_slice(), encoding),
            (page.as_bytes(), Some("gzip"))
        );
    }
}
