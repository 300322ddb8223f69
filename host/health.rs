//! What a supervisor asks: `/healthz` (the process answers) and `/readyz` (every render
//! thread is warmed and the host is not draining: send it traffic).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::state::AppState;

pub async fn healthz() -> &'static str {
    "ok"
}

pub async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    if state.lifecycle.draining() {
        return (StatusCode::SERVICE_UNAVAILABLE, "draining: shutting down\n").into_response();
    }
    let ready = state.pool.stats().ready_threads.load(Ordering::SeqCst);
    let threads = state.pool.threads();
    let status = if ready == threads {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, format!("{ready}/{threads} render threads ready\n")).into_response()
}
