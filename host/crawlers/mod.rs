//! What crawlers read, and how they are told apart from people. `/robots.txt` and
//! `/sitemap.xml` ([`sitemap`]) are written once at start-up from the public origin and
//! served from memory. `--no-index` (staging) disallows everything and marks every answer
//! `noindex`. A crawler is recognised by its user agent ([`user_agent`]).

mod sitemap;
mod user_agent;

pub use user_agent::CrawlerTest;

use std::io::Write as _;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::accept_encoding::takes_gzip;
use crate::origin::Origin;

/// `/robots.txt` and `/sitemap.xml`, served from what [`RobotsAndSitemap`] wrote.
pub fn routes(files: Arc<RobotsAndSitemap>) -> Router {
    Router::new()
        .route("/robots.txt", get(robots_txt))
        .route("/sitemap.xml", get(sitemap_xml))
        .with_state(files)
}

/// `/robots.txt` and `/sitemap.xml`, written once.
pub struct RobotsAndSitemap {
    robots: Bytes,
    sitemap: Bytes,
    sitemap_gzip: Bytes,
}

impl RobotsAndSitemap {
    pub fn new(
        origin: &Origin,
        indexable: &[std::collections::BTreeMap<String, String>],
        built_at: &str,
        no_index: bool,
    ) -> Self {
        let robots = if no_index {
            "User-agent: *\nDisallow: /\n".to_string()
        } else {
            format!(
                "User-agent: *\nAllow: /\n\nSitemap: {}\n",
                origin.url("/sitemap.xml")
            )
        };
        let sitemap = sitemap::sitemap(origin, indexable, built_at);
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gzip.write_all(sitemap.as_bytes()).expect("in-memory gzip");
        Self {
            robots: robots.into(),
            sitemap: sitemap.into(),
            sitemap_gzip: gzip.finish().expect("in-memory gzip").into(),
        }
    }
}

async fn robots_txt(State(files): State<Arc<RobotsAndSitemap>>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        files.robots.clone(),
    )
        .into_response()
}

async fn sitemap_xml(State(files): State<Arc<RobotsAndSitemap>>, headers: HeaderMap) -> Response {
    let mut response = match takes_gzip(&headers) {
        true => {
            let mut response = files.sitemap_gzip.clone().into_response();
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            response
        }
        false => files.sitemap.clone().into_response(),
    };
    let answer = response.headers_mut();
    answer.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/xml; charset=utf-8"),
    );
    answer.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    answer.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    response
}

/// `--no-index`: every answer tells search engines not to index it.
pub fn mark_no_index(answer: &mut HeaderMap) {
    answer.insert(
        header::HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex"),
    );
}
