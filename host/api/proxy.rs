//! `--api-upstream`: every `/api/…` request is forwarded to `UPSTREAM/api/…` (method, path,
//! query, headers, body streamed both ways, status), and nowhere else: a path that would
//! leave `UPSTREAM/api` (dot segments, plain or encoded, backslashes, encoded slashes) is
//! refused with a 400 before anything is sent. Like a reverse proxy in front of its own
//! API, the host drops hop-by-hop headers, names the client in `X-Forwarded-For` (replacing
//! whatever the client claimed), and keeps its own security headers on the answer.
//!
//! Two time limits: `--api-timeout` until the upstream's answer begins (else 504), and
//! `--api-idle-timeout` between two parts of a body, either way, so server-sent events and
//! long downloads live as long as they flow. An unreachable upstream is a 502; a client
//! whose own body is malformed gets a 400, and one whose body stops arriving a 408.

use std::io;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use futures_util::{Stream, StreamExt};
use url::Position;

use super::forwarded_headers::{request_headers, response_headers};
use super::http1_client::{CallLimits, Failure, Http1Client};
use super::json_error;
use crate::origin::Origin;
use crate::server::PeerAddr;
use crate::trace::UpstreamCall;

#[derive(Clone)]
pub struct Upstream {
    base: reqwest::Url,
    /// The base URL's path without its trailing slash: "" or "/prefix".
    base_path: String,
    client: reqwest::Client,
    /// A loader's calls, answered whole (`http1_client`).
    whole: Arc<Http1Client>,
    head_timeout: Duration,
    idle_timeout: Duration,
    /// The public scheme and host, as the upstream is told them.
    forwarded_proto: HeaderValue,
    forwarded_host: HeaderValue,
}

/// The methods an API is asked with. CONNECT, TRACE and the rest are not forwarded: a
/// tunnel or an echo of the request is not the API's to give.
const METHODS: [Method; 7] = [
    Method::GET,
    Method::HEAD,
    Method::POST,
    Method::PUT,
    Method::PATCH,
    Method::DELETE,
    Method::OPTIONS,
];

impl Upstream {
    /// `base` is `http://host[:port][/prefix]`; it must be plain HTTP (terminate TLS in front).
    pub fn new(
        base: &str,
        head_timeout: Duration,
        idle_timeout: Duration,
        origin: &Origin,
    ) -> Result<Self, String> {
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
        let base_path = url.path().trim_end_matches('/').to_string();
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| format!("cannot build the upstream client: {e}"))?;
        let host = url
            .host()
            .ok_or_else(|| format!("--api-upstream {base:?} names no host"))?;
        let port = url.port_or_known_default().unwrap_or(80);
        let whole = Arc::new(Http1Client::new(host, port));
        Ok(Self {
            whole,
            base: url,
            base_path,
            client,
            head_timeout,
            idle_timeout,
            forwarded_proto: HeaderValue::from_static(origin.scheme()),
            forwarded_host: HeaderValue::try_from(origin.authority())
                .map_err(|e| format!("the public URL's host: {e}"))?,
        })
    }

    /// The upstream URL of a request for `path` (under `/api`) and `query`; or why the path
    /// is refused. The URL is checked after it is built: whatever the URL parser would
    /// resolve, the upstream sees `BASE` followed by exactly the path the client sent.
    fn target(&self, path: &str, query: Option<&str>) -> Result<reqwest::Url, &'static str> {
        if let Some(problem) = super::path_problem(path) {
            return Err(problem);
        }
        let expected = format!("{}{path}", self.base_path);
        let mut url = self.base.clone();
        url.set_path(&expected);
        url.set_query(query);
        if url.path() != expected {
            return Err("this path cannot be forwarded as it is");
        }
        Ok(url)
    }
}

/// Why a client's own body failed, once it has.
#[derive(Debug, Clone, Copy)]
enum ClientBodyFailure {
    Malformed,
    Stalled,
}

pub async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let target = match upstream.target_of(&parts) {
        Ok(target) => target,
        Err(refused) => return *refused,
    };
    let failure = Arc::new(OnceLock::new());
    let body = client_body(body, upstream.idle_timeout, failure.clone());
    let (headers, traced) = upstream.headers_of(&parts);
    let sent = upstream
        .client
        .request(parts.method, target)
        .headers(headers)
        .body(reqwest::Body::wrap_stream(body))
        .send();
    let answered = tokio::time::timeout(upstream.head_timeout, sent).await;
    traced.end(match &answered {
        Ok(Ok(answer)) => Some(answer.status()),
        _ => None,
    });
    let answer = match answered {
        Ok(Ok(answer)) => answer,
        Ok(Err(error)) => {
            return match failure.get() {
                Some(ClientBodyFailure::Malformed) => json_error(
                    StatusCode::BAD_REQUEST,
                    "the request body could not be read",
                ),
                Some(ClientBodyFailure::Stalled) => json_error(
                    StatusCode::REQUEST_TIMEOUT,
                    "the request body stopped arriving",
                ),
                None => unreachable_upstream(&error),
            };
        }
        Err(_) => return timed_out(upstream.head_timeout),
    };
    let status = answer.status();
    let headers = match passed_on(status, answer.headers()) {
        Ok(headers) => headers,
        Err(refused) => return *refused,
    };
    let body = idle_limited(answer.bytes_stream(), upstream.idle_timeout, |error| {
        tracing::warn!(%error, "the API server's answer broke off");
    });
    let mut response = Response::new(Body::from_stream(body));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

impl Upstream {
    /// A loader's call, forwarded as a browser's request is (the same checks, headers and
    /// errors) and its answer read whole, at most `max_body` bytes; `Err` says why the
    /// body could not be read, and whether the answer's head set a cookie.
    pub async fn answer_whole(
        &self,
        parts: Parts,
        body: Bytes,
        max_body: usize,
    ) -> Result<Response, (String, bool)> {
        let target = match self.target_of(&parts) {
            Ok(target) => target,
            Err(refused) => return Ok(*refused),
        };
        let (headers, traced) = self.headers_of(&parts);
        let path_and_query = &target[Position::BeforePath..];
        let call = self
            .whole
            .call(&parts.method, path_and_query, &headers, &body);
        // A thousand calls may wait on a slow API: each holds its request's bytes alone.
        drop((parts, headers, body, target));
        let limits = CallLimits {
            head_timeout: self.head_timeout,
            idle_timeout: self.idle_timeout,
            max_body,
        };
        let answered = self.whole.send(call, limits).await;
        traced.end(match &answered {
            Ok(answer) => Some(answer.status),
            Err(Failure::Body { status, .. }) => Some(*status),
            Err(_) => None,
        });
        let answer = match answered {
            Ok(answer) => answer,
            Err(Failure::TimedOut) => return Ok(timed_out(self.head_timeout)),
            Err(Failure::Unreachable(error)) => return Ok(unreachable_upstream(&error)),
            Err(Failure::Malformed(why)) => return Ok(unreachable_upstream(&why)),
            Err(Failure::Body {
                why, sets_cookie, ..
            }) => {
                tracing::warn!(error = %why, "the API server's answer broke off");
                return Err((why, sets_cookie));
            }
        };
        let headers = match passed_on(answer.status, &answer.headers) {
            Ok(headers) => headers,
            Err(refused) => return Ok(*refused),
        };
        let mut response = Response::new(Body::from(answer.body));
        *response.status_mut() = answer.status;
        *response.headers_mut() = headers;
        Ok(response)
    }

    /// The headers a request takes upstream (the trace's among them), and its call as the
    /// trace records it.
    fn headers_of(&self, parts: &Parts) -> (HeaderMap, UpstreamCall) {
        let peer = parts.extensions.get::<PeerAddr>().copied();
        let mut headers = request_headers(
            &parts.headers,
            peer,
            &self.forwarded_proto,
            &self.forwarded_host,
        );
        let traced = UpstreamCall::start(&parts.extensions, &parts.method, &mut headers);
        (headers, traced)
    }

    /// Where a request goes upstream, or the answer that refuses it: a method the API is
    /// not asked with (405), a path that would leave the API (400).
    fn target_of(&self, parts: &Parts) -> Result<reqwest::Url, Box<Response>> {
        if !METHODS.contains(&parts.method) {
            let mut refused = json_error(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{} is not forwarded to the API", parts.method),
            );
            refused.headers_mut().insert(
                header::ALLOW,
                HeaderValue::from_static("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
            );
            return Err(Box::new(refused));
        }
        self.target(parts.uri.path(), parts.uri.query())
            .map_err(|why| Box::new(json_error(StatusCode::BAD_REQUEST, why)))
    }
}

fn unreachable_upstream(error: &dyn std::fmt::Display) -> Response {
    tracing::warn!(%error, "API upstream unreachable");
    json_error(StatusCode::BAD_GATEWAY, "the API server cannot be reached")
}

fn timed_out(head_timeout: Duration) -> Response {
    tracing::warn!(
        timeout_ms = head_timeout.as_millis() as u64,
        "API upstream timed out"
    );
    json_error(
        StatusCode::GATEWAY_TIMEOUT,
        "the API server did not answer in time",
    )
}

/// The headers the client gets with an upstream's answer of `status`, or the answer that
/// replaces one that cannot be passed on.
fn passed_on(status: StatusCode, headers: &HeaderMap) -> Result<HeaderMap, Box<Response>> {
    if !(200..=599).contains(&status.as_u16()) {
        // 101 (an upgrade the client never asked the host for) or a status that is none.
        tracing::warn!(%status, "the API server answered a status that cannot be passed on");
        return Err(Box::new(json_error(
            StatusCode::BAD_GATEWAY,
            "the API server answered with an invalid status",
        )));
    }
    let mut headers = response_headers(headers);
    if status == StatusCode::NO_CONTENT || status == StatusCode::RESET_CONTENT {
        // These carry no content: a length would be a lie to the client (RFC 9110 §8.6).
        headers.remove(header::CONTENT_LENGTH);
    }
    Ok(headers)
}

/// The client's body as it is forwarded: its own failures are recorded, so that the answer
/// blames the client and not the upstream.
fn client_body(
    body: Body,
    idle: Duration,
    failure: Arc<OnceLock<ClientBodyFailure>>,
) -> impl Stream<Item = io::Result<Bytes>> + Send + 'static {
    idle_limited(body.into_data_stream(), idle, move |error| {
        let kind = if error.kind() == io::ErrorKind::TimedOut {
            ClientBodyFailure::Stalled
        } else {
            ClientBodyFailure::Malformed
        };
        let _ = failure.set(kind);
    })
}

/// `stream`, ended with an error when it fails or when no part comes for `idle`; `on_error`
/// is told why.
fn idle_limited<S, E>(
    stream: S,
    idle: Duration,
    on_error: impl Fn(&io::Error) + Send + Sync + 'static,
) -> impl Stream<Item = io::Result<Bytes>> + Send + 'static
where
    S: Stream<Item = Result<Bytes, E>> + Send + Unpin + 'static,
    E: std::error::Error + Send + Sync + 'static,
{
    let on_error = Arc::new(on_error);
    futures_util::stream::unfold(Some(stream), move |stream| {
        let on_error = on_error.clone();
        async move {
            let mut stream = stream?;
            let error = match tokio::time::timeout(idle, stream.next()).await {
                Ok(Some(Ok(bytes))) => return Some((Ok(bytes), Some(stream))),
                Ok(None) => return None,
                Ok(Some(Err(error))) => io::Error::other(error),
                Err(_) => io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("nothing came for {idle:?}"),
                ),
            };
            on_error(&error);
            Some((Err(error), None))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upstream(base: &str) -> Upstream {
        let origin = Origin::parse("https://www.example.org").unwrap();
        Upstream::new(
            base,
            Duration::from_secs(1),
            Duration::from_secs(1),
            &origin,
        )
        .unwrap()
    }

    #[test]
    fn a_path_is_forwarded_under_the_base_exactly() {
        let root = upstream("http://127.0.0.1:9");
        assert_eq!(
            root.target("/api/x", None).unwrap().as_str(),
            "http://127.0.0.1:9/api/x"
        );
        let upstream = upstream("http://127.0.0.1:9/v1/");
        let url = upstream
            .target("/api/a/..b/c.d", Some("x=1&y=%2e"))
            .unwrap();
        assert_eq!(
            url.as_str(),
            "http://127.0.0.1:9/v1/api/a/..b/c.d?x=1&y=%2e"
        );
        assert_eq!(
            upstream.target("/api", None).unwrap().as_str(),
            "http://127.0.0.1:9/v1/api"
        );
    }

    #[test]
    fn no_path_leaves_the_api_of_the_base() {
        let upstream = upstream("http://127.0.0.1:9/v1");
        for path in [
            "/api/a/../../../admin",
            "/api/..",
            "/api/%2e%2e/secret",
            "/api/.%2E/secret",
            "/api/%2e",
            "/api/./x",
            "/api/a/..\\..\\secret",
            "/api/a%5c..%5csecret",
            "/api/a%2f..%2fsecret",
            "/api/%00",
            "/admin",
            "/apix",
            "/api/a b",
        ] {
            assert!(upstream.target(path, None).is_err(), "{path}");
        }
    }
}
