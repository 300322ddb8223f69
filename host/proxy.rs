//! `--api-upstream`: every `/api/…` request is forwarded to `UPSTREAM/api/…` unchanged
//! (method, path, query, headers, body streamed both ways, status), hop-by-hop headers
//! dropped. An unreachable upstream is a 502 and a time-out a 504, each with a JSON
//! `{"error": …}` body so the shared client's `detail` carries it.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, StatusCode, header};
use axum::response::Response;

use crate::api;

#[derive(Clone)]
pub struct Upstream {
    base: String,
    client: reqwest::Client,
}

impl Upstream {
    /// `base` is `http://host[:port][/prefix]`; it must be plain HTTP (terminate TLS in front).
    pub fn new(base: &str, timeout: Duration) -> Result<Self, String> {
        let url = reqwest::Url::parse(base)
            .map_err(|e| format!("--api-upstream {base:?} is not a URL: {e}"))?;
        if url.scheme() != "http" {
            return Err(format!(
                "--api-upstream {base:?}: only http:// upstreams are supported"
            ));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(format!(
                "--api-upstream {base:?}: give a base URL without query or fragment"
            ));
        }
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| format!("cannot build the upstream client: {e}"))?;
        Ok(Self {
            base: base.trim_end_matches('/').to_string(),
            client,
        })
    }
}

pub async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let path_and_query = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let url = format!("{}{path_and_query}", upstream.base);
    let mut headers = without_hop_by_hop(&parts.headers);
    headers.remove(header::HOST);
    let sent = upstream
        .client
        .request(parts.method, url)
        .headers(headers)
        .body(reqwest::Body::wrap_stream(body.into_data_stream()))
        .send()
        .await;
    let answer = match sent {
        Ok(answer) => answer,
        Err(e) if e.is_timeout() => {
            tracing::warn!(error = %e, "API upstream timed out");
            return api::error(
                StatusCode::GATEWAY_TIMEOUT,
                "the API server did not answer in time",
            );
        }
        Err(e) => {
            tracing::warn!(error = %e, "API upstream unreachable");
            return api::error(StatusCode::BAD_GATEWAY, "the API server cannot be reached");
        }
    };
    let status = answer.status();
    let headers = without_hop_by_hop(answer.headers());
    let mut response = Response::new(Body::from_stream(answer.bytes_stream()));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

/// RFC 9110 §7.6.1: the connection-specific headers, and any the Connection header names.
fn without_hop_by_hop(headers: &HeaderMap) -> HeaderMap {
    const HOP_BY_HOP: [&str; 8] = [
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    ];
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    let mut kept = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        if !HOP_BY_HOP.contains(&name.as_str()) && !named.contains(name) {
            kept.append(name.clone(), value.clone());
        }
    }
    kept
}
