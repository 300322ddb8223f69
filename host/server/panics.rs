//! A panic never reaches the visitor as a dropped connection: one in a handler is caught
//! here and answered `500` (a small HTML page, or JSON under `/api`; the outer layers add
//! the security headers and count it), one in an answer's body cuts that answer only
//! (`connection.rs`), one on a render thread replaces that thread (`render/pool.rs`).
//! Each is logged once, as one record saying what it was, where, and what became of it,
//! and counted (`bilingue_panics_total`); a panic nothing catches is logged by the hook
//! alone (`logging.rs`).
//!
//! Debug builds only, for the tests: with `BILINGUE_TEST_PANICS=1` in the environment, a
//! request carrying `x-test-panic: handler` panics in its handler, and `x-test-panic: body`
//! gets an answer whose body panics once sent. Release builds have neither.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, PanicHookInfo};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use askama::Template;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::lang::{Direction, Language};
use crate::placement::prefix::offered_prefix;
use crate::texts::{HostTexts, Texts};

/// Panics caught since start-up, handlers, bodies and render threads alike.
static PANICS: AtomicU64 = AtomicU64::new(0);

pub fn caught() -> u64 {
    PANICS.load(Ordering::Relaxed)
}

thread_local! {
    /// How many [`catching`] calls this thread is inside: the hook leaves their panics to
    /// them, so that each is logged once, with what became of it.
    static CATCHING: Cell<u32> = const { Cell::new(0) };
    /// What the hook saw of the panic being caught.
    static SEEN: RefCell<Option<Panicked>> = const { RefCell::new(None) };
}

/// A panic as the hook saw it.
#[derive(Debug, Clone)]
pub struct Panicked {
    pub message: String,
    /// Its file, line and column.
    pub at: String,
    pub thread: String,
}

impl Panicked {
    pub fn from_hook(info: &PanicHookInfo<'_>) -> Self {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(not a string)");
        Self {
            message: message.to_owned(),
            at: info
                .location()
                .map_or_else(String::new, ToString::to_string),
            thread: std::thread::current()
                .name()
                .unwrap_or("unnamed")
                .to_owned(),
        }
    }
}

/// The panic hook's question: whether a [`catching`] on this thread will log `info`
/// (it keeps what it needs); if not, the hook logs it.
pub fn left_to_a_catcher(info: &PanicHookInfo<'_>) -> bool {
    let catching = CATCHING.get() > 0;
    if catching {
        SEEN.set(Some(Panicked::from_hook(info)));
    }
    catching
}

/// Runs `f`; a panic in it comes back as what the hook saw of it (not yet logged: see
/// [`note`]).
pub fn catching<R>(f: impl FnOnce() -> R) -> Result<R, Panicked> {
    CATCHING.set(CATCHING.get() + 1);
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.set(CATCHING.get() - 1);
    outcome.map_err(|payload| {
        SEEN.take().unwrap_or_else(|| Panicked {
            message: payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(not a string)".into()),
            at: String::new(),
            thread: std::thread::current()
                .name()
                .unwrap_or("unnamed")
                .to_owned(),
        })
    })
}

/// Logs a caught panic, once, with what became of it, and counts it.
pub fn note(panicked: &Panicked, while_doing: &str, path: &str) {
    PANICS.fetch_add(1, Ordering::Relaxed);
    tracing::error!(
        target: "bilingue::panic",
        panic = panicked.message,
        at = panicked.at,
        thread = panicked.thread,
        path = %path.escape_debug(),
        "a panic {while_doing}"
    );
}

/// A future each of whose polls runs in [`catching`].
struct Caught<F>(F);

impl<F: Future + Unpin> Future for Caught<F> {
    type Output = Result<F::Output, Panicked>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match catching(|| Pin::new(inner).poll(cx)) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(panicked) => Poll::Ready(Err(panicked)),
        }
    }
}

/// The texts of the build being served (development swaps builds): the 500 page is
/// written from them.
pub type CurrentTexts = Arc<dyn Fn() -> Arc<Texts> + Send + Sync>;

#[derive(Template)]
#[template(path = "error.html", config = "host/askama.toml")]
struct ErrorPage<'a> {
    lang: &'a str,
    /// The language is written right to left.
    rtl: bool,
    title: &'a str,
    text: &'a str,
}

/// The 500 page in `language`.
fn page(language: Language, direction: Direction, texts: &HostTexts) -> String {
    let page = ErrorPage {
        lang: language.code(),
        rtl: direction == Direction::Rtl,
        title: &texts.error_page_title,
        text: &texts.error_page_text,
    };
    // Only strings go in, which cannot fail to write; the text alone would still say it.
    page.render()
        .unwrap_or_else(|_| texts.error_page_text.clone())
}

/// The answer to a request whose handler panicked: `body`, of `content_type`.
fn internal_error(content_type: &'static str, body: String) -> Response {
    let mut response = (StatusCode::INTERNAL_SERVER_ERROR, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `answer`, the answer to a request for `uri`; or `500` when its handler panics: JSON
/// under `/api`, else the 500 page in the language of the path's prefix, or the default one.
/// The request's `Uri`, not its path copied: a clone shares the request's bytes, and only a
/// panic reads it.
pub async fn or_500(
    texts: &CurrentTexts,
    uri: Uri,
    answer: impl Future<Output = Response>,
) -> Response {
    match Caught(std::pin::pin!(answer)).await {
        Ok(response) => response,
        Err(panicked) => {
            let path = uri.path();
            note(&panicked, "in a handler: answered 500", path);
            if path == "/api" || path.starts_with("/api/") {
                let json = "{\"error\":\"internal server error\"}";
                return internal_error("application/json", json.into());
            }
            let texts = texts();
            let languages = texts.languages();
            let language = offered_prefix(languages, path)
                .map_or_else(|| languages.default_language(), |(language, _)| language);
            let direction = languages.info(language).direction();
            let page = page(language, direction, texts.of(language));
            internal_error("text/html; charset=utf-8", page)
        }
    }
}

/// The tests' way to make a handler panic: only in debug builds, only when asked for.
#[cfg(debug_assertions)]
pub fn test_trigger(router: axum::Router) -> axum::Router {
    match switched_on() {
        true => router.layer(axum::middleware::from_fn(panic_on_demand)),
        false => router,
    }
}

/// The tests' way to make a render thread panic: only in debug builds, only with the
/// switch, for a page whose path holds `x-test-panic-render-thread`.
#[cfg(debug_assertions)]
pub fn on_a_render_thread(request: &str) {
    if switched_on() && request.contains("x-test-panic-render-thread") {
        panic!("x-test-panic: render thread");
    }
}

#[cfg(debug_assertions)]
fn switched_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("BILINGUE_TEST_PANICS").as_deref() == Ok("1"))
}

#[cfg(debug_assertions)]
async fn panic_on_demand(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match request
        .headers()
        .get("x-test-panic")
        .map(HeaderValue::as_bytes)
    {
        Some(b"handler") => panic!("x-test-panic: handler"),
        Some(b"body") => {
            use futures_util::StreamExt as _;
            let parts = futures_util::stream::iter([Ok::<_, std::io::Error>(
                axum::body::Bytes::from_static(b"<!doctype html>"),
            )])
            .chain(futures_util::stream::poll_fn(
                |_| -> std::task::Poll<Option<Result<axum::body::Bytes, std::io::Error>>> {
                    panic!("x-test-panic: body")
                },
            ));
            axum::body::Body::from_stream(parts).into_response()
        }
        _ => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts() -> HostTexts {
        HostTexts {
            server_error: String::new(),
            come_back_later: String::new(),
            error_page_title: "Server <error>".into(),
            error_page_text: "Try again & again.".into(),
            stand_in_title: String::new(),
            stand_in_description: String::new(),
        }
    }

    #[test]
    fn the_page_is_in_its_language_with_its_texts_escaped_and_kept_by_no_one() {
        let english = crate::lang::demo().by_code("en").unwrap();
        let text = page(english, Direction::Ltr, &texts());
        assert!(
            text.starts_with("<!doctype html>\n<html lang=\"en\">"),
            "{text}"
        );
        assert!(
            text.contains("<title>Server &#60;error&#62;</title>"),
            "{text}"
        );
        assert!(text.contains("<p>Try again &#38; again.</p>"), "{text}");
        let answer = internal_error("text/html; charset=utf-8", text);
        assert_eq!(answer.status(), 500);
        assert_eq!(answer.headers()[header::CACHE_CONTROL], "no-store");
    }
}
