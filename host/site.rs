//! Answers a page request: picks the language, serves the cached document or renders the
//! screen in V8 and writes it, then answers with the page's language signals.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::assets::accepted_encodings;
use crate::error::HostError;
use crate::lang::{self, Language, PathLanguage};
use crate::nonce::Nonce;
use crate::page::{self, PageHeaders};
use crate::page_cache::{CachedPage, NONCE_SLOT};
use crate::render::{RenderError, RenderRequest};
use crate::state::AppState;

/// Prefixed pages are the same for everyone but their script nonce, which must not be
/// replayed to other visitors: a short cache in the browser only. Unprefixed ones follow the
/// visitor's saved choice, so they vary by cookie and are revalidated every time.
const PREFIXED_CACHE: &str = "private, max-age=60";
const UNPREFIXED_CACHE: &str = "private, no-cache";

/// Which page a request asks for, once its path and cookies are read.
struct PageRequest<'a> {
    language: Language,
    /// The path without its language prefix.
    rest: &'a str,
    /// An unsupported language prefix: a 404 whatever the app would render.
    unsupported: bool,
    unprefixed: bool,
}

fn read_request<'a>(path: &'a str, headers: &HeaderMap) -> PageRequest<'a> {
    match lang::split_path(path) {
        PathLanguage::Prefixed { language, rest } => PageRequest {
            language,
            rest,
            unsupported: false,
            unprefixed: false,
        },
        PathLanguage::Unsupported => PageRequest {
            language: Language::default_language(),
            rest: path,
            unsupported: true,
            unprefixed: false,
        },
        PathLanguage::Unprefixed { rest } => {
            let saved =
                lang::from_cookies(headers.get_all(header::COOKIE).iter().map(|v| v.as_bytes()));
            let language = saved.unwrap_or_else(Language::default_language);
            PageRequest {
                language,
                rest,
                unsupported: false,
                unprefixed: true,
            }
        }
    }
}

pub async fn serve(
    State(state): State<Arc<AppState>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, HostError> {
    if method != Method::GET && method != Method::HEAD {
        return Ok((
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "method not allowed",
        )
            .into_response());
    }
    let request = read_request(uri.path(), &headers);
    let page_headers = PageHeaders {
        language: request.language,
        cache_control: if request.unprefixed {
            UNPREFIXED_CACHE
        } else {
            PREFIXED_CACHE
        },
        vary_cookie: request.unprefixed,
    };
    let code = request.language.code();
    let nonce = Nonce::random();
    if !request.unsupported
        && let Some(cached) = state.pages.get(code, request.rest)
    {
        return Ok(respond_cached(&cached, &headers, page_headers, &nonce));
    }

    let render = RenderRequest {
        language: code,
        path: request.rest.to_string(),
        time_zone: state.time_zone.clone(),
    };
    let rendered = match state.pool.render(&render).await {
        Ok(rendered) => rendered,
        Err(RenderError::PoolClosed) => return Err(HostError::Render(RenderError::PoolClosed)),
        Err(error) => {
            match &error {
                RenderError::Busy => {
                    tracing::warn!(path = %uri.path(), "render queue full: sending the client-rendered page")
                }
                _ => {
                    tracing::error!(path = %uri.path(), %error, "server render failed: sending the client-rendered page")
                }
            }
            let title = state.shell_title(request.language);
            let shell = page::shell(
                &state.document,
                request.language,
                title,
                request.rest,
                &state.time_zone,
                &nonce,
            )?;
            let status = if request.unsupported {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::OK
            };
            let no_store = PageHeaders {
                cache_control: "no-store",
                ..page_headers
            };
            return Ok(page::respond(status, shell.into(), None, no_store, &nonce));
        }
    };
    let status = if request.unsupported {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::from_u16(rendered.status)
            .map_err(|_| HostError::BadRenderStatus(rendered.status))?
    };
    let alternates = if status == StatusCode::OK {
        page::alternates(request.rest)
    } else {
        Vec::new()
    };
    let write = |nonce: &Nonce| {
        page::document(
            &state.document,
            request.language,
            &rendered,
            &alternates,
            nonce,
        )
    };
    if rendered.cacheable && !request.unsupported && state.pages.enabled() {
        let cached = Arc::new(CachedPage::new(status, &write(&NONCE_SLOT)?));
        state.pages.insert(code, request.rest, cached.clone());
        return Ok(respond_cached(&cached, &headers, page_headers, &nonce));
    }
    let document = write(&nonce)?;
    Ok(page::respond(
        status,
        document.into(),
        None,
        page_headers,
        &nonce,
    ))
}

/// A cached page with this response's nonce: gzip when the client takes it (brotli streams
/// cannot be spliced, so a cached page is never sent in brotli), else plain.
fn respond_cached(
    page: &CachedPage,
    request_headers: &HeaderMap,
    headers: PageHeaders,
    nonce: &Nonce,
) -> Response {
    if accepted_encodings(request_headers).gzip {
        page::respond(
            page.status,
            page.gzip(nonce).into(),
            Some("gzip"),
            headers,
            nonce,
        )
    } else {
        page::respond(page.status, page.plain(nonce).into(), None, headers, nonce)
    }
}
