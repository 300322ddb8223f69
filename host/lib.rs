//! Bilingue's host. `main.rs` reads the configuration, starts V8 and serves; the tests call
//! [`app`] the same way. A page request goes: `server` (accept loop, connection watch,
//! wire limits) → the layers (`security`, `metrics`) → `pages` (language, page cache) →
//! `render` (V8) → `document` (the HTML). `/api` is `api` (built in, or `api::proxy`).

mod api;
mod assets;
pub mod config;
#[path = "content_type.rs"]
mod content_type;
mod crawlers;
mod dev;
mod document;
mod encoding;
mod error;
mod escape;
mod health;
mod lang;
pub mod logging;
mod metrics;
mod nonce;
mod origin;
mod page_cache;
mod page_encoding;
mod pages;
pub mod render;
mod security;
pub mod server;
mod spliced_gzip;
mod state;
#[cfg(test)]
mod test_support;

use std::sync::Arc;

use axum::routing::get;
use axum::{Router, middleware};

pub use state::{AppState, StartError};

/// Development mode: the list of languages comes from the app's build folder, and must be
/// read before anything asks for a language. Then watch the folder for new builds.
pub fn declare_dev_languages(dir: &std::path::Path) -> Result<(), String> {
    let manifest = assets::Manifest::read(&dir.join("manifest.json"))?;
    lang::declare(&manifest.declared.to_string())
}

/// Development mode: takes up every new build of the app (see `dev`).
pub fn watch_dev_builds(state: &Arc<AppState>) {
    if state.dev.is_some() {
        dev::watch_builds(state.clone());
    }
}

/// `/metrics`, for its own listener (`--metrics-bind`): what a scraper reads is no
/// visitor's business.
pub fn metrics_app(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/metrics", get(metrics::metrics))
        .with_state(state)
        .layer(middleware::from_fn(security::add_headers))
}

pub fn app(state: Arc<AppState>) -> Router {
    // Pages choose their own coding (page_encoding.rs); nothing compresses per request.
    let pages = Router::new().fallback(pages::page);
    let assets = if state.dev.is_some() {
        get(dev::asset)
    } else {
        get(assets::asset)
    };
    let router = Router::new()
        .route(&format!("{}{{name}}", assets::PREFIX), assets)
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/robots.txt", get(crawlers::robots_txt))
        .route("/sitemap.xml", get(crawlers::sitemap_xml))
        .merge(pages);
    let router = if state.dev.is_some() {
        router
            .route("/_bilingue/events", get(dev::events))
            .layer(middleware::from_fn(dev::no_store))
    } else {
        router
    };
    let router = router.with_state(state.clone()).merge(state.api.clone());
    let no_index = state.no_index;
    // Outermost last: every answer, refusals included, is counted and carries the headers.
    let router = router
        .layer(middleware::from_fn_with_state(
            state.lifecycle.clone(),
            server::limits::check_request,
        ))
        .layer(middleware::from_fn_with_state(state, metrics::observe))
        .layer(middleware::from_fn(security::add_headers));
    if no_index {
        router.layer(middleware::from_fn(crawlers::no_index))
    } else {
        router
    }
}
