//! The client assets, embedded at build time (see `build.rs`): served under one prefix
//! with content-hashed names, precompressed (brotli, gzip) and cached for good.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::encoding::{Encoding, negotiate};

/// The URL prefix every asset is served under.
pub const PREFIX: &str = "/assets/";

pub struct Asset {
    pub name: &'static str,
    pub content_type: &'static str,
    pub raw: &'static [u8],
    pub gzip: &'static [u8],
    pub brotli: &'static [u8],
}

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

static BY_NAME: LazyLock<HashMap<&'static str, &'static Asset>> =
    LazyLock::new(|| ASSETS.iter().map(|a| (a.name, a)).collect());

pub fn find(name: &str) -> Option<&'static Asset> {
    BY_NAME.get(name).copied()
}

/// What esbuild's metafile says the document needs (written by `app/build.mjs`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// The client entry module.
    pub entry: String,
    pub css: Vec<String>,
    /// Chunks the entry imports statically.
    pub preload: Vec<String>,
    /// Per language code: the chunks of its translation table and date locale.
    pub language_chunks: HashMap<String, Vec<String>>,
    pub icon: String,
    /// When the app was built (RFC 3339): the sitemap's `lastmod`.
    pub built_at: String,
    /// The paths the app declares indexable.
    pub sitemap: Vec<String>,
    /// The crawler user agents (isbot's list).
    pub crawlers: crate::crawlers::CrawlerList,
    /// `languages.json`, as the build read it.
    pub declared: serde_json::Value,
    /// Development builds: the script that reloads the page and shows problems.
    #[serde(default)]
    pub dev_client: Option<String>,
}

pub static MANIFEST_PARSED: LazyLock<Manifest> =
    LazyLock::new(|| serde_json::from_str(MANIFEST).expect("build.rs embeds a valid manifest"));

impl Manifest {
    /// A manifest the development loop wrote.
    pub fn read(path: &std::path::Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

pub use crate::content_type::content_type;

const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");

pub async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    let Some(asset) = find(&name) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CACHE_CONTROL, "no-store")],
            "no such asset",
        )
            .into_response();
    };
    let encoding = negotiate(&headers, true, true);
    let body = match encoding {
        Encoding::Brotli => asset.brotli,
        Encoding::Gzip => asset.gzip,
        Encoding::Identity => asset.raw,
    };
    let mut response = body.into_response();
    let response_headers = response.headers_mut();
    response_headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    response_headers.insert(header::CACHE_CONTROL, IMMUTABLE);
    response_headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Some(coding) = encoding.header_value() {
        response_headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_manifest_file_is_embedded() {
        let manifest = &*MANIFEST_PARSED;
        let named = std::iter::once(&manifest.entry)
            .chain(&manifest.css)
            .chain(&manifest.preload)
            .chain(std::iter::once(&manifest.icon))
            .chain(manifest.language_chunks.values().flatten());
        for name in named {
            assert!(
                find(name).is_some(),
                "{name} is in the manifest but not embedded"
            );
        }
    }
}
