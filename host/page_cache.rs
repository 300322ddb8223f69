//! Finished pages whose render depends only on (path, language, build), as the app
//! declares them (`cacheable` in `app/routes.ts`): kept as the document's bytes,
//! precompressed once, so serving one again costs a map lookup. Bounded in entries; the
//! cache lives in the process, so a new build (a new binary) never serves an old page.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::Bytes;
use axum::http::StatusCode;

/// A finished document: its status, bytes, and the same bytes gzip- and brotli-encoded.
pub struct CachedPage {
    pub status: StatusCode,
    pub body: Bytes,
    pub gzip: Bytes,
    pub brotli: Bytes,
}

impl CachedPage {
    pub fn new(status: StatusCode, document: String) -> Self {
        let body = Bytes::from(document);
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        gzip.write_all(&body).expect("in-memory gzip");
        let gzip = Bytes::from(gzip.finish().expect("in-memory gzip"));
        let mut brotli = Vec::new();
        // A window near the document's size: brotli's default 4 MiB one costs more to set up
        // than a page takes to compress.
        let params = brotli::enc::BrotliEncoderParams {
            quality: 6,
            lgwin: 18,
            ..Default::default()
        };
        brotli::BrotliCompress(&mut &body[..], &mut brotli, &params).expect("in-memory brotli");
        Self {
            status,
            body,
            gzip,
            brotli: Bytes::from(brotli),
        }
    }
}

type Key = (&'static str, String);

pub struct PageCache {
    capacity: usize,
    pages: RwLock<HashMap<Key, std::sync::Arc<CachedPage>>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl PageCache {
    /// `capacity` 0 turns the cache off.
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            pages: RwLock::default(),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    pub fn enabled(&self) -> bool {
        self.capacity > 0
    }

    pub fn get(&self, language: &'static str, path: &str) -> Option<std::sync::Arc<CachedPage>> {
        if self.capacity == 0 {
            return None;
        }
        let found = self
            .pages
            .read()
            .expect("cache lock")
            .get(&(language, path.to_string()))
            .cloned();
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    pub fn insert(&self, language: &'static str, path: &str, page: std::sync::Arc<CachedPage>) {
        if self.capacity == 0 {
            return;
        }
        let mut pages = self.pages.write().expect("cache lock");
        if pages.len() >= self.capacity {
            // Past the bound, any one entry makes room: paths no one asks for again (random
            // 404s) cannot grow the cache, and popular pages come back on their next request.
            if let Some(evicted) = pages.keys().next().cloned() {
                pages.remove(&evicted);
            }
        }
        pages.insert((language, path.to_string()), page);
    }

    pub fn len(&self) -> usize {
        self.pages.read().expect("cache lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str) -> std::sync::Arc<CachedPage> {
        std::sync::Arc::new(CachedPage::new(StatusCode::OK, text.to_string()))
    }

    #[test]
    fn a_page_is_found_by_language_and_path() {
        let cache = PageCache::new(8);
        cache.insert("en", "/", page("english"));
        assert_eq!(cache.get("en", "/").unwrap().body, "english");
        assert!(cache.get("fr", "/").is_none());
        assert_eq!((cache.hits(), cache.misses()), (1, 1));
    }

    #[test]
    fn the_cache_never_holds_more_than_its_capacity() {
        let cache = PageCache::new(3);
        for i in 0..100 {
            cache.insert("fr", &format!("/{i}"), page("x"));
        }
        assert_eq!(cache.len(), 3);
        assert!(cache.get("fr", "/99").is_some(), "the newest page is kept");
    }

    #[test]
    fn capacity_zero_turns_it_off() {
        let cache = PageCache::new(0);
        cache.insert("fr", "/", page("x"));
        assert!(cache.get("fr", "/").is_none());
        assert!(cache.is_empty());
    }

    #[test]
    fn precompressed_forms_decode_to_the_document() {
        let document = "<!doctype html>".repeat(50);
        let cached = CachedPage::new(StatusCode::OK, document.clone());
        let mut gunzipped = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(&cached.gzip[..]),
            &mut gunzipped,
        )
        .unwrap();
        assert_eq!(gunzipped, document);
        let mut unbrotlied = Vec::new();
        brotli::BrotliDecompress(&mut &cached.brotli[..], &mut unbrotlied).unwrap();
        assert_eq!(unbrotlied, document.as_bytes());
    }
}
