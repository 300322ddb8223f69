//! Answers a page request: picks the language, renders the screen in V8, writes the document.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::HostError;
use crate::lang::{self, Language, PathLanguage};
use crate::page::{self, PageParts};
use crate::render::RenderRequest;

/// Prefixed pages are the same for everyone: a short shared cache. Unprefixed ones follow
/// the visitor's saved choice, so they vary by cookie and are revalidated every time.
const PREFIXED_CACHE: &str = "public, max-age=60";
const UNPREFIXED_CACHE: &str = "private, no-cache";

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
    let path = uri.path();
    let (language, rest, cache_control, vary, forced_not_found) = match lang::split_path(path) {
        PathLanguage::Prefixed { language, rest } => (language, rest, PREFIXED_CACHE, None, false),
        PathLanguage::Unsupported => (
            Language::default_language(),
            path,
            PREFIXED_CACHE,
            None,
            true,
        ),
        PathLanguage::Unprefixed { rest } => {
            let saved =
                lang::from_cookies(headers.get_all(header::COOKIE).iter().map(|v| v.as_bytes()));
            (
                saved.unwrap_or_else(Language::default_language),
                rest,
                UNPREFIXED_CACHE,
                Some("cookie"),
                false,
            )
        }
    };
    let request = RenderRequest {
        language: language.code(),
        path: rest.to_string(),
        time_zone: state.time_zone.clone(),
    };
    let rendered = state.pool.render(&request).await?;
    let status = if forced_not_found {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::from_u16(rendered.status)
            .map_err(|_| HostError::BadRenderStatus(rendered.status))?
    };
    let alternates = if status == StatusCode::OK {
        page::alternates(rest)
    } else {
        Vec::new()
    };
    let parts = PageParts {
        language,
        rendered: &rendered,
        status,
        alternates: &alternates,
        cache_control,
        vary,
    };
    Ok(page::respond(&state.document, parts)?)
}
