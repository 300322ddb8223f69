//! The host's one error type: handlers use `?`, and this decides what the visitor sees
//! (short, in both languages, no internals) and what the log gets (the cause).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::render::RenderError;

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("render failed: {0}")]
    Render(#[from] RenderError),
    #[error("the document template failed: {0}")]
    Template(#[from] askama::Error),
    #[error("the server bundle answered status {0}")]
    BadRenderStatus(u16),
}

impl IntoResponse for HostError {
    fn into_response(self) -> Response {
        let (status, text) = match &self {
            HostError::Render(RenderError::Busy) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "Le serveur est très occupé, réessayez dans un instant. / The server is very busy, try again in a moment.",
            ),
            _ => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "Le serveur a rencontré une erreur. / The server met an error.",
            ),
        };
        tracing::error!(error = %self, "request failed");
        let mut response = (status, text).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if status == StatusCode::SERVICE_UNAVAILABLE {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}
