//! Start-up: from the options to everything the routes are served from, in named steps.
//! It checks the options, reads the build once (embedded, `--app-build`'s, or the
//! development folder's), starts the render threads (they warm up in the background) and
//! makes each route family's state; `lib.rs` composes the routes from them.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use axum::Router;

use crate::api::{self, LoaderCalls, proxy::Upstream};
use crate::assets;
use crate::config::Config;
use crate::crawlers::{CrawlerTest, RobotsAndSitemap};
use crate::dev::Dev;
use crate::lang::Languages;
use crate::manifest::{self, Manifest};
use crate::metrics::{Metrics, Observe, Scrape};
use crate::origin::Origin;
use crate::pages::{CurrentBuild, Freshness, PageBuild, PageCache, Pages, Site};
use crate::placement::Placement;
use crate::purge_keys::{PurgeKeys, build_id};
use crate::render::{
    BootState, Bundle, Limits, PoolOptions, RenderError, RenderPool, contract_stamp,
};
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
        let upstream = upstream(config, &origin)?;
        let exporter = exporter(config)?;
        let dev = config.dev.clone().map(|dir| Arc::new(Dev::new(dir)));
        let build = Build::read(config, dev.as_deref())?;
        let languages = build.languages.clone();
        let api = api::router(languages.clone(), upstream.clone());
        let assets = assets_of(config)?;
        let placement = Placement::new(languages.clone(), origin, &config.language_origin)
            .map_err(StartError::Option)?;
        let manifest = &build.manifest;
        let search = RobotsAndSitemap::new(
            &placement,
            (&manifest.routes, &manifest.sitemap, &manifest.built_at),
            config.no_index,
        )
        .map_err(StartError::Build)?;
        let route_names: Vec<String> = build
            .manifest
            .routes
            .iter()
            .map(|r| r.name.clone())
            .collect();
        let purge_keys = Arc::new(PurgeKeys::new(&languages, &build.id, &route_names));
        tracing::info!(
            build = purge_keys.build(),
            "the build (its purge keys: build-{})",
            build.id
        );
        let page_build = page_build(config, &languages, &build.manifest)?;
        let metrics = Metrics::new(&languages);
        // A page from one build must not outlive it, and in development every save is one.
        let cache = Arc::new(PageCache::new(match dev {
            Some(_) => 0,
            None => config.page_cache_entries,
        }));
        let site = site(
            config,
            (languages, placement),
            &build.manifest,
            page_build,
            cache,
        )?;
        let pool = Arc::new(render_pool(
            config,
            build.bundle,
            &site,
            (&api, upstream),
            &metrics,
        )?);
        let mut pages = Pages::new(pool.clone(), site);
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
            cache: self.pages.site.cache.clone(),
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

/// The app's build the host serves, read once: its manifest, its languages, its server
/// bundle, and the ID they make together (its purge key).
struct Build {
    manifest: Cow<'static, Manifest>,
    languages: Languages,
    bundle: Bundle,
    id: String,
}

impl Build {
    /// The development folder's build (`--dev`), `--app-build`'s, or the one embedded,
    /// whose server bundle `--server-bundle` may replace.
    fn read(config: &Config, dev: Option<&Dev>) -> Result<Self, StartError> {
        // `option` as the message names it: `--app-build: ` or `--server-bundle `.
        let read = |path: &Path, option: &str| {
            std::fs::read_to_string(path)
                .map_err(|e| StartError::Option(format!("{option}{}: {e}", path.display())))
        };
        let (text, manifest) = match (dev, &config.app_build) {
            (Some(dev), _) => {
                let manifest = dev.manifest().map_err(StartError::Build)?;
                same_contract(Some(&manifest.contract), "--dev: the development build")?;
                (None, Cow::Owned(manifest))
            }
            (None, Some(dir)) => {
                let text = read(&dir.join("manifest.json"), "--app-build: ")?;
                // Before the rest: a build of another version may not read as this one's.
                let stamp = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|value| value.get("contract")?.as_str().map(str::to_owned));
                same_contract(stamp.as_deref(), &format!("--app-build {}", dir.display()))?;
                let manifest = serde_json::from_str(&text)
                    .map_err(|e| StartError::Build(format!("--app-build: manifest.json: {e}")))?;
                (Some(text), Cow::Owned(manifest))
            }
            (None, None) => (None, Cow::Borrowed(&*manifest::EMBEDDED)),
        };
        let bundle = match (dev, &config.app_build, &config.server_bundle) {
            (Some(dev), _, _) => dev.bundle().map_err(StartError::Build)?,
            (None, Some(dir), _) => {
                Bundle::Script(read(&dir.join("server.js"), "--app-build: ")?.into())
            }
            (None, None, Some(path)) => Bundle::Script(read(path, "--server-bundle ")?.into()),
            (None, None, None) => Bundle::Snapshot(assets::SERVER_SNAPSHOT),
        };
        // `--dev`: the embedded manifest names the build (the folder's changes at each save).
        let text = text.as_deref().unwrap_or(manifest::MANIFEST);
        let id = match &bundle {
            Bundle::Snapshot(bytes) => build_id(text.as_bytes(), bytes),
            Bundle::Script(source) => build_id(text.as_bytes(), source.as_bytes()),
        };
        let languages = Languages::read(&manifest.declared.to_string())
            .map_err(|e| StartError::Build(format!("the manifest's languages: {e}")))?;
        Ok(Self {
            manifest,
            languages,
            bundle,
            id,
        })
    }
}

/// Refuses a build made for another version of the host (its bundle would call what this
/// host does not have, and no page would ever come), naming it (`what`).
fn same_contract(stamp: Option<&str>, what: &str) -> Result<(), StartError> {
    let host = contract_stamp();
    if stamp == Some(host) {
        return Ok(());
    }
    let made_for = stamp.map_or_else(
        || "no contract stamp".to_owned(),
        |s| format!("contract {s}"),
    );
    Err(StartError::Build(format!(
        "{what}: this build was made for another version of the host ({made_for}; this \
         host's is {host}): build it again with this version's `node app/build.mjs`"
    )))
}

/// `--api-upstream`: where `/api` goes, if not to the built-in API.
fn upstream(config: &Config, origin: &Origin) -> Result<Option<Upstream>, StartError> {
    let Some(base) = &config.api_upstream else {
        return Ok(None);
    };
    Upstream::new(base, config.api_timeout, config.api_idle_timeout, origin)
        .map(Some)
        .map_err(StartError::Option)
}

/// `--otlp-endpoint`: where spans go, if anywhere.
fn exporter(config: &Config) -> Result<Option<Arc<Exporter>>, StartError> {
    let Some(endpoint) = &config.otlp_endpoint else {
        return Ok(None);
    };
    let url = trace::traces_url(endpoint).map_err(StartError::Option)?;
    Exporter::start(&url, trace::EXPORT_TIMEOUT)
        .map(Some)
        .map_err(StartError::Option)
}

/// The site: what every page is written with, from the options and the build's crawler
/// list; its build and its page cache.
fn site(
    config: &Config,
    (languages, placement): (Languages, Placement),
    manifest: &Manifest,
    build: PageBuild,
    cache: Arc<PageCache>,
) -> Result<Site, StartError> {
    Ok(Site {
        languages,
        placement,
        crawlers: CrawlerTest::new(&manifest.crawlers).map_err(StartError::Build)?,
        time_zone: config.time_zone.as_str().into(),
        load_timeout: config.load_timeout,
        freshness: Freshness {
            max_age: config.page_max_age,
            s_maxage: config.page_s_maxage,
            stale_while_revalidate: config.page_stale_while_revalidate,
            stale_if_error: config.page_stale_if_error,
        },
        build: CurrentBuild::new(build),
        cache,
        first_parts: Default::default(),
    })
}

/// The build's files and routes, as the page handler takes them; another bundle's routes
/// are not the manifest's.
fn page_build(
    config: &Config,
    languages: &Languages,
    manifest: &Manifest,
) -> Result<PageBuild, StartError> {
    let mut build = PageBuild::from_manifest(languages, manifest).map_err(StartError::Build)?;
    if config.server_bundle.is_some() {
        build.routes = build.routes.of_another_bundle();
    }
    Ok(build)
}

/// The render threads, started with `bundle`; they warm up on the default language's home
/// page (each language's messages are made when a page first asks for them). Their
/// loaders call `api` on the tokio runtime this runs in.
fn render_pool(
    config: &Config,
    bundle: Bundle,
    site: &Site,
    (api, upstream): (&Router, Option<Upstream>),
    metrics: &Metrics,
) -> Result<RenderPool, StartError> {
    let runtime = tokio::runtime::Handle::try_current().map_err(|_| StartError::NoRuntime)?;
    let warm_up = vec![BootState {
        language: site.languages.default_language(),
        path: "/".into(),
        // The bundle finds the home page itself: no request has been read yet.
        page: None,
        messages: None,
        time_zone: site.time_zone.clone(),
        data: None,
        placement: site.placement.for_the_app(),
    }];
    Ok(RenderPool::start(PoolOptions {
        bundle,
        limits: Limits {
            timeout: config.render_timeout,
            heap_bytes: (config.render_heap_mb << 20) as usize,
        },
        threads: config.render_threads(),
        queue: config.render_queue,
        warm_up,
        warm_up_timeout: config.warm_up_timeout,
        render_seconds: metrics.render_seconds(),
        api: Arc::new(LoaderCalls {
            api: api.clone(),
            upstream: upstream.map(Arc::new),
            runtime,
            load_timeout: config.load_timeout,
        }),
        prerender: config.prerender,
        shell_hold: config.shell_hold,
        loading_budget: (config.loading_budget_mb << 20) as usize,
    })?)
}
