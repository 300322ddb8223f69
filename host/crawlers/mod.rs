//! What crawlers read, and how they are told apart from people. `/robots.txt` is written
//! once at start-up from the public origin and served from memory; the sitemap
//! ([`sitemap`]) is `/sitemap.xml`, one file or the index of its parts, each part written
//! as it is sent. `--no-index` (staging) disallows everything and marks every answer
//! `noindex`. A crawler is recognised by its user agent ([`user_agent`]).

mod sitemap;
mod user_agent;

pub use sitemap::Sitemap;
pub use user_agent::CrawlerTest;
#[cfg(test)]
pub use user_agent::USER_AGENT_READ;

use std::io::Write as _;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::accept_encoding::takes_gzip;
use crate::origin::Origin;

/// `/robots.txt`, `/sitemap.xml` and, when the sitemap is an index, its parts
/// (`/sitemap-1.xml`…), from what [`RobotsAndSitemap`] holds.
pub fn routes(files: Arc<RobotsAndSitemap>) -> Router {
    let mut router = Router::new()
        .route("/robots.txt", get(robots_txt))
        .route("/sitemap.xml", get(sitemap_xml));
    if files.index.is_some() {
        for part in 1..=files.sitemap.parts() {
            router = router.route(
                &sitemap::part_path(part),
                get(
                    move |files: State<Arc<RobotsAndSitemap>>, headers: HeaderMap| {
                        sitemap_part(files, headers, part - 1)
                    },
                ),
            );
        }
    }
    router.with_state(files)
}

/// `/robots.txt`, written once; the sitemap's index, written once when it has parts; and
/// what the sitemap's files are written from, when a crawler asks.
pub struct RobotsAndSitemap {
    robots: Bytes,
    sitemap: Arc<Sitemap>,
    /// The index and its gzip, when the URLs take several files.
    index: Option<(Bytes, Bytes)>,
}

impl RobotsAndSitemap {
    pub fn new(origin: &Origin, sitemap: Sitemap, no_index: bool) -> Self {
        let robots = if no_index {
            "User-agent: *\nDisallow: /\n".to_string()
        } else {
            format!(
                "User-agent: *\nAllow: /\n\nSitemap: {}\n",
                origin.url("/sitemap.xml")
            )
        };
        let index = sitemap.index().map(|index| {
            let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            gzip.write_all(index.as_bytes()).expect("in-memory gzip");
            (index.into(), gzip.finish().expect("in-memory gzip").into())
        });
        Self {
            robots: robots.into(),
            sitemap: Arc::new(sitemap),
            index,
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

/// The index, or the one file when the URLs fit in one.
async fn sitemap_xml(State(files): State<Arc<RobotsAndSitemap>>, headers: HeaderMap) -> Response {
    match &files.index {
        Some((plain, gzip)) => match takes_gzip(&headers) {
            true => xml_answer(Body::from(gzip.clone()), true),
            false => xml_answer(Body::from(plain.clone()), false),
        },
        None => sitemap_part(State(files), headers, 0).await,
    }
}

/// Part `part` (from 0), written as it is sent.
async fn sitemap_part(
    State(files): State<Arc<RobotsAndSitemap>>,
    headers: HeaderMap,
    part: usize,
) -> Response {
    let gzip = takes_gzip(&headers);
    let chunks = sitemap::Chunks::new(files.sitemap.clone(), part, gzip);
    let stream = futures_util::stream::iter(chunks.map(Ok::<_, std::convert::Infallible>));
    xml_answer(Body::from_stream(stream), gzip)
}

/// An XML answer any cache may keep an hour, in gzip or not.
fn xml_answer(body: Body, gzip: bool) -> Response {
    let mut response = body.into_response();
    let answer = response.headers_mut();
    if gzip {
        answer.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
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
