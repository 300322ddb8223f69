//! Stand-ins for the servers the host calls (an `--api-upstream`, an OTLP collector): a
//! small axum server on 127.0.0.1:0, on a thread of its own, that notes every request it
//! gets before it answers.
//!
//! ```ignore
//! let upstream = Upstream::builder()
//!     .route("/api/status", get(|| async { status_json("9.9.9") }))
//!     .delay(Duration::from_millis(300))
//!     .start();
//! let host = support::start(&["--api-upstream", &upstream.url]);
//! // ...
//! assert_eq!(upstream.seen().len(), 1);
//! ```

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::MethodRouter;

/// A request as the upstream got it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: Method,
    /// The request target: its path and query.
    pub target: String,
    pub headers: HeaderMap,
}

impl Seen {
    /// The value of the header `name`, if the request carried it.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
    }
}

/// A running stand-in; it serves until the test process ends.
pub struct Upstream {
    /// Its base URL, `http://127.0.0.1:PORT`.
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Upstream {
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// Every request it got so far, in the order they came.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

/// What a stand-in answers, and how late.
#[derive(Default)]
pub struct Builder {
    router: Router,
    delay: Duration,
}

impl Builder {
    /// Answers requests for `path` (axum's syntax: `/api/{name}`, `/{*rest}`) with `answer`.
    pub fn route(mut self, path: &str, answer: MethodRouter) -> Self {
        self.router = self.router.route(path, answer);
        self
    }

    /// Answers with every route of `router` too (nested routes, a fallback, middleware).
    pub fn merge(mut self, router: Router) -> Self {
        self.router = self.router.merge(router);
        self
    }

    /// Every request waits this long, once seen, before its route answers it.
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    pub fn start(self) -> Upstream {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let router = self.router.layer(middleware::from_fn_with_state(
            (seen.clone(), self.delay),
            note_then_wait,
        ));
        Upstream {
            url: serve(router),
            seen,
        }
    }
}

async fn note_then_wait(
    State((seen, delay)): State<(Arc<Mutex<Vec<Seen>>>, Duration)>,
    request: Request,
    next: Next,
) -> Response {
    seen.lock().unwrap().push(Seen {
        method: request.method().clone(),
        target: request.uri().to_string(),
        headers: request.headers().clone(),
    });
    tokio::time::sleep(delay).await;
    next.run(request).await
}

/// Serves `router` on 127.0.0.1:0 from a thread of its own; its base URL.
fn serve(router: Router) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
            .block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                axum::serve(listener, router).await.unwrap();
            });
    });
    format!("http://{}", rx.recv().unwrap())
}

/// A valid answer of `/api/status` (JSON) that names `version`.
pub fn status_json(version: &str) -> String {
    format!(
        r#"{{"version":"{version}","languages":["fr","en"],"serverTime":"2030-01-02T03:04:05.000Z"}}"#
    )
}

/// `body` as a JSON answer.
pub fn json(body: String) -> Response {
    axum::response::IntoResponse::into_response(([("content-type", "application/json")], body))
}
