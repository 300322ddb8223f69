//! What the unit tests of several modules need alike.

use std::io::Read as _;

use axum::http::{HeaderMap, HeaderValue, header};

/// A request's headers that accept these content codings.
pub fn accepting(value: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::ACCEPT_ENCODING,
        HeaderValue::from_str(value).unwrap(),
    );
    headers
}

/// A gzip stream's content; it must be valid gzip.
pub fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("valid gzip");
    out
}
