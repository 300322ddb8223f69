//! A finished public page as the cache keeps it: its status and headers, and its document
//! plain and gzipped (once, at the best level), each with its own validator, so serving it
//! again costs a reference count.

use std::io::Write as _;
use std::time::Instant;

use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode};
use flate2::Compression;
use flate2::write::GzEncoder;

use crate::pages::representation::{PageHeaders, Representation, etag};

pub struct KeptPage {
    pub status: StatusCode,
    pub headers: PageHeaders,
    /// For a page whose data is public for a while only: when it was made (its answers
    /// then say their `Age`).
    made: Option<Instant>,
    plain: Bytes,
    plain_etag: HeaderValue,
    gzip: Bytes,
    gzip_etag: HeaderValue,
}

impl KeptPage {
    /// `aged`: the page's data is public for a while only.
    pub fn new(status: StatusCode, document: String, headers: PageHeaders, aged: bool) -> Self {
        // Kept as long as the page is: its bytes, not the room its writer grew (a locale
        // page of the real-size site, 11.3 KB, was written into a larger string).
        let plain = Bytes::copy_from_slice(document.as_bytes());
        // Once per page: the best compression is worth its time.
        let mut encoder = GzEncoder::new(Vec::with_capacity(plain.len() / 3), Compression::best());
        encoder.write_all(&plain).expect("in-memory gzip");
        let gzip = Bytes::copy_from_slice(&encoder.finish().expect("in-memory gzip"));
        Self {
            status,
            headers,
            made: aged.then(Instant::now),
            plain_etag: etag(&plain),
            plain,
            gzip_etag: etag(&gzip),
            gzip,
        }
    }

    /// The page as is.
    pub fn plain(&self) -> Representation {
        Representation {
            body: self.plain.clone(),
            encoding: None,
            etag: Some(self.plain_etag.clone()),
            age: self.age(),
        }
    }

    /// The page gzipped.
    pub fn gzip(&self) -> Representation {
        Representation {
            body: self.gzip.clone(),
            encoding: Some("gzip"),
            etag: Some(self.gzip_etag.clone()),
            age: self.age(),
        }
    }

    fn age(&self) -> Option<u64> {
        self.made.map(|made| made.elapsed().as_secs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::cache::tests::headers;

    #[test]
    fn a_kept_page_is_the_same_bytes_every_time_in_each_coding_with_its_own_validator() {
        let document = "<p>répété</p>".repeat(50);
        let kept = KeptPage::new(StatusCode::OK, document.clone(), headers(), false);
        assert_eq!(kept.plain().body, document.as_bytes());
        assert_eq!(
            crate::test_support::gunzip(&kept.gzip().body),
            document.as_bytes()
        );
        assert_ne!(kept.plain().etag, kept.gzip().etag);
        assert_eq!(kept.gzip().etag, Some(etag(&kept.gzip().body)));
    }

    #[test]
    fn a_kept_page_holds_its_bytes_not_the_room_its_writer_left() {
        let mut document = String::with_capacity(64 << 10);
        document.push_str(&"<p>répété</p>".repeat(50));
        let KeptPage { plain, gzip, .. } =
            KeptPage::new(StatusCode::OK, document, headers(), false);
        let held = |bytes: Bytes| {
            let len = bytes.len();
            (len, bytes.try_into_mut().expect("held once").capacity())
        };
        let (len, capacity) = held(plain);
        assert_eq!(capacity, len, "the page");
        let (len, capacity) = held(gzip);
        assert_eq!(capacity, len, "its gzip");
    }
}
