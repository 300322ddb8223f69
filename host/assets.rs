//! The client assets, embedded at build time (see `build.rs`): served under one prefix
//! with content-hashed names, precompressed (brotli, gzip) and cached for good.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::accept_encoding::{Encoding, brotli_or_gzip};

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

pub use crate::content_type::content_type;

const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");

/// `/assets/{name}`: the embedded assets.
pub fn routes() -> Router {
    Router::new().route(&format!("{PREFIX}{{name}}"), get(asset))
}

async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    let Some(asset) = find(&name) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CACHE_CONTROL, "no-store")],
            "no such asset",
        )
            .into_response();
    };
    let encoding = brotli_or_gzip(&headers);
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
        let manifest = &*crate::manifest::EMBEDDED;
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
