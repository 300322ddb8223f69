//! Start-up: from the options to everything the routes are served from. It checks the
//! options, reads the build (embedded, or the development folder), starts the render
//! threads (they warm up in the background) and makes each route family's state; `lib.rs`
//! composes the routes from them.

use std::sync::Arc;

use axum::Router;

use crate::api::{self, LoaderCalls, proxy::Upstream};
use crate::assets;
use crate::config::Config;
use crate::crawlers::{CrawlerTest, RobotsAndSitemap};
use crate::dev::Dev;
use crate::lang::Language;
use crate::manifest::{self, Manifest};
use crate::metrics::{Metrics, Observe, Scrape};
use crate::origin::Origin;
use crate::pages::{Freshness, PageBuild, PageCache, Pages, Site};
use crate::purge_keys::{PurgeKeys, build_id};
use crate::render::{BootState, Bundle, Limits, PoolOptions, RenderError, RenderPool};
use crate::server::Lifecycle;
use crate::trace::{self, Exporter, Tracing};

/// The host, started: what its routes are made of.
pub struct Host {
    pub(crate) pool: Arc<RenderPool>,
    pub(crate) pages: Arc<Pages>,
    pub(crate) api: Router,
    pub(crate) search: Arc<RobotsAndSitemap>,
    pub(crate) metrics: Arc<Metrics>,
    pub(crate) lifecycle: Arc<Lifecycle>,
    pub(crate) dev: Option<Arc<Dev>>,
    pub(crate) no_index: bool,
    pub(crate) access_log: bool,
    pub(crate) purge_keys: Arc<PurgeKeys>,
    pub(crate) assets: Arc<assets::Store>,
    pub(crate) tracing: Tracing,
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
    /// An option's value that cannot be served; the message names the option.
    #[error("{0}")]
    Option(String),
    /// The app's build (its manifest, its server bundle) could not be read.
    #[error("the app's build: {0}")]
    Build(String),
    #[error("the host must start inside the tokio runtime that serves")]
    NoRuntime,
}

impl Host {
    /// Checks the options and starts the render threads, which warm up in the background:
    /// await [`Host::warmed`] before relying on them. `port` is the one the host listens
    /// on (the public URL's default). Call [`crate::render::init_v8`] first, on the main
    /// thread, and this inside the tokio runtime that will serve: pages' API calls are made
    /// on it.
    pub fn start(config: &Config, port: u16) -> Result<Self, StartError> {
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
        let exporter = match &config.otlp_endpoint {
            Some(endpoint) => {
                let url = trace::traces_url(endpoint).map_err(StartError::Option)?;
                Some(Exporter::start(&url, trace::EXPORT_TIMEOUT).map_err(StartError::Option)?)
            }
            None => None,
        };
        let dev = config.dev.clone().map(|dir| Arc::new(Dev::new(dir)));
        let dev_manifest;
        let manifest_text = match &config.app_build {
            Some(dir) => {
                let path = dir.join("manifest.json");
                std::fs::read_to_string(&path).map_err(|e| {
                    StartError::Option(format!("--app-build: {}: {e}", path.display()))
                })?
            }
            None => manifest::MANIFEST.to_string(),
        };
        let manifest: &Manifest = match (&dev, &config.app_build) {
            (Some(dev), _) => {
                dev_manifest = dev.manifest().map_err(StartError::Build)?;
                &dev_manifest
            }
            (None, Some(_)) => {
                dev_manifest = serde_json::from_str(&manifest_text)
                    .map_err(|e| StartError::Build(format!("--app-build: manifest.json: {e}")))?;
                &dev_manifest
            }
            (None, None) => &manifest::EMBEDDED,
        };
        let assets = assets_of(config)?;
        let crawlers = CrawlerTest::new(&manifest.crawlers).map_err(StartError::Build)?;
        let search = RobotsAndSitemap::new(
            &origin,
            &manifest.sitemap,
            &manifest.built_at,
            config.no_index,
        );
        let bundle = match (&dev, &config.server_bundle) {
            (Some(dev), _) => dev.bundle().map_err(StartError::Build)?,
            (None, None) if config.app_build.is_some() => {
                let path = config
                    .app_build
                    .as_ref()
                    .expect("just seen")
                    .join("server.js");
                Bundle::Script(
                    std::fs::read_to_string(&path)
                        .map_err(|e| {
                            StartError::Option(format!("--app-build: {}: {e}", path.display()))
                        })?
                        .into(),
                )
            }
            (None, Some(path)) => Bundle::Script(
                std::fs::read_to_string(path)
                    .map_err(|e| {
                        StartError::Option(format!("--server-bundle {}: {e}", path.display()))
                    })?
                    .into(),
            ),
            (None, None) => Bundle::Snapshot(assets::SERVER_SNAPSHOT),
        };
        let build = match &bundle {
            Bundle::Snapshot(bytes) => build_id(manifest_text.as_bytes(), bytes),
            Bundle::Script(source) => build_id(manifest_text.as_bytes(), source.as_bytes()),
        };
        let purge_keys = Arc::new(PurgeKeys::new(&build, &manifest.route_segments));
        tracing::info!(
            build = purge_keys.build(),
            "the build (its purge keys: build-{build})"
        );
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| StartError::NoRuntime)?;
        let api = api::router(upstream);
        let metrics = Metrics::new();
        let time_zone: Arc<str> = config.time_zone.as_str().into();
        let pool = Arc::new(RenderPool::start(PoolOptions {
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
        })?);
        // A page from one build must not outlive it, and in development every save is one.
        let cache = Arc::new(PageCache::new(if dev.is_some() {
            0
        } else {
            config.page_cache_entries
        }));
        let site = Site {
            origin,
            crawlers,
            time_zone,
            load_timeout: config.load_timeout,
            freshness: Freshness {
                max_age: config.page_max_age,
                s_maxage: config.page_s_maxage,
                stale_while_revalidate: config.page_stale_while_revalidate,
                stale_if_error: config.page_stale_if_error,
            },
        };
        let mut build = PageBuild::from_manifest(manifest);
        if config.server_bundle.is_some() {
            build.routes = build.routes.of_another_bundle();
        }
        let mut pages = Pages::new(pool.clone(), build, cache, site);
        if let Some(dev) = &dev {
            let dev = dev.clone();
            pages.describe_failure = Some(Box::new(move |error| dev.describe_failure(error)));
        }
        Ok(Self {
            pool,
            pages: Arc::new(pages),
            api,
            search: Arc::new(search),
            metrics,
            lifecycle: Arc::default(),
            dev,
            no_index: config.no_index,
            access_log: config.access_log,
            purge_keys,
            assets: Arc::new(assets),
            tracing: Tracing { exporter },
        })
    }

    /// Resolves once every render thread has warmed up; fails with the bundle's reason.
    pub async fn warmed(&self) -> Result<(), StartError> {
        self.pool
            .readiness()
            .warmed()
            .await
            .map_err(StartError::WarmUp)
    }

    /// Render threads (each with its V8 runtime).
    pub fn threads(&self) -> usize {
        self.pool.readiness().threads()
    }

    /// What the server and the readiness check share about a drain and open connections.
    pub fn lifecycle(&self) -> Arc<Lifecycle> {
        self.lifecycle.clone()
    }

    /// Development mode: takes up every new build of the app (see `dev`).
    pub fn watch_dev_builds(&self) {
        if let Some(dev) = &self.dev {
            crate::dev::watch_builds(dev.clone(), self.pages.clone(), self.pool.clone());
        }
    }

    pub(crate) fn observe(&self) -> Observe {
        Observe {
            metrics: self.metrics.clone(),
            access_log: self.access_log,
        }
    }

    pub(crate) fn scrape(&self) -> Scrape {
        Scrape {
            metrics: self.metrics.clone(),
            pool: self.pool.clone(),
            lifecycle: self.lifecycle.clone(),
            cache: self.pages.cache.clone(),
            exporter: self.tracing.exporter.clone(),
        }
    }
}
/// The assets to serve: this build's (from `--app-build`, or the embedded ones), then
/// earlier builds' (`--previous-assets`).
fn assets_of(config: &Config) -> Result<assets::Store, StartError> {
    let current = match &config.app_build {
        Some(dir) => Some(
            assets::Folder::read(&dir.join("assets"), false)
                .map_err(|e| StartError::Option(format!("--app-build: {e}")))?,
        ),
        None => None,
    };
    let previous = match &config.previous_assets {
        Some(dir) => {
            let folder = assets::Folder::read(dir, true)
                .map_err(|e| StartError::Option(format!("--previous-assets: {e}")))?;
            tracing::info!(dir = %dir.display(), assets = folder.len(), "serving earlier builds' assets too");
            folder
        }
        None => assets::Folder::default(),
    };
    Ok(assets::Store { current, previous })
}
