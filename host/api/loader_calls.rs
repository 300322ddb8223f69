//! The API calls of a page's loader, made in-process: the same `/api` routes a browser
//! reaches (built in, or forwarded to the upstream), with the visitor's Cookie (but their
//! saved language choice) and Authorization, from the visitor's address, asking in the
//! page's language. A loader reaches nothing else: a URL with a scheme or a host, or a path
//! outside `/api`, is refused before any call, whatever the bundle built.
//!
//! Whether a call makes its page the visitor's alone is read from what was sent and what
//! came back, not from a parse of the visitor's headers: a request that left with a Cookie
//! or an Authorization, or an answer that sets a cookie. The keys an answer names for its
//! data (its `Surrogate-Key`, the upstream's or the built-in API's) go to the page, read
//! strictly (`data_keys`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderName, HeaderValue, Method, Request, header, uri::PathAndQuery};
use tokio::runtime::Handle;
use tracing::Instrument as _;

use super::path_problem;
use super::proxy::Upstream;
use crate::data_keys::DataKeys;
use crate::render::{ApiAnswer, ApiCall, ApiCaller, CallOutcome, ClientLeft, Visitor};
use crate::server::PeerAddr;
use crate::trace::{Kind, Propagated, Span, SpanId, Value};

/// An answer larger than this is refused: it would travel in the page's HTML.
const MAX_ANSWER_BYTES: usize = 4 << 20;

/// Answers loaders' calls from the `/api` router, on the host's own runtime (never on a
/// render thread).
pub struct LoaderCalls {
    pub api: Router,
    /// `--api-upstream`: what `api` forwards to, asked directly for answers read whole.
    pub upstream: Option<Arc<Upstream>>,
    pub runtime: Handle,
    /// `--load-timeout`, to say what passed when a call is cut.
    pub load_timeout: Duration,
}

impl ApiCaller for LoaderCalls {
    fn call(
        &self,
        call: ApiCall,
        visitor: Arc<Visitor>,
        deadline: Instant,
        left: ClientLeft,
        answer: Box<dyn FnOnce(CallOutcome) + Send>,
    ) {
        let api = match &self.upstream {
            Some(upstream) => Api::Upstream(upstream.clone()),
            None => Api::Router(self.api.clone()),
        };
        let load_timeout = self.load_timeout;
        let in_request = tracing::info_span!("request", trace_id = %visitor.trace.id());
        self.runtime.spawn(
            async move {
                let id = call.id;
                let traced = TracedCall::start(&visitor, &call);
                let answered =
                    tokio::time::timeout_at(deadline.into(), make(api, call, &visitor, &traced));
                // Whatever was sent may have reached the API: a page whose call timed out is
                // not shared. (The page of a client that left is gone: nothing reads it.)
                let cut = |answer| CallOutcome {
                    answer,
                    per_visitor: visitor.cookie.is_some() || visitor.authorization.is_some(),
                    data_keys: DataKeys::default(),
                };
                let outcome = tokio::select! {
                    answered = answered => answered.unwrap_or_else(|_| cut(ApiAnswer {
                        timed_out: true,
                        ..ApiAnswer::failed(
                            id,
                            format!("timeout of {}ms exceeded", load_timeout.as_millis()),
                        )
                    })),
                    () = left.wait() => cut(ApiAnswer::failed(id, "the page ended before its answer (its visitor left, or it failed)")),
                };
                traced.end(&visitor, &outcome.answer);
                answer(outcome);
            }
            .instrument(in_request),
        );
    }
}

/// A loader's call as the trace sees it: a span of the page's render, whose id the API
/// gets as its parent (`traceparent`).
struct TracedCall {
    span: SpanId,
    started: Instant,
    method: String,
    path: String,
}

impl TracedCall {
    fn start(visitor: &Visitor, call: &ApiCall) -> Self {
        let recording = visitor.trace.recording();
        Self {
            span: SpanId::random(),
            started: Instant::now(),
            method: if recording {
                call.method.clone()
            } else {
                String::new()
            },
            path: match recording {
                true => call.url.split('?').next().unwrap_or_default().to_owned(),
                false => String::new(),
            },
        }
    }

    fn end(self, visitor: &Visitor, answer: &ApiAnswer) {
        let trace = &visitor.trace;
        trace.add_call(self.started, Instant::now());
        if !trace.recording() {
            return;
        }
        let mut span = Span {
            id: self.span,
            parent: Some(trace.render_span()),
            kind: Kind::Client,
            failed: answer.status.is_none_or(|status| status >= 500),
            ..Span::internal("api call", self.started, Instant::now())
        }
        .with("http.request.method", Value::Text(self.method))
        .with("url.path", Value::Text(self.path));
        if let Some(status) = answer.status {
            span = span.with(
                "http.response.status_code",
                Value::Number(i64::from(status)),
            );
        }
        trace.record(span);
    }
}

/// Where a loader's calls are answered.
enum Api {
    Router(Router),
    Upstream(Arc<Upstream>),
}

async fn make(api: Api, call: ApiCall, visitor: &Visitor, traced: &TracedCall) -> CallOutcome {
    let id = call.id;
    let refused = |why: String| CallOutcome {
        answer: ApiAnswer::failed(id, why),
        per_visitor: false,
        data_keys: DataKeys::default(),
    };
    let target = match target(&call.url) {
        Ok(target) => target,
        Err(why) => {
            tracing::warn!(url = %call.url.escape_debug(), why, "a loader's call was refused");
            return refused(format!("{why}: {}", call.url));
        }
    };
    let mut request = match request(call, target, visitor) {
        Ok(request) => request,
        Err(why) => return refused(why),
    };
    let sent_credentials = [header::COOKIE, header::AUTHORIZATION]
        .iter()
        .any(|name| request.headers().contains_key(name));
    visitor
        .trace
        .context()
        .propagate(traced.span, request.headers_mut());
    request.extensions_mut().insert(Propagated);
    request.extensions_mut().insert(visitor.trace.clone());
    let outcome = answer(api, request, id).await;
    CallOutcome {
        per_visitor: sent_credentials || outcome.per_visitor,
        ..outcome
    }
}

/// The API's answer to `request`; whether it sets a cookie (`per_visitor`), and the keys
/// it names.
async fn answer(api: Api, request: Request<Bytes>, id: u64) -> CallOutcome {
    let path = request.uri().path().to_owned();
    let response = match api {
        Api::Router(mut router) => {
            match tower_service::Service::call(&mut router, request.map(Body::from)).await {
                Ok(response) => response,
                Err(never) => match never {},
            }
        }
        Api::Upstream(upstream) => {
            let (parts, body) = request.into_parts();
            match upstream.answer_whole(parts, body, MAX_ANSWER_BYTES).await {
                Ok(response) => response,
                Err((why, sets_cookie)) => {
                    let why = format!("the answer could not be read: {why}");
                    return CallOutcome {
                        answer: ApiAnswer::failed(id, why),
                        per_visitor: sets_cookie,
                        data_keys: DataKeys::default(),
                    };
                }
            }
        }
    };
    let (parts, body) = response.into_parts();
    let sets_cookie = parts.headers.contains_key(header::SET_COOKIE);
    let data_keys = DataKeys::of_answer(&parts.headers, &path);
    let body = match axum::body::to_bytes(body, MAX_ANSWER_BYTES).await {
        Ok(body) => body,
        Err(e) => {
            let why = format!("the answer could not be read: {e}");
            return CallOutcome {
                answer: ApiAnswer::failed(id, why),
                per_visitor: sets_cookie,
                data_keys: DataKeys::default(),
            };
        }
    };
    let headers = parts
        .headers
        .iter()
        .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_string())))
        .collect();
    let answer = ApiAnswer {
        id,
        status: Some(parts.status.as_u16()),
        headers,
        body: Some(String::from_utf8_lossy(&body).into_owned()),
        ..ApiAnswer::default()
    };
    CallOutcome {
        answer,
        per_visitor: sets_cookie,
        data_keys,
    }
}

/// The path and query a loader's URL names, if it names one under this host's `/api`.
fn target(url: &str) -> Result<PathAndQuery, &'static str> {
    if !url.starts_with('/') || url.starts_with("//") {
        return Err("a loader may call only this host's /api, by path");
    }
    if url.contains('\\') || url.contains('#') {
        return Err("a loader's URL may hold no backslash or fragment");
    }
    let path = url.split_once('?').map_or(url, |(path, _)| path);
    if let Some(problem) = path_problem(path) {
        return Err(problem);
    }
    PathAndQuery::try_from(url).map_err(|_| "a loader's URL is not a valid path")
}

/// The request as the API gets it: the call's own headers, and the visitor's where the
/// call does not set them; `Accept-Language` names the page's language.
fn request(
    call: ApiCall,
    target: PathAndQuery,
    visitor: &Visitor,
) -> Result<Request<Bytes>, String> {
    let method = Method::from_bytes(call.method.as_bytes())
        .map_err(|_| format!("{:?} is not a method", call.method))?;
    let mut request = Request::builder()
        .method(method)
        .uri(target)
        .body(call.body.map_or_else(Bytes::new, Bytes::from))
        .map_err(|e| e.to_string())?;
    let headers = request.headers_mut();
    for (name, value) in &call.headers {
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|e| e.to_string())?;
        let value = HeaderValue::from_str(value).map_err(|e| e.to_string())?;
        headers.insert(name, value);
    }
    let language = Some(visitor.accept_language.clone());
    for (name, value) in [
        (header::COOKIE, &visitor.cookie),
        (header::AUTHORIZATION, &visitor.authorization),
        (header::ACCEPT_LANGUAGE, &language),
    ] {
        if let Some(value) = value
            && !headers.contains_key(&name)
        {
            headers.insert(name, value.clone());
        }
    }
    if let Some(peer) = visitor.peer {
        request.extensions_mut().insert(PeerAddr(peer));
    }
    Ok(request)
}

#[cfg(test)]
mod tests {
    use super::target;

    #[test]
    fn a_loader_reaches_this_hosts_api_by_path_only() {
        for url in ["/api/status", "/api", "/api/items?x=1&y=%2e"] {
            assert!(target(url).is_ok(), "{url}");
        }
        for url in [
            "http://evil.example/api/status",
            "//evil.example/api/status",
            "https://127.0.0.1/api/status",
            "api/status",
            "/admin",
            "/apix",
            "/api/../admin",
            "/api/%2e%2e/admin",
            "/api/a\\..\\..\\admin",
            "/api/a%2f..%2fadmin",
            "/api/status#x",
            "",
        ] {
            assert!(target(url).is_err(), "{url}");
        }
    }
}
