//! Bilingue's host. `main.rs` reads the configuration, starts V8 and serves; the tests do
//! the same through [`Host`]. A page request goes: `server` (accept loop, connection watch,
//! wire limits) → the layers composed here, outermost first (`crawlers::no_index` with
//! `--no-index`; `security`, the headers; `trace`, the request's W3C trace, carried to the
//! API and, with `--otlp-endpoint`, exported; `metrics`, counting and the access log;
//! `server::limits`, what a request may carry; `server::announce_drain`, `Connection:
//! close` while draining; `purge_keys`, what a purge of a shared cache selects;
//! `server::panics`, a panic answered 500) → `pages`, in six steps (the request, the
//! cache's turn, the render in `render` (V8), who may keep it, the document, the answer).
//! Each family of routes owns its room and takes only the state it uses: `pages`, `api`
//! (built in, or `api::proxy`), `assets`, `crawlers`, `health`, `dev`, and `metrics` on a
//! listener of its own. This file is the one place that composes them; `startup` makes
//! their state from the options.

mod accept_encoding;
mod api;
mod assets;
pub mod config;
mod content_type;
mod crawlers;
mod data_keys;
mod dev;
mod every_answer;
mod health;
mod lang;
mod links;
pub mod logging;
mod manifest;
mod metrics;
mod origin;
mod page_identity;
mod page_purge;
mod pages;
mod placement;
mod purge_keys;
pub mod render;
pub mod scheduling;
mod security;
pub mod server;
mod startup;
#[cfg(test)]
mod test_support;
mod texts;
mod trace;
mod url_path;

use std::sync::Arc;

use axum::{Router, middleware};

pub use manifest::DeclaredRoute;
pub use manifest::filled as filled_pattern;
pub use startup::{Host, StartError};

/// `--write-assets DIR`: the built-in assets, for the next release's `--previous-assets`.
pub fn write_assets(dir: &std::path::Path) -> Result<usize, String> {
    assets::write_embedded(dir)
}

/// The routes the built-in app declares, in order: each one's name and its pattern in every
/// language (the tests derive the pages they ask for from them, never from today's paths).
pub fn declared_routes() -> &'static [DeclaredRoute] {
    &manifest::EMBEDDED.routes
}

impl Host {
    /// The public routes.
    pub fn app(&self) -> Router {
        app(Parts {
            pages: self.pages.clone(),
            api: self.api.clone(),
            search: self.search.clone(),
            readiness: self.pool.readiness(),
            lifecycle: self.lifecycle.clone(),
            observe: self.observe(),
            tracing: self.tracing.clone(),
            dev: self.dev.clone(),
            no_index: self.no_index,
            purge_keys: self.purge_keys.clone(),
            assets: self.assets.clone(),
        })
    }

    /// `/metrics`, and `PURGE /` of the page cache, for their own listener
    /// (`--metrics-bind`): what a scraper reads is no visitor's business, nor is emptying
    /// the cache.
    pub fn metrics_app(&self) -> Router {
        let purge = page_purge::routes(self.pages.site.cache.clone(), self.purge_keys.clone());
        metrics::routes(self.scrape())
            .merge(purge)
            .layer(middleware::from_fn(security::add_headers))
    }
}

/// What the public routes are made of.
struct Parts {
    pages: Arc<pages::Pages>,
    api: Router,
    search: Arc<crawlers::RobotsAndSitemap>,
    readiness: Arc<render::Readiness>,
    lifecycle: Arc<server::Lifecycle>,
    observe: metrics::Observe,
    tracing: trace::Tracing,
    dev: Option<Arc<dev::Dev>>,
    no_index: bool,
    purge_keys: Arc<purge_keys::PurgeKeys>,
    assets: Arc<assets::Store>,
}

fn app(parts: Parts) -> Router {
    let assets = match &parts.dev {
        Some(dev) => dev::routes(dev.clone()),
        None => assets::routes(parts.assets.clone()),
    };
    // Pages choose their own coding (pages/encoding.rs); nothing else compresses per request.
    let router = Router::new()
        .merge(assets)
        .merge(health::routes(parts.readiness, parts.lifecycle.clone()))
        .merge(crawlers::routes(parts.search))
        .merge(parts.api)
        .merge(pages::routes(parts.pages.clone()));
    #[cfg(debug_assertions)]
    let router = server::panics::test_trigger(router);
    let router = match parts.dev {
        Some(_) => dev::no_store(router),
        None => router,
    };
    // Every answer, refusals included, is counted and carries the headers.
    let every = every_answer::EveryAnswer {
        texts: current_texts(parts.pages),
        purge_keys: parts.purge_keys,
        lifecycle: parts.lifecycle,
        observe: parts.observe,
        tracing: parts.tracing,
        no_index: parts.no_index,
    };
    router.layer(middleware::from_fn_with_state(
        Arc::new(every),
        every_answer::around,
    ))
}

/// The host's own texts of the build the pages are served from, for the 500 page.
fn current_texts(pages: Arc<pages::Pages>) -> server::panics::CurrentTexts {
    Arc::new(move || pages.site.build.get().texts.clone())
}

/// The public routes' parts around `renderer`, with no V8 and no socket (tests: `oneshot`).
#[cfg(test)]
fn test_parts(renderer: Arc<dyn render::PageRenderer>, routes: &[&str]) -> Parts {
    use std::time::Duration;
    let manifest = &*manifest::EMBEDDED;
    let origin = origin::Origin::parse("https://www.example.org").unwrap();
    let languages = lang::demo();
    let placement = placement::Placement::prefixed(languages.clone(), origin);
    // The app's routes, then the test's, the same in every language.
    let declared: Vec<manifest::DeclaredRoute> = (manifest.routes.iter().cloned())
        .chain(manifest::declared_everywhere(routes))
        .collect();
    let mut build = pages::PageBuild::from_manifest(&languages, manifest).unwrap();
    build.routes = manifest::AppRoutes::new(&languages, &declared).unwrap();
    Parts {
        pages: Arc::new(pages::Pages::new(
            renderer,
            pages::Site {
                languages: languages.clone(),
                placement: placement.clone(),
                crawlers: crawlers::CrawlerTest::new(&manifest.crawlers).unwrap(),
                time_zone: "UTC".into(),
                load_timeout: Duration::from_secs(1),
                freshness: pages::Freshness {
                    max_age: Duration::from_secs(60),
                    s_maxage: Duration::from_secs(300),
                    stale_while_revalidate: Duration::from_secs(60),
                    stale_if_error: Duration::from_secs(86_400),
                },
                build: pages::CurrentBuild::new(build),
                cache: Arc::new(pages::PageCache::new(10)),
                first_parts: Default::default(),
            },
        )),
        api: api::router(languages.clone(), None),
        search: Arc::new(
            crawlers::RobotsAndSitemap::new(
                &placement,
                (&manifest.routes, &manifest.sitemap, "2026"),
                false,
            )
            .unwrap(),
        ),
        readiness: Arc::new(render::Readiness::new(1)),
        lifecycle: Arc::default(),
        observe: metrics::Observe {
            metrics: metrics::Metrics::new(&languages),
            access_log: false,
        },
        tracing: trace::Tracing::default(),
        dev: None,
        no_index: false,
        purge_keys: Arc::new(purge_keys::PurgeKeys::new(
            &languages,
            "test",
            &declared
                .iter()
                .map(|route| route.name.clone())
                .collect::<Vec<_>>(),
        )),
        assets: Arc::default(),
    }
}

#[cfg(test)]
mod tests {
    //! The routes composed with a stand-in renderer: no V8, no socket, `oneshot`.

    use std::future::Future;
    use std::pin::Pin;
    use std::sync::Arc;
    use std::time::Instant;

    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt as _;

    use super::*;
    use crate::render::{BootState, Page, PageRenderer, RenderError, Rendered, Rendering, Visitor};

    /// Renders every page as its path, at once.
    struct PathEcho;

    impl PageRenderer for PathEcho {
        fn render<'a>(
            &'a self,
            boot: &'a BootState,
            _: Visitor,
            _: Instant,
            _: Option<String>,
            _: bool,
        ) -> Pin<Box<dyn Future<Output = Result<Rendering, RenderError>> + Send + 'a>> {
            let rendered = Rendered {
                status: 200,
                title: "Echo".into(),
                description: String::new(),
                html: format!("<p>{} {}</p>", boot.language.code(), boot.path),
                sharing: crate::render::PageSharing::Public { max_seconds: None },
                data: None,
            };
            Box::pin(async move {
                Ok(Rendering::Complete(Page {
                    rendered,
                    per_visitor: false,
                    data_keys: Default::default(),
                }))
            })
        }
    }

    fn parts(routes: &[&str]) -> Parts {
        test_parts(Arc::new(PathEcho), routes)
    }

    async fn get(path: &str) -> (StatusCode, String) {
        get_from(parts(&[]), path).await
    }

    async fn get_from(parts: Parts, path: &str) -> (StatusCode, String) {
        let request = Request::get(path)
            .header("host", "www.example.org")
            .body(Body::empty())
            .unwrap();
        let response = app(parts).oneshot(request).await.unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn every_route_family_answers_from_its_own_state() {
        let (status, page) = get("/en/somewhere").await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("<p>en /somewhere</p>"), "{page}");
        assert!(
            page.contains(r#"<link rel="canonical" href="https://www.example.org/en/somewhere">"#)
        );
        assert_eq!(
            get("/readyz").await,
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "0/1 render threads ready\n".into()
            )
        );
        assert!(
            get("/robots.txt")
                .await
                .1
                .contains("Sitemap: https://www.example.org/sitemap.xml")
        );
        assert!(get("/api/status").await.1.contains("\"languages\""));
        assert_eq!(get("/assets/nothing.js").await.0, StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn a_three_letter_route_of_the_app_is_a_page_not_a_language() {
        let (status, page) = get_from(parts(&["/xyz"]), "/fr/xyz").await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("<p>fr /xyz</p>"), "{page}");
        // Unprefixed, it leads to the prefixed page, as every page of the app does.
        let (status, _) = get_from(parts(&["/xyz"]), "/xyz").await;
        assert_eq!(status, StatusCode::FOUND);
        let (status, page) = get_from(parts(&["/xyz"]), "/en/xyz").await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("<p>en /xyz</p>"), "{page}");
        let (status, _) = get_from(parts(&["/xyz"]), "/xyw").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "a language we do not offer");
    }
}
