//! Answers a page request: picks the language, serves the cached document or renders the
//! screen in V8 (its loader's data first, within `--load-timeout`) and writes the
//! document, then answers with the page's language signals. A render that fails, in any
//! way but a closed pool, gets the client-rendered page: the same document with no markup,
//! which the browser renders from the same boot state (loading the data itself).
//!
//! The page cache holds pages the app declares the same for everyone: a screen without a
//! loader, or one whose loader declared its data public (for as long as it said), and
//! never a page whose data was fetched with the visitor's Cookie or Authorization.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::document::{self, Content, PageHeaders, PageLinks};
use crate::error::HostError;
use crate::lang::{self, Language, PathLanguage};
use crate::nonce::Nonce;
use crate::page_cache::{CachedPage, Flight, Lookup, NONCE_SLOT};
use crate::page_encoding;
use crate::render::{BootState, Page, RenderError, Rendered, Visitor};
use crate::server::PeerAddr;
use crate::state::AppState;

/// What a page request is, once its path is read: the answer's status, caching and
/// `Vary` follow from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PageKind {
    /// `/fr/…`: the language is in the path.
    Prefixed,
    /// `/…`: the language is the visitor's saved choice, else the default.
    Unprefixed,
    /// `/de/…`: a language we do not offer; a 404 whatever the app renders.
    Unsupported,
}

impl PageKind {
    fn status(self, rendered: StatusCode) -> StatusCode {
        match self {
            PageKind::Unsupported => StatusCode::NOT_FOUND,
            PageKind::Prefixed | PageKind::Unprefixed => rendered,
        }
    }

    /// Prefixed pages are the same for everyone but their script nonce, which must not be
    /// replayed to other visitors: a short cache in the browser only. Unprefixed ones
    /// follow the visitor's saved choice, so they are revalidated every time.
    fn cache_control(self) -> &'static str {
        match self {
            PageKind::Unprefixed => "private, no-cache",
            PageKind::Prefixed | PageKind::Unsupported => "private, max-age=60",
        }
    }

    fn varies_by_cookie(self) -> bool {
        self == PageKind::Unprefixed
    }

    /// Whether the page cache may hold it: an unsupported prefix is a 404 of its own.
    fn cacheable(self) -> bool {
        self != PageKind::Unsupported
    }
}

/// Which page a request asks for.
struct PageRequest<'a> {
    language: Language,
    /// The path without its language prefix.
    rest: &'a str,
    kind: PageKind,
}

fn read_request<'a>(path: &'a str, headers: &HeaderMap) -> PageRequest<'a> {
    match lang::split_path(path) {
        PathLanguage::Prefixed { language, rest } => PageRequest {
            language,
            rest,
            kind: PageKind::Prefixed,
        },
        PathLanguage::Unsupported => PageRequest {
            language: Language::default_language(),
            rest: path,
            kind: PageKind::Unsupported,
        },
        PathLanguage::Unprefixed { rest } => {
            let saved =
                lang::from_cookies(headers.get_all(header::COOKIE).iter().map(|v| v.as_bytes()));
            PageRequest {
                language: saved.unwrap_or_else(Language::default_language),
                rest,
                kind: PageKind::Unprefixed,
            }
        }
    }
}

/// What a page's loader may carry for the visitor, on a page in `language`.
fn visitor(headers: &HeaderMap, language: Language, peer: Option<PeerAddr>) -> Visitor {
    Visitor {
        // Several Cookie fields are one list (RFC 6265 §5.4 sends one; HTTP/2 may split it).
        cookie: lang::cookies_but_the_choice(
            headers
                .get_all(header::COOKIE)
                .iter()
                .map(HeaderValue::as_bytes),
        ),
        authorization: headers.get(header::AUTHORIZATION).cloned(),
        language,
        peer: peer.map(|PeerAddr(address)| address),
    }
}

/// Takes the request whole, so that nothing of it is copied.
pub async fn page(
    State(state): State<Arc<AppState>>,
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
    let request = read_request(uri.path(), &headers);
    let page_headers = |link: Option<HeaderValue>| PageHeaders {
        language: request.language,
        cache_control: request.kind.cache_control(),
        vary_cookie: request.kind.varies_by_cookie(),
        link,
    };
    let nonce = Nonce::random();
    let cacheable = request.kind.cacheable() && state.pages.enabled();
    let lookup = || match cacheable {
        true => state.pages.lookup(request.language, request.rest),
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
        Lookup::Missing => match state.pages.flight(request.language, request.rest) {
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
            .then(|| document::page_links(&state.origin, request.language, request.rest))
    };
    let Page {
        mut rendered,
        per_visitor,
    } = match state.pool.render(&boot, visitor, deadline).await {
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
                            .pages
                            .mark_not_kept(request.language, request.rest, FAILED_MARK);
                    }
                }
            }
            if state.crawlers.is_crawler(&headers) {
                return Ok(come_back_later(request.language));
            }
            let status = request.kind.status(StatusCode::OK);
            let links = links(status);
            let (title, description) = state.shell_text(request.language);
            let content = Content {
                title,
                description,
                markup: "",
                links: links.as_ref(),
                dev_problem: state.dev.as_ref().map(|dev| {
                    serde_json::to_string(&dev.render_problem(&error)).expect("serialisable")
                }),
            };
            let shell = document::write(&state.document(), &boot, &content, &nonce)?;
            let no_store = PageHeaders {
                cache_control: "no-store",
                ..page_headers(links.as_ref().and_then(PageLinks::link_header))
            };
            let (body, encoding) = page_encoding::fresh(shell, &headers);
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
    let document_assets = state.document();
    let write = |nonce: &Nonce| {
        let content = Content {
            title: &rendered.title,
            description: &rendered.description,
            markup: &rendered.html,
            links: links.as_ref(),
            dev_problem: None,
        };
        document::write(&document_assets, &boot, &content, nonce)
    };
    let lifetime = cache_lifetime(&rendered, per_visitor);
    if cacheable && lifetime.is_none() && !per_visitor {
        // The app says this page is not the same for everyone: no one waits for another's.
        state
            .pages
            .mark_not_kept(request.language, request.rest, NOT_KEPT_MARK);
    }
    if let Some(lifetime) = lifetime
        && cacheable
    {
        let cached = Arc::new(CachedPage::new(status, &write(&NONCE_SLOT)?, link.clone()));
        let expires = lifetime.map(|lifetime| Instant::now() + lifetime);
        state
            .pages
            .insert(request.language, request.rest, cached.clone(), expires);
        return Ok(respond_cached(
            &cached,
            &headers,
            page_headers(link),
            &nonce,
        ));
    }
    let (body, encoding) = page_encoding::fresh(write(&nonce)?, &headers);
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
        "Le service est momentanément indisponible ; réessayez plus tard. /          The service is briefly unavailable; try again later.\n",
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
    let (body, encoding) = page_encoding::cached(page, request_headers, nonce);
    document::respond(page.status, body, encoding, headers, nonce)
}
