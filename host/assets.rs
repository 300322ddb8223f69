//! The client assets, embedded at build time (see `build.rs`): served under one prefix
//! with content-hashed names, precompressed (brotli, gzip) and cached for good.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

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
pub struct Manifest {
    /// The client entry module.
    pub entry: String,
    pub css: Vec<String>,
    /// Chunks the entry imports statically.
    pub preload: Vec<String>,
    /// Per language code: the chunks of its translation table and date locale.
    pub languages: HashMap<String, Vec<String>>,
    pub icon: String,
}

pub static MANIFEST_PARSED: LazyLock<Manifest> =
    LazyLock::new(|| serde_json::from_str(MANIFEST).expect("build.rs embeds a valid manifest"));

const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");

pub async fn serve(Path(name): Path<String>, headers: HeaderMap) -> Response {
    let Some(asset) = find(&name) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CACHE_CONTROL, "no-store")],
            "no such asset",
        )
            .into_response();
    };
    let (body, encoding) = match preferred_encoding(&headers) {
        Encoding::Brotli => (asset.brotli, Some("br")),
        Encoding::Gzip => (asset.gzip, Some("gzip")),
        Encoding::Identity => (asset.raw, None),
    };
    let mut response = body.into_response();
    let response_headers = response.headers_mut();
    response_headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    response_headers.insert(header::CACHE_CONTROL, IMMUTABLE);
    response_headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Some(encoding) = encoding {
        response_headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    response
}

#[derive(Debug, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

/// Which codings the client takes, from `Accept-Encoding` (`q=0` refuses one).
pub struct Accepted {
    pub brotli: bool,
    pub gzip: bool,
}

pub fn accepted_encodings(headers: &HeaderMap) -> Accepted {
    let mut brotli = false;
    let mut gzip = false;
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or_default().trim();
            let refused = parts.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            if refused {
                continue;
            }
            match coding.to_ascii_lowercase().as_str() {
                "br" => brotli = true,
                "gzip" | "x-gzip" => gzip = true,
                "*" => {
                    brotli = true;
                    gzip = true;
                }
                _ => {}
            }
        }
    }
    Accepted { brotli, gzip }
}

/// Brotli, else gzip, else none: as far as `Accept-Encoding` allows.
pub fn preferred_encoding(headers: &HeaderMap) -> Encoding {
    let Accepted { brotli, gzip } = accepted_encodings(headers);
    if brotli {
        Encoding::Brotli
    } else if gzip {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepting(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        headers
    }

    #[test]
    fn brotli_is_preferred_when_accepted() {
        assert_eq!(
            preferred_encoding(&accepting("gzip, deflate, br")),
            Encoding::Brotli
        );
    }

    #[test]
    fn a_zero_quality_refuses_an_encoding() {
        assert_eq!(
            preferred_encoding(&accepting("br;q=0, gzip")),
            Encoding::Gzip
        );
        assert_eq!(
            preferred_encoding(&accepting("gzip;q=0")),
            Encoding::Identity
        );
    }

    #[test]
    fn no_header_means_identity() {
        assert_eq!(preferred_encoding(&HeaderMap::new()), Encoding::Identity);
    }

    #[test]
    fn every_manifest_file_is_embedded() {
        let manifest = &*MANIFEST_PARSED;
        let named = std::iter::once(&manifest.entry)
            .chain(&manifest.css)
            .chain(&manifest.preload)
            .chain(std::iter::once(&manifest.icon))
            .chain(manifest.languages.values().flatten());
        for name in named {
            assert!(
                find(name).is_some(),
                "{name} is in the manifest but not embedded"
            );
        }
    }
}
