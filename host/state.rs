//! What every request is served from, built once at start-up: the render threads, the
//! document parts, the page cache, the API (built in or an upstream), the counters.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use axum::Router;

use crate::api::{self, LoaderCalls, proxy::Upstream};
use crate::assets::{self, MANIFEST_PARSED, Manifest};
use crate::config::Config;
use crate::crawlers::{CrawlerTest, SearchFiles};
use crate::dev::Dev;
use crate::document::DocumentAssets;
use crate::lang::Language;
use crate::metrics::Metrics;
use crate::origin::Origin;
use crate::page_cache::PageCache;
use crate::render::{BootState, Bundle, Limits, PoolOptions, RenderError, RenderPool};
use crate::server::Lifecycle;

pub struct AppState {
    pub pool: RenderPool,
    pub time_zone: Arc<str>,
    /// The files the document names; a new build replaces them in development.
    document: RwLock<Arc<DocumentAssets>>,
    /// Development mode (`--dev`), where everything comes from the app's build folder.
    pub dev: Option<Dev>,
    /// The `/api` routes, which the app serves and pages' loaders call.
    pub api: Router,
    /// How long a page's loader may wait for its data.
    pub load_timeout: Duration,
    /// Where visitors reach the site: every absolute URL starts with it.
    pub origin: Origin,
    pub crawlers: CrawlerTest,
    /// `/robots.txt` and `/sitemap.xml`.
    pub search: SearchFiles,
    pub no_index: bool,
    pub pages: PageCache,
    pub metrics: Metrics,
    pub lifecycle: Arc<Lifecycle>,
    pub access_log: bool,
}

/// Why the host could not start; each message names the option or step to fix.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("the render threads could not be started: {0}")]
    Render(#[from] RenderError),
    #[error(
        "the render threads could not start: {0} (check --time-zone, or rebuild if the server bundle is broken)"
    )]
    WarmUp(String),
    #[error("{0}")]
    Option(String),
}

impl AppState {
    /// Checks the options and starts the render threads, which warm up in the background:
    /// await [`AppState::warmed`] before relying on them. `port` is the one the host listens
    /// on (the public URL's default). Call [`crate::render::init_v8`] first, on the main
    /// thread, and this inside the tokio runtime that will serve: pages' API calls are made
    /// on it.
    pub fn start(config: &Config, port: u16) -> Result<Arc<Self>, StartError> {
        let origin = match &config.public_url {
            Some(url) => Origin::parse(url).map_err(StartError::Option)?,
            None => Origin::localhost(port),
        };
        let upstream = match &config.api_upstream {
            Some(base) => Some(
                Upstream::new(base, config.api_timeout, config.api_idle_timeout, &origin)
                    .map_err(StartError::Option)?,
            ),
            None => None,
        };
        let dev = config.dev.clone().map(Dev::new);
        let dev_manifest;
        let manifest: &Manifest = match &dev {
            Some(dev) => {
                dev_manifest = dev.manifest().map_err(StartError::Option)?;
                &dev_manifest
            }
            None => &MANIFEST_PARSED,
        };
        let crawlers = CrawlerTest::new(&manifest.crawlers).map_err(StartError::Option)?;
        let search = SearchFiles::new(
            &origin,
            &manifest.sitemap,
            &manifest.built_at,
            config.no_index,
        );
        let bundle = match (&dev, &config.server_bundle) {
            (Some(dev), _) => dev.bundle().map_err(StartError::Option)?,
            (None, Some(path)) => Bundle::Script(
                std::fs::read_to_string(path)
                    .map_err(|e| {
                        StartError::Option(format!("--server-bundle {}: {e}", path.display()))
                    })?
                    .into(),
            ),
            (None, None) => Bundle::Snapshot(assets::SERVER_SNAPSHOT),
        };
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            StartError::Option("the host must start inside the tokio runtime that serves".into())
        })?;
        let api = api::router(upstream);
        let metrics = Metrics::new();
        let time_zone: Arc<str> = config.time_zone.as_str().into();
        let pool = RenderPool::start(PoolOptions {
            bundle,
            limits: Limits {
                timeout: config.render_timeout,
                heap_bytes: (config.render_heap_mb << 20) as usize,
            },
            threads: config.render_threads(),
            queue: config.render_queue,
            // Each language's home page: its title is the one a client-rendered page carries.
            warm_up: Language::all()
                .map(|language| BootState {
                    language,
                    path: "/".into(),
                    time_zone: time_zone.clone(),
                    data: None,
                })
                .collect(),
            warm_up_timeout: config.warm_up_timeout,
            render_seconds: metrics.render_seconds(),
            api: Arc::new(LoaderCalls {
                api: api.clone(),
                runtime,
                load_timeout: config.load_timeout,
            }),
        })?;
        Ok(Arc::new(Self {
            pool,
            time_zone,
            document: RwLock::new(Arc::new(DocumentAssets::from_manifest(manifest))),
            api,
            load_timeout: config.load_timeout,
            origin,
            crawlers,
            search,
            no_index: config.no_index,
            // A page from one build must not outlive it, and in development every save is one.
            pages: PageCache::new(if dev.is_some() {
                0
            } else {
                config.page_cache_entries
            }),
            dev,
            metrics,
            lifecycle: Arc::default(),
            access_log: config.access_log,
        }))
    }

    /// The files the document names, for this page.
    pub fn document(&self) -> Arc<DocumentAssets> {
        self.document.read().expect("document lock").clone()
    }

    /// Development: a new build's files.
    pub fn set_document(&self, document: DocumentAssets) {
        *self.document.write().expect("document lock") = Arc::new(document);
    }

    /// Resolves once every render thread has warmed up; fails with the bundle's reason.
    pub async fn warmed(&self) -> Result<(), StartError> {
        self.pool.warmed().await.map_err(StartError::WarmUp)
    }

    /// The title and description a client-rendered page carries in `language`: its home
    /// page's.
    pub fn shell_text(&self, language: Language) -> (&str, &str) {
        self.pool
            .warm_up_pages()
            .and_then(|pages| pages.get(language.index()))
            .map_or(("Bilingue", ""), |page| (&page.title, &page.description))
    }
}
