//! Answers a page request: picks the language, serves the cached document or renders the
//! screen in V8 (its loader's data first, within `--load-timeout`) and writes the
//! document, then answers with the page's language signals. A render that fails, in any
//! way but a closed pool, gets the client-rendered page: the same document with no markup,
//! which the browser renders from the same boot state (loading the data itself).
//!
//! The page cache holds pages the app declares the same for everyone: a screen without a
//! loader, or one whose loader declared its data public (for as long as it said), and
//! never a page whose data was fetched with the visitor's Cookie or Authorization.

mod cache;
mod document;
mod encoding;
mod error;
mod escape;
mod nonce;
mod request;
mod spliced_gzip;

pub use cache::PageCache;
pub use document::DocumentAssets;

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::crawlers::CrawlerTest;
use crate::lang::Language;
use crate::links::{self, PageLinks};
use crate::manifest::{AppRoutes, Manifest};
use crate::origin::Origin;
use crate::render::{BootState, Page, PageRenderer, RenderError, Rendered};
use crate::server::PeerAddr;
use cache::{CachedPage, Flight, Lookup, NONCE_SLOT};
use document::{Content, PageHeaders};
use error::HostError;
use nonce::Nonce;
use request::{read_request, visitor};

/// What the page handler needs of a build: the files its documents name and the routes
/// the app declares. Development replaces it with each new build.
pub struct Build {
    pub document: DocumentAssets,
    pub routes: AppRoutes,
}

impl Build {
    pub fn from_manifest(manifest: &Manifest) -> Self {
        Self {
            document: DocumentAssets::from_manifest(manifest),
            routes: AppRoutes::new(&manifest.route_segments),
        }
    }
}

/// Development: why a render failed, as the overlay shows it (JSON).
pub type DescribeFailure = dyn Fn(&RenderError) -> String + Send + Sync;

/// Everything the page handler is served from, made once at start-up.
pub struct Pages {
    pub renderer: Arc<dyn PageRenderer>,
    build: RwLock<Arc<Build>>,
    /// Finished pages, kept (`--page-cache-entries`).
    pub cache: Arc<PageCache>,
    /// Where visitors reach the site: the pages' absolute links start with it.
    pub origin: Origin,
    pub crawlers: CrawlerTest,
    /// The IANA time zone dates are shown in.
    pub time_zone: Arc<str>,
    /// How long a page's loader may wait for its data.
    pub load_timeout: Duration,
    /// Development: a failed render's problem, shown over the client-rendered page.
    pub describe_failure: Option<Box<DescribeFailure>>,
}

impl Pages {
    pub fn new(
        renderer: Arc<dyn PageRenderer>,
        build: Build,
        cache: Arc<PageCache>,
        origin: Origin,
        crawlers: CrawlerTest,
        time_zone: Arc<str>,
        load_timeout: Duration,
    ) -> Self {
        Self {
            renderer,
            build: RwLock::new(Arc::new(build)),
            cache,
            origin,
            crawlers,
            time_zone,
            load_timeout,
            describe_failure: None,
        }
    }

    /// The build pages are written from now.
    pub fn build(&self) -> Arc<Build> {
        self.build.read().expect("build lock").clone()
    }

    /// Development: a new build's files and routes.
    pub fn set_build(&self, build: Build) {
        *self.build.write().expect("build lock") = Arc::new(build);
    }
}

/// Every path the other routes leave is a page.
pub fn routes(pages: Arc<Pages>) -> Router {
    Router::new().fallback(page).with_state(pages)
}

/// Takes the request whole, so that nothing of it is copied.
async fn page(
    State(state): State<Arc<Pages>>,
    request: axum::extract::Request,
) -> Result<Response, HostError> {
    let (
        axum::http::request::Parts {
            method,
            uri,
            headers,
            extensions,
            ..
        },
        _,
    ) = request.into_parts();
    let peer = extensions.get::<PeerAddr>().copied();
    if method != Method::GET && method != Method::HEAD {
        return Ok((
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "method not allowed",
        )
            .into_response());
    }
    let build = state.build();
    let request = read_request(uri.path(), &headers, &build.routes);
    let page_headers = |link: Option<HeaderValue>| PageHeaders {
        language: request.language,
        cache_control: request.kind.cache_control(),
        vary_cookie: request.kind.varies_by_cookie(),
        link,
    };
    let nonce = Nonce::random();
    let cacheable = request.kind.cacheable() && state.cache.enabled();
    let lookup = || match cacheable {
        true => state.cache.lookup(request.language, request.rest),
        false => Lookup::NotKept,
    };
    // One render for a page missing from the cache, however many ask for it at once: the
    // others wait for it, then find it cached (or, if it could not be kept, render their
    // own). A page known not to be kept is rendered for each request at once.
    let _flight = match lookup() {
        Lookup::Found(cached) => {
            let headers_out = page_headers(cached.link.clone());
            return Ok(respond_cached(&cached, &headers, headers_out, &nonce));
        }
        Lookup::NotKept => None,
        Lookup::Missing => match state.cache.flight(request.language, request.rest) {
            Flight::Lead(lead) => Some(lead),
            Flight::Follow(landed) => {
                landed.await;
                if let Lookup::Found(cached) = lookup() {
                    let headers_out = page_headers(cached.link.clone());
                    return Ok(respond_cached(&cached, &headers, headers_out, &nonce));
                }
                None
            }
        },
    };

    let boot = BootState {
        language: request.language,
        path: request.rest.to_string(),
        time_zone: state.time_zone.clone(),
        data: None,
    };
    let visitor = visitor(&headers, request.language, peer);
    let deadline = Instant::now() + state.load_timeout;
    let links = |status: StatusCode| {
        (status == StatusCode::OK)
            .then(|| links::page_links(&state.origin, request.language, request.rest))
    };
    let Page {
        mut rendered,
        per_visitor,
    } = match state.renderer.render(&boot, visitor, deadline).await {
        Ok(page) => page,
        Err(RenderError::PoolClosed) => return Err(HostError::Render(RenderError::PoolClosed)),
        Err(error) => {
            match &error {
                RenderError::Busy => {
                    tracing::warn!(path = %uri.path(), "render queue full: sending the client-rendered page")
                }
                _ => {
                    tracing::error!(path = %uri.path(), %error, "server render failed: sending the client-rendered page");
                    if cacheable {
                        // Those waiting for this render, and those who come soon, try their own.
                        state
                            .cache
                            .mark_not_kept(request.language, request.rest, FAILED_MARK);
                    }
                }
            }
            if state.crawlers.is_crawler(&headers) {
                return Ok(come_back_later(request.language));
            }
            let status = request.kind.status(StatusCode::OK);
            let links = links(status);
            let (title, description) = state.renderer.shell_text(request.language);
            let content = Content {
                title,
                description,
                markup: "",
                links: links.as_ref(),
                dev_problem: state
                    .describe_failure
                    .as_ref()
                    .map(|describe| describe(&error)),
            };
            let shell = document::write(&build.document, &boot, &content, &nonce)?;
            let no_store = PageHeaders {
                cache_control: "no-store",
                ..page_headers(links.as_ref().and_then(PageLinks::link_header))
            };
            let (body, encoding) = encoding::fresh(shell, &headers);
            return Ok(document::respond(status, body, encoding, no_store, &nonce));
        }
    };
    let status = request
        .kind
        .status(StatusCode::from_u16(rendered.status).expect("the pool checks the status range"));
    let links = links(status);
    let link = links.as_ref().and_then(PageLinks::link_header);
    // The boot state the browser hydrates with carries the loader's data.
    let boot = BootState {
        data: rendered.data.take(),
        ..boot
    };
    let document_assets = &build.document;
    let write = |nonce: &Nonce| {
        let content = Content {
            title: &rendered.title,
            description: &rendered.description,
            markup: &rendered.html,
            links: links.as_ref(),
            dev_problem: None,
        };
        document::write(document_assets, &boot, &content, nonce)
    };
    let lifetime = cache_lifetime(&rendered, per_visitor);
    if cacheable && lifetime.is_none() && !per_visitor {
        // The app says this page is not the same for everyone: no one waits for another's.
        state
            .cache
            .mark_not_kept(request.language, request.rest, NOT_KEPT_MARK);
    }
    if let Some(lifetime) = lifetime
        && cacheable
    {
        let cached = Arc::new(CachedPage::new(status, &write(&NONCE_SLOT)?, link.clone()));
        let expires = lifetime.map(|lifetime| Instant::now() + lifetime);
        state
            .cache
            .insert(request.language, request.rest, cached.clone(), expires);
        return Ok(respond_cached(
            &cached,
            &headers,
            page_headers(link),
            &nonce,
        ));
    }
    let (body, encoding) = encoding::fresh(write(&nonce)?, &headers);
    let headers_out = match per_visitor {
        // Data that is the visitor's alone is kept by no one, not even their browser (a
        // page shown after a log-out).
        true => PageHeaders {
            cache_control: "private, no-store",
            ..page_headers(link)
        },
        false => page_headers(link),
    };
    Ok(document::respond(
        status,
        body,
        encoding,
        headers_out,
        &nonce,
    ))
}

/// How long a page the app declared not to be kept is rendered without waiting for others.
const NOT_KEPT_MARK: Duration = Duration::from_secs(60);
/// How long a page whose render failed is rendered without waiting for others.
const FAILED_MARK: Duration = Duration::from_secs(5);

/// Whether the page cache may keep a page, and for how long (`None`: for the life of the
/// process): a page the same for everyone, never one holding the visitor's own data.
fn cache_lifetime(rendered: &Rendered, per_visitor: bool) -> Option<Option<Duration>> {
    if per_visitor {
        return None;
    }
    if rendered.cacheable {
        return Some(None);
    }
    rendered
        .public_for_seconds
        .filter(|seconds| *seconds > 0)
        .map(|seconds| Some(Duration::from_secs(seconds)))
}

/// For a crawler, when the page could not be rendered: come back later, rather than an
/// empty client-rendered page to index.
fn come_back_later(language: Language) -> Response {
    let mut response = (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::RETRY_AFTER, "30"),
            (header::CACHE_CONTROL, "no-store"),
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
        ],
        "Le service est momentanément indisponible ; réessayez plus tard. / The service is briefly unavailable; try again later.\n",
    )
        .into_response();
    response.extensions_mut().insert(language);
    response
}

/// A cached page, with this response's nonce.
fn respond_cached(
    page: &CachedPage,
    request_headers: &HeaderMap,
    headers: PageHeaders,
    nonce: &Nonce,
) -> Response {
    let (body, encoding) = encoding::cached(page, request_headers, nonce);
    document::respond(page.status, body, encoding, headers, nonce)
}
