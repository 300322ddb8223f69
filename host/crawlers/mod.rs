//! What crawlers read, and how they are told apart from people. Each origin the site is
//! served at (its own, and a language's: `placement`) has its `/robots.txt`, written once
//! at start-up and served from memory, and its sitemap ([`sitemap`]) of the pages it
//! serves: `/sitemap.xml`, one file or the index of its parts, each part written as it is
//! sent. `--no-index` (staging) disallows everything and marks every answer
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
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::accept_encoding::takes_gzip;
use crate::manifest::{DeclaredRoute, SitemapRoute};
use crate::placement::Placement;

/// `/robots.txt`, `/sitemap.xml` and, when the sitemap is an index, its parts
/// (`/sitemap-1.xml`…), from what [`RobotsAndSitemap`] holds.
pub fn routes(files: Arc<RobotsAndSitemap>) -> Router {
    let mut router = Router::new()
        .route("/robots.txt", get(robots_txt))
        .route("/sitemap.xml", get(sitemap_xml));
    let most_parts = (files.origins.iter())
        .filter(|files| files.index.is_some())
        .map(|files| files.sitemap.parts())
        .max()
        .unwrap_or(0);
    for part in 1..=most_parts {
        router = router.route(
            &sitemap::part_path(part),
            get(
                move |files: State<Arc<RobotsAndSitemap>>, uri: Uri, headers: HeaderMap| {
                    sitemap_part(files, uri, headers, part - 1)
                },
            ),
        );
    }
    router.with_state(files)
}

/// `/robots.txt`, written once; the sitemap's index, written once when it has parts; and
/// what the sitemap's files are written from, when a crawler asks.
pub struct RobotsAndSitemap {
    placement: Placement,
    /// By origin, in the order of [`Placement::origins`]: the site's first.
    origins: Vec<OriginFiles>,
}

/// One origin's files.
struct OriginFiles {
    robots: Bytes,
    sitemap: Arc<Sitemap>,
    /// The index and its gzip, when the URLs take several files.
    index: Option<(Bytes, Bytes)>,
}

impl RobotsAndSitemap {
    /// Each origin's files, its sitemap that of the pages `listed` of the routes `declared`.
    pub fn new(
        placement: &Placement,
        (declared, listed, built_at): (&[DeclaredRoute], &[SitemapRoute], &str),
        no_index: bool,
    ) -> Result<Self, String> {
        let origins = placement
            .origins()
            .map(|origin| {
                let sitemap = Sitemap::new(placement, origin, declared, listed, built_at)?;
                let robots = if no_index {
                    "User-agent: *\nDisallow: /\n".to_string()
                } else {
                    format!(
                        "User-agent: *\nAllow: /\n\nSitemap: {}\n",
                        origin.url("/sitemap.xml")
                    )
                };
                let index = sitemap.index().map(|index| {
                    let mut gzip =
                        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                    gzip.write_all(index.as_bytes()).expect("in-memory gzip");
                    (index.into(), gzip.finish().expect("in-memory gzip").into())
                });
                Ok(OriginFiles {
                    robots: robots.into(),
                    sitemap: Arc::new(sitemap),
                    index,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(Self {
            placement: placement.clone(),
            origins,
        })
    }

    /// The files of the origin a request was sent to (the site's, for any other).
    fn at(&self, uri: &Uri, headers: &HeaderMap) -> &OriginFiles {
        let Some(language) = self.placement.own_language_of(uri, headers) else {
            return &self.origins[0];
        };
        let own = self.placement.origin_of(language);
        let at = self.placement.origins().position(|origin| origin == own);
        &self.origins[at.unwrap_or(0)]
    }
}

async fn robots_txt(
    State(files): State<Arc<RobotsAndSitemap>>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let files = files.at(&uri, &headers);
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
async fn sitemap_xml(
    State(files): State<Arc<RobotsAndSitemap>>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    match &files.at(&uri, &headers).index {
        Some((plain, gzip)) => match takes_gzip(&headers) {
            true => xml_answer(Body::from(gzip.clone()), true),
            false => xml_answer(Body::from(plain.clone()), false),
        },
        None => sitemap_part(State(files), uri, headers, 0).await,
    }
}

/// Part `part` (from 0) of the origin's sitemap, written as it is sent; none past its last
/// (another origin's sitemap may have more parts).
async fn sitemap_part(
    State(files): State<Arc<RobotsAndSitemap>>,
    uri: Uri,
    headers: HeaderMap,
    part: usize,
) -> Response {
    let files = files.at(&uri, &headers);
    let whole = part == 0 && files.index.is_none();
    if !whole && (files.index.is_none() || part >= files.sitemap.parts()) {
        return StatusCode::NOT_FOUND.into_response();
    }
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
