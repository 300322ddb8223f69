//! Answers a page request: picks the language, serves the cached document or renders the
//! screen in V8 (its loader's data first, within `--load-timeout`) and writes the
//! document, then answers with the page's language signals. A render that fails, in any
//! way but a closed pool, gets the client-rendered page: the same document with no markup,
//! which the browser renders from the same boot state (loading the data itself).
//!
//! The page cache holds pages the app declares the same for everyone: a screen without a
//! loader, or one whose loader declared its data public (for as long as it said), and
//! never a page whose data was fetched with the visitor's Cookie or Authorization.

mod answer;
mod cache;
mod document;
mod encoding;
mod error;
mod escape;
mod gzip;
mod nonce;
mod request;
mod sharing;
mod streamed;

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
use crate::render::{BootState, Page, PageRenderer, RenderError, Rendering};
use crate::server::PeerAddr;
use answer::PageHeaders;
use cache::{CachedPage, Flight, Lookup};
use document::Content;
use error::HostError;
use nonce::Nonce;
use request::{PageKind, read_request, visitor};
pub use sharing::Freshness;
use sharing::Sharing;

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

/// What every page is written with, from the options.
pub struct Site {
    /// Where visitors reach the site: the pages' absolute links start with it.
    pub origin: Origin,
    pub crawlers: CrawlerTest,
    /// The IANA time zone dates are shown in.
    pub time_zone: Arc<str>,
    /// How long a page's loader may wait for its data.
    pub load_timeout: Duration,
    /// How long caches may keep public pages.
    pub freshness: Freshness,
}

/// Everything the page handler is served from, made once at start-up.
pub struct Pages {
    pub renderer: Arc<dyn PageRenderer>,
    build: RwLock<Arc<Build>>,
    /// Finished pages, kept (`--page-cache-entries`).
    pub cache: Arc<PageCache>,
    pub site: Site,
    /// Development: a failed render's problem, shown over the client-rendered page.
    pub describe_failure: Option<Box<DescribeFailure>>,
}

impl Pages {
    pub fn new(
        renderer: Arc<dyn PageRenderer>,
        build: Build,
        cache: Arc<PageCache>,
        site: Site,
    ) -> Self {
        Self {
            renderer,
            build: RwLock::new(Arc::new(build)),
            cache,
            site,
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
    if request.kind == PageKind::Unprefixed {
        // Without a cookie the way is the same for everyone, and any cache may keep it.
        let cache_control = match headers.contains_key(header::COOKIE) {
            false => state
                .site
                .freshness
                .cache_control(Sharing::Public { limit: None }, StatusCode::FOUND),
            true => HeaderValue::from_static("private, no-store"),
        };
        return Ok(to_the_prefixed_page(
            request.language,
            request.rest,
            uri.query(),
            cache_control,
        ));
    }
    let page_headers = |link: Option<HeaderValue>, cache_control: HeaderValue| PageHeaders {
        language: request.language,
        cache_control,
        vary_cookie: false,
        link,
        policy: build.document.policy().clone(),
    };
    let cacheable = request.kind.cacheable() && state.cache.enabled();
    let lookup = || match cacheable {
        true => state.cache.lookup(request.language, request.rest),
        false => Lookup::NotKept,
    };
    // One render for a page missing from the cache, however many ask for it at once: the
    // others wait for it, then find it cached (or, if it could not be kept, render their
    // own). A page known not to be kept is rendered for each request at once.
    let _flight = match lookup() {
        Lookup::Found(cached) => return Ok(respond_cached(&cached, &headers)),
        Lookup::NotKept => None,
        Lookup::Missing => match state.cache.flight(request.language, request.rest) {
            Flight::Lead(lead) => Some(lead),
            Flight::Follow(landed) => {
                landed.await;
                if let Lookup::Found(cached) = lookup() {
                    return Ok(respond_cached(&cached, &headers));
                }
                None
            }
        },
    };

    let boot = BootState {
        language: request.language,
        path: request.rest.to_string(),
        time_zone: state.site.time_zone.clone(),
        data: None,
    };
    let visitor = visitor(&headers, request.language, peer);
    let deadline = Instant::now() + state.site.load_timeout;
    let links = |status: StatusCode| {
        (status == StatusCode::OK)
            .then(|| links::page_links(&state.site.origin, request.language, request.rest))
    };
    let crawler = state.site.crawlers.is_crawler(&headers);
    // A person's page that waits for data may come as it is rendered (HEAD gets the same
    // head, and no body); a crawler gets it whole, with its final status.
    let stream_nonce =
        (request.kind == PageKind::Prefixed && !crawler).then(|| Nonce::random().to_string());
    let rendering = state
        .renderer
        .render(&boot, visitor, deadline, stream_nonce.clone())
        .await;
    let Page {
        mut rendered,
        per_visitor,
    } = match rendering {
        Ok(Rendering::Complete(page)) => page,
        Ok(Rendering::Streaming(stream)) => {
            if cacheable {
                // Its data is fresh at each request: no one waits for another's.
                state
                    .cache
                    .mark_not_kept(request.language, request.rest, NOT_KEPT_MARK);
            }
            let status = request
                .kind
                .status(StatusCode::from_u16(stream.head.status).unwrap_or(StatusCode::OK));
            let page = streamed::Streamed {
                status,
                language: request.language,
                links: links(status),
                nonce: stream_nonce.expect("asked for a stream"),
                boot,
            };
            let head_only = method == Method::HEAD;
            return streamed::respond(
                state.clone(),
                build.clone(),
                page,
                stream,
                &headers,
                head_only,
            );
        }
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
            if crawler {
                return Ok(come_back_later(request.language));
            }
            let status = request.kind.status(StatusCode::OK);
            let links = links(status);
            let (title, description) = state.renderer.shell_text(request.language);
            let problem = state
                .describe_failure
                .as_ref()
                .map(|describe| describe(&error));
            let content = Content {
                title,
                description,
                markup: "",
                links: links.as_ref(),
                dev_problem: problem.as_deref(),
            };
            let shell = document::write(&build.document, &boot, &content)?;
            let no_store = page_headers(
                links.as_ref().and_then(PageLinks::link_header),
                HeaderValue::from_static("no-store"),
            );
            let sent = encoding::fresh(shell, &headers, false);
            return Ok(answer::respond(status, sent, no_store, &headers));
        }
    };
    let status = request
        .kind
        .status(StatusCode::from_u16(rendered.status).expect("the pool checks the status range"));
    let links = links(status);
    let link = links.as_ref().and_then(PageLinks::link_header);
    let sharing = Sharing::of(&rendered, per_visitor);
    let cache_control = state.site.freshness.cache_control(sharing, status);
    // The boot state the browser hydrates with carries the loader's data.
    let boot = BootState {
        data: rendered.data.take(),
        ..boot
    };
    let content = Content {
        title: &rendered.title,
        description: &rendered.description,
        markup: &rendered.html,
        links: links.as_ref(),
        dev_problem: None,
    };
    let document = document::write(&build.document, &boot, &content)?;
    match sharing {
        Sharing::Public { limit } => {
            if cacheable {
                let cached = Arc::new(CachedPage::new(
                    status,
                    document,
                    page_headers(link, cache_control),
                    limit.is_some(),
                ));
                let expires = limit.map(|limit| Instant::now() + limit);
                state
                    .cache
                    .insert(request.language, request.rest, cached.clone(), expires);
                return Ok(respond_cached(&cached, &headers));
            }
        }
        Sharing::Private if cacheable => {
            // The app says this page is not the same for everyone: no one waits for another's.
            state
                .cache
                .mark_not_kept(request.language, request.rest, NOT_KEPT_MARK);
        }
        Sharing::Private | Sharing::NoOne => {}
    }
    // A page its visitor keeps is revalidated, so it carries a validator; one no one
    // keeps needs none.
    let sent = encoding::fresh(document, &headers, sharing != Sharing::NoOne);
    Ok(answer::respond(
        status,
        sent,
        page_headers(link, cache_control),
        &headers,
    ))
}

/// `/…`: the page in the visitor's saved language, else the default, at its prefixed URL.
/// The way depends on the visitor's cookie (`Vary: Cookie`); the page it leads to is the
/// same for everyone, so a shared cache keeps that one.
fn to_the_prefixed_page(
    language: Language,
    rest: &str,
    query: Option<&str>,
    cache_control: HeaderValue,
) -> Response {
    let mut location = format!("/{}{rest}", language.code());
    if let Some(query) = query {
        location.push('?');
        location.push_str(query);
    }
    let mut response = (
        StatusCode::FOUND,
        [
            (header::CACHE_CONTROL, cache_control),
            (header::VARY, HeaderValue::from_static("cookie")),
        ],
    )
        .into_response();
    match HeaderValue::try_from(location) {
        Ok(location) => {
            response.headers_mut().insert(header::LOCATION, location);
        }
        // The path and query came in a valid request target: they make a valid header.
        Err(_) => *response.status_mut() = StatusCode::BAD_REQUEST,
    }
    response.extensions_mut().insert(language);
    response
}

/// How long a page the app declared not to be kept is rendered without waiting for others.
const NOT_KEPT_MARK: Duration = Duration::from_secs(60);
/// How long a page whose render failed is rendered without waiting for others.
const FAILED_MARK: Duration = Duration::from_secs(5);

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

/// A kept page, in the coding the client takes.
fn respond_cached(page: &CachedPage, request: &HeaderMap) -> Response {
    answer::respond(
        page.status,
        encoding::cached(page, request),
        page.headers.clone(),
        request,
    )
}
