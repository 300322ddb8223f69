//! Bilingue's host: the router and the state it serves from. `main.rs` only reads the
//! configuration, starts the render threads and serves; the tests call [`app`] the same way.

pub mod assets;
pub mod config;
mod error;
mod escape;
pub mod lang;
mod page;
pub mod render;
mod site;

use std::sync::Arc;

use axum::Router;
use axum::routing::get;
use tower_http::compression::CompressionLayer;

use crate::config::Config;
use crate::lang::Language;
use crate::page::DocumentAssets;
use crate::render::{PoolOptions, RenderError, RenderPool, RenderRequest};

/// What every request is served from; built once at start-up.
pub struct AppState {
    pub pool: RenderPool,
    pub time_zone: String,
    document: DocumentAssets,
}

impl AppState {
    /// Starts the render threads (each renders the home page once) and prepares the
    /// document parts. Call [`render::init_v8`] first, on the main thread.
    pub fn start(config: &Config) -> Result<Arc<Self>, RenderError> {
        let pool = RenderPool::start(PoolOptions {
            bundle: assets::SERVER_BUNDLE,
            threads: config.render_threads(),
            queue: config.render_queue,
            warm_up: RenderRequest {
                language: Language::default_language().code(),
                path: "/".into(),
                time_zone: config.time_zone.clone(),
            },
        })?;
        Ok(Arc::new(Self {
            pool,
            time_zone: config.time_zone.clone(),
            document: DocumentAssets::from_manifest(),
        }))
    }
}

pub fn app(state: Arc<AppState>) -> Router {
    let pages = Router::new()
        .fallback(site::serve)
        .layer(CompressionLayer::new());
    Router::new()
        .route(&format!("{}{{name}}", assets::PREFIX), get(assets::serve))
        .merge(pages)
        .with_state(state)
}
