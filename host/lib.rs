//! Bilingue's host. `main.rs` reads the configuration, starts V8 and serves; the tests call
//! [`app`] the same way. The path of a page request: `server` (accept loop, limits) →
//! `security`, `ops` (layers) → `site` (language, cache, render) → `render` (V8) → `page`
//! (the document).

mod api;
pub mod assets;
pub mod config;
mod error;
mod escape;
pub mod lang;
pub mod nonce;
mod ops;
mod page;
pub mod page_cache;
mod proxy;
pub mod render;
mod security;
pub mod server;
mod site;
mod spliced_gzip;
mod state;

use std::sync::Arc;

use axum::routing::{any, get};
use axum::{Router, middleware};
use tower_http::compression::CompressionLayer;

pub use state::{AppState, StartError};

pub fn app(state: Arc<AppState>) -> Router {
    let pages = Router::new()
        .fallback(site::serve)
        .layer(CompressionLayer::new());
    let router = Router::new()
        .route(&format!("{}{{name}}", assets::PREFIX), get(assets::serve))
        .route("/healthz", get(ops::healthz))
        .route("/readyz", get(ops::readyz))
        .route("/metrics", get(ops::metrics));
    let router = match state.upstream.clone() {
        Some(upstream) => {
            let forwarded = Router::new()
                .route("/api", any(proxy::forward))
                .route("/api/{*rest}", any(proxy::forward))
                .with_state(upstream);
            router
                .merge(pages)
                .with_state(state.clone())
                .merge(forwarded)
        }
        None => router
            .merge(api::built_in())
            .merge(pages)
            .with_state(state.clone()),
    };
    // Outermost last: every answer, refusals included, is counted and carries the headers.
    router
        .layer(middleware::from_fn_with_state(
            state.lifecycle.clone(),
            server::limits::check_request,
        ))
        .layer(middleware::from_fn_with_state(state, ops::observe))
        .layer(middleware::from_fn(security::add_headers))
}
