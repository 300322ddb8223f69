//! A part of the sitemap written as it is sent: chunks of about 64 KiB, each made when the
//! connection takes the last, gzipped on the way when the crawler takes gzip. A part is up
//! to 50 MB of XML; what is held at once is one chunk and one page's paths.

use std::io::Write as _;
use std::ops::Range;
use std::sync::Arc;

use axum::body::Bytes;
use flate2::write::GzEncoder;

use super::{Sitemap, xml};

const CHUNK: usize = 64 * 1024;

/// The chunks of one part (its number from 0), in order.
pub struct Chunks {
    sitemap: Arc<Sitemap>,
    urls: Range<usize>,
    opened: bool,
    closed: bool,
    /// The route and page whose paths are `paths` (a page's languages come one after another).
    page: Option<(usize, usize)>,
    paths: Vec<String>,
    gzip: Option<GzEncoder<Vec<u8>>>,
}

impl Chunks {
    /// Part `part` (from 0) of `sitemap`, gzipped with `gzip`.
    pub fn new(sitemap: Arc<Sitemap>, part: usize, gzip: bool) -> Self {
        let urls = sitemap.parts[part].clone();
        Self {
            sitemap,
            urls,
            opened: false,
            closed: false,
            page: None,
            paths: Vec::new(),
            gzip: gzip.then(|| GzEncoder::new(Vec::new(), flate2::Compression::default())),
        }
    }

    /// The next chunk of XML, uncompressed; None after the last.
    fn next_xml(&mut self) -> Option<String> {
        if self.closed {
            return None;
        }
        let mut xml = String::with_capacity(CHUNK + 4096);
        if !self.opened {
            xml.push_str(xml::URLSET_OPEN);
            self.opened = true;
        }
        while xml.len() < CHUNK
            && let Some(url) = self.urls.next()
        {
            let (route, page, language) = self.sitemap.url(url);
            if self.page != Some((route, page)) {
                self.paths = self.sitemap.routes[route].paths(page);
                self.page = Some((route, page));
            }
            let sitemap = &self.sitemap;
            xml::write_url(
                &mut xml,
                &sitemap.placement,
                language,
                &self.paths,
                &sitemap.built_at,
            );
        }
        if self.urls.is_empty() {
            xml.push_str(xml::URLSET_CLOSE);
            self.closed = true;
        }
        Some(xml)
    }
}

impl Iterator for Chunks {
    type Item = Bytes;

    fn next(&mut self) -> Option<Bytes> {
        if self.gzip.is_none() {
            return self.next_xml().map(Bytes::from);
        }
        loop {
            let Some(xml) = self.next_xml() else {
                // The gzip trailer, once.
                let finished = self.gzip.take()?.finish().expect("in-memory gzip");
                return Some(Bytes::from(finished));
            };
            let gzip = self.gzip.as_mut()?;
            gzip.write_all(xml.as_bytes()).expect("in-memory gzip");
            // Only what the encoder has let out: it may keep a little for the next chunk.
            let out = std::mem::take(gzip.get_mut());
            if !out.is_empty() {
                return Some(Bytes::from(out));
            }
        }
    }
}
