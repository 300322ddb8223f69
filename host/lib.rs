//! Bilingue's host: the router and the state it serves from. `main.rs` only reads the
//! configuration, starts the render threads and serves; the tests call [`app`] the same way.

mod api;
pub mod assets;
pub mod config;
mod error;
mod escape;
pub mod lang;
mod page;
pub mod page_cache;
mod proxy;
pub mod render;
mod site;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{any, get};
use tower_http::compression::CompressionLayer;

use crate::config::Config;
use crate::lang::Language;
use crate::page::DocumentAssets;
use crate::page_cache::PageCache;
use crate::proxy::Upstream;
use crate::render::{Bundle, PoolOptions, RenderError, RenderPool, RenderRequest};

/// What every request is served from; built once at start-up.
pub struct AppState {
    pub pool: RenderPool,
    pub time_zone: String,
    document: DocumentAssets,
    upstream: Option<Upstream>,
    pub pages: PageCache,
}

/// Why the host could not start; each message names the option or step to fix.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(
        "the render threads could not start: {0} (check --time-zone, or rebuild if the server bundle is broken)"
    )]
    Render(#[from] RenderError),
    #[error("{0}")]
    Option(String),
}

impl AppState {
    /// Starts the render threads (each renders the home page once) and prepares the
    /// document parts. Call [`render::init_v8`] first, on the main thread.
    pub fn start(config: &Config) -> Result<Arc<Self>, StartError> {
        let upstream = match &config.api_upstream {
            Some(base) => Some(
                Upstream::new(base, Duration::from_secs(config.api_timeout))
                    .map_err(StartError::Option)?,
            ),
            None => None,
        };
        let pool = RenderPool::start(PoolOptions {
            bundle: Bundle::Snapshot(assets::SERVER_SNAPSHOT),
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
            upstream,
            pages: PageCache::new(config.page_cache_entries),
        }))
    }
}

pub fn app(state: Arc<AppState>) -> Router {
    let pages = Router::new()
        .fallback(site::serve)
        .layer(CompressionLayer::new());
    let router = Router::new().route(&format!("{}{{name}}", assets::PREFIX), get(assets::serve));
    match state.upstream.clone() {
        Some(upstream) => {
            let forwarded = Router::new()
                .route("/api", any(proxy::forward))
                .route("/api/{*rest}", any(proxy::forward))
                .with_state(upstream);
            router.merge(pages).with_state(state).merge(forwarded)
        }
        None => router.merge(api::built_in()).merge(pages).with_state(state),
    }
}
