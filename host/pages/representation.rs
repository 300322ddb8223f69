//! What a page is sent as, whoever sends it (the answer, the cache, the coding): the
//! headers it says of itself, and one coding of its bytes with its validator.
//!
//! The validator is a strong `ETag`, a digest of the very bytes sent: each coding of a
//! page has its own, and a new build's page, whose bytes differ, has a new one.

use std::sync::Arc;

use axum::body::Bytes;
use axum::http::HeaderValue;
use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::data_keys::DataKeys;
use crate::lang::Language;
use crate::page_identity::PageIdentity;

/// The headers a page answers with, besides its body's.
#[derive(Clone)]
pub struct PageHeaders {
    pub language: Language,
    /// Its `Content-Language`, written once with the page, not at each time it is sent.
    pub content_language: HeaderValue,
    /// Who may keep the page, and for how long.
    pub cache_control: HeaderValue,
    /// The alternates, for a page that names them.
    pub link: Option<HeaderValue>,
    /// The build's Content-Security-Policy for its documents.
    pub policy: HeaderValue,
    /// What its data named for a purge: kept with the page, and named after its family's
    /// keys (`purge_keys`).
    pub data_keys: DataKeys,
    /// What the page is, as it is asked: its family's keys are its language's and its
    /// route's (kept with the page, for a purge of the page cache too).
    pub page: Arc<PageIdentity>,
}

/// One coding of a page: its bytes, its `Content-Encoding`, and its validator.
pub struct Representation {
    pub body: Bytes,
    pub encoding: Option<&'static str>,
    pub etag: Option<HeaderValue>,
    /// How long ago it was made, for a page whose data is public for a while only.
    pub age: Option<u64>,
}

/// A strong validator for exactly these bytes: 128 bits of their SHA-256.
pub fn etag(bytes: &[u8]) -> HeaderValue {
    let digest = Sha256::digest(bytes);
    let tag = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&digest[..16]);
    HeaderValue::try_from(format!("\"{tag}\"")).expect("base64 is header-safe")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_validator_names_exactly_its_bytes() {
        assert_eq!(etag(b"page"), etag(b"page"));
        assert_ne!(etag(b"page"), etag(b"page "));
        let tag = etag(b"page");
        assert!(
            tag.to_str().unwrap().starts_with('"') && tag.len() == 24,
            "{tag:?}"
        );
    }
}
