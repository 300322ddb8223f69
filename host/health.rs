//! What a supervisor asks: `/healthz` (the process answers) and `/readyz` (every render
//! thread is warmed and the host is not draining: send it traffic).

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::render::Readiness;
use crate::server::Lifecycle;

#[derive(Clone)]
struct Health {
    readiness: Arc<Readiness>,
    lifecycle: Arc<Lifecycle>,
}

pub fn routes(readiness: Arc<Readiness>, lifecycle: Arc<Lifecycle>) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .with_state(Health {
            readiness,
            lifecycle,
        })
}

async fn healthz() -> &'static str {
    "ok"
}

async fn readyz(State(health): State<Health>) -> Response {
    if health.lifecycle.draining() {
        return (StatusCode::SERVICE_UNAVAILABLE, "draining: shutting down\n").into_response();
    }
    let (ready, threads) = (health.readiness.ready_threads(), health.readiness.threads());
    let status = if ready == threads {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, format!("{ready}/{threads} render threads ready\n")).into_response()
}
