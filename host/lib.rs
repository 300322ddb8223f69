//! Bilingue's host: the router and the state it serves from. `main.rs` only reads the
//! configuration, starts the render threads and serves; the tests call [`app`] the same way.

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
pub mod server;
mod site;
mod spliced_gzip;

use std::sync::Arc;
use std::time::Duration;

use axum::routing::{any, get};
use axum::{Router, middleware};
use tower_http::compression::CompressionLayer;

use crate::config::Config;
use crate::lang::Language;
use crate::page::DocumentAssets;
use crate::page_cache::PageCache;
use crate::proxy::Upstream;
use crate::render::{Bundle, Limits, PoolOptions, RenderError, RenderPool, RenderRequest};

/// What every request is served from; built once at start-up.
pub struct AppState {
    pub pool: RenderPool,
    pub time_zone: String,
    document: DocumentAssets,
    upstream: Option<Upstream>,
    pub pages: PageCache,
    /// Per language, the title a client-rendered shell carries (the home page's).
    shell_titles: std::collections::HashMap<&'static str, String>,
    requests: ops::RequestCounts,
    pub lifecycle: Arc<server::Lifecycle>,
    access_log: bool,
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
        let bundle = match &config.server_bundle {
            Some(path) => Bundle::Script(
                std::fs::read_to_string(path)
                    .map_err(|e| {
                        StartError::Option(format!("--server-bundle {}: {e}", path.display()))
                    })?
                    .into(),
            ),
            None => Bundle::Snapshot(assets::SERVER_SNAPSHOT),
        };
        let pool = RenderPool::start(PoolOptions {
            bundle,
            limits: Limits {
                timeout: config.render_timeout,
                heap_bytes: config.render_heap_mb << 20,
            },
            threads: config.render_threads(),
            queue: config.render_queue,
            warm_up: RenderRequest {
                language: Language::default_language().code(),
                path: "/".into(),
                time_zone: config.time_zone.clone(),
            },
        })?;
        let shell_titles = shell_titles(&pool, &config.time_zone)?;
        Ok(Arc::new(Self {
            pool,
            time_zone: config.time_zone.clone(),
            document: DocumentAssets::from_manifest(),
            upstream,
            pages: PageCache::new(config.page_cache_entries),
            shell_titles,
            requests: ops::RequestCounts::default(),
            lifecycle: Arc::default(),
            access_log: config.access_log,
        }))
    }
}

/// Renders each language's home page once to learn the titles a shell carries.
fn shell_titles(
    pool: &RenderPool,
    time_zone: &str,
) -> Result<std::collections::HashMap<&'static str, String>, StartError> {
    let tokio = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|e| StartError::Option(format!("no tokio runtime: {e}")))?;
    let mut titles = std::collections::HashMap::new();
    for language in Language::all() {
        let request = RenderRequest {
            language: language.code(),
            path: "/".into(),
            time_zone: time_zone.into(),
        };
        let rendered = tokio.block_on(pool.render(&request))?;
        titles.insert(language.code(), rendered.title);
    }
    Ok(titles)
}

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
    router
        .layer(middleware::from_fn(ops::security_headers))
        .layer(middleware::from_fn_with_state(state, ops::observe))
}
