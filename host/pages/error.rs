//! The page handler's error: what the visitor sees (short, in the page's language, no
//! internals) and what the log gets (the cause). Render failures that still allow a page
//! get their fallback instead (see `fallback.rs`); only these are left.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::render::RenderError;
use crate::texts::HostTexts;

#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("render failed: {0}")]
    Render(#[from] RenderError),
    #[error("the document template failed: {0}")]
    Template(#[from] askama::Error),
}

impl PageError {
    /// Logged, then answered 500 with `texts`' words for it.
    pub fn answer(self, texts: &HostTexts) -> Response {
        tracing::error!(error = %self, "request failed");
        let mut response = (
            StatusCode::INTERNAL_SERVER_ERROR,
            texts.server_error.clone(),
        )
            .into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}
