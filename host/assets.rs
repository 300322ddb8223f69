//! The client assets: this build's, embedded at build time (see `build.rs`) or read from a
//! build folder (`--app-build`), then those of earlier builds (`--previous-assets`), so a
//! page an edge or a browser still holds from the previous build finds its scripts after a
//! deploy. All served under one prefix with content-hashed names, precompressed (brotli,
//! gzip) and cached for good.

mod folder;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::accept_encoding::{Encoding, brotli_or_gzip, takes_gzip};
use crate::purge_keys::Keys;
pub use folder::{Folder, write_embedded};

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

/// Where assets are looked for, in order.
#[derive(Default)]
pub struct Store {
    /// This build's, from a build folder; `None`: the embedded ones.
    pub current: Option<Folder>,
    /// Earlier builds'.
    pub previous: Folder,
}

/// `/assets/{name}`: this build's assets, then earlier builds'.
pub fn routes(store: Arc<Store>) -> Router {
    Router::new()
        .route(&format!("{PREFIX}{{name}}"), get(asset))
        .with_state(store)
}

async fn asset(
    State(store): State<Arc<Store>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    let encoding = brotli_or_gzip(&headers);
    let gzip_taken = takes_gzip(&headers);
    let embedded = || {
        find(&name).map(|asset| {
            let body = match encoding {
                Encoding::Brotli => asset.brotli,
                Encoding::Gzip => asset.gzip,
                Encoding::Identity => asset.raw,
            };
            (asset.content_type, Body::from(body), encoding)
        })
    };
    let current = match &store.current {
        None => embedded(),
        Some(folder) => folder
            .find(&name)
            .await
            .map(|asset| from_folder(&asset, encoding, gzip_taken)),
    };
    // An earlier build's asset is named by the builds it belongs to, not by ours.
    let previous = match current {
        Some(_) => None,
        None => store.previous.find(&name).await.map(|asset| {
            (
                from_folder(&asset, encoding, gzip_taken),
                Keys::of_earlier_asset(&asset.builds),
            )
        }),
    };
    let (mut response, keys) = match (current, previous) {
        (Some(found), _) => (answer(found), None),
        (None, Some((found, keys))) => (answer(found), Some(keys)),
        (None, None) => {
            return (
                StatusCode::NOT_FOUND,
                [(header::CACHE_CONTROL, "no-store")],
                "no such asset",
            )
                .into_response();
        }
    };
    if let Some(keys) = keys {
        response.extensions_mut().insert(keys);
    }
    response
}

fn from_folder(
    asset: &folder::Loaded,
    encoding: Encoding,
    gzip_taken: bool,
) -> (&'static str, Body, Encoding) {
    // A folder may lack brotli: gzip then, if the client takes it.
    let (body, encoding) = match (encoding, &asset.brotli) {
        (Encoding::Brotli, Some(brotli)) => (brotli.clone(), Encoding::Brotli),
        (Encoding::Gzip, _) | (Encoding::Brotli, None) if gzip_taken => {
            (asset.gzip.clone(), Encoding::Gzip)
        }
        _ => (asset.raw.clone(), Encoding::Identity),
    };
    (asset.content_type, Body::from(body), encoding)
}

fn answer((content_type, body, encoding): (&'static str, Body, Encoding)) -> Response {
    let mut response = body.into_response();
    let response_headers = response.headers_mut();
    response_headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
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
