//! The page request's branches through the composed routes (`app()`, `oneshot`), with a
//! scripted renderer in place of V8: what is kept, who waits for whom, what a failure,
//! a full queue, a stream, a crawler, HEAD and a validator get.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use tokio::sync::{Semaphore, mpsc};
use tower::ServiceExt as _;

use super::landing;
use crate::manifest::{EMBEDDED, app_page};
use crate::render::{
    BootState, Page, PageRenderer, PageSharing, RenderError, Rendered, Rendering, Stream,
    StreamEvent, StreamHead, Visitor,
};

/// What the scripted renderer does for the `n`th render (from 0) of a path.
type Script = dyn Fn(usize, &BootState) -> Result<Rendering, RenderError> + Send + Sync;

/// Renders as its script says, counting renders; with a gate, each render first waits
/// for a permit, so a test can hold renders in flight.
struct Scripted {
    script: Box<Script>,
    renders: AtomicUsize,
    by_path: Mutex<HashMap<String, usize>>,
    gate: Option<Arc<Semaphore>>,
    stream_nonces: Mutex<Vec<Option<String>>>,
}

impl Scripted {
    fn new(
        script: impl Fn(usize, &BootState) -> Result<Rendering, RenderError> + Send + Sync + 'static,
    ) -> Self {
        Self {
            script: Box::new(script),
            renders: AtomicUsize::new(0),
            by_path: Mutex::default(),
            gate: None,
            stream_nonces: Mutex::default(),
        }
    }

    fn gated(mut self, gate: Arc<Semaphore>) -> Self {
        self.gate = Some(gate);
        self
    }

    fn renders(&self) -> usize {
        self.renders.load(Ordering::SeqCst)
    }
}

impl PageRenderer for Scripted {
    fn render<'a>(
        &'a self,
        boot: &'a BootState,
        _: Visitor,
        _: Instant,
        stream_nonce: Option<String>,
        _: bool,
    ) -> Pin<Box<dyn Future<Output = Result<Rendering, RenderError>> + Send + 'a>> {
        Box::pin(async move {
            self.renders.fetch_add(1, Ordering::SeqCst);
            self.stream_nonces.lock().unwrap().push(stream_nonce);
            if let Some(gate) = &self.gate {
                gate.acquire().await.unwrap().forget();
            }
            let n = {
                let mut by_path = self.by_path.lock().unwrap();
                let n = by_path.entry(boot.path.clone()).or_default();
                *n += 1;
                *n - 1
            };
            (self.script)(n, boot)
        })
    }
}

/// A page of `boot`'s path, public when `cacheable`, else its visitor's.
fn page(boot: &BootState, cacheable: bool, per_visitor: bool) -> Result<Rendering, RenderError> {
    Ok(Rendering::Complete(Page {
        rendered: Rendered {
            status: 200,
            title: "Page".into(),
            description: String::new(),
            html: format!("<p>{} {}</p>", boot.language.code(), boot.path),
            sharing: match cacheable {
                true => PageSharing::Public { max_seconds: None },
                false => PageSharing::Private,
            },
            data: None,
        },
        per_visitor,
        data_keys: Default::default(),
    }))
}

fn public(_: usize, boot: &BootState) -> Result<Rendering, RenderError> {
    page(boot, true, false)
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

impl Answer {
    fn header(&self, name: header::HeaderName) -> &str {
        self.headers
            .get(&name)
            .map_or("", |value| value.to_str().unwrap())
    }

    /// Server-rendered: the screen's markup is in the document.
    fn has_markup(&self) -> bool {
        self.body.contains("<p>")
    }
}

/// New routes around `renderer` (nothing kept from another request), asked with `headers`.
async fn ask(
    renderer: &Arc<Scripted>,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
) -> Answer {
    Site::around(renderer.clone())
        .ask(method, path, headers)
        .await
}

/// One set of routes, asked several times: its page cache is shared by the requests.
struct Site {
    renderer: Arc<Scripted>,
    app: axum::Router,
}

impl Site {
    fn new(renderer: Scripted) -> Self {
        Self::around(Arc::new(renderer))
    }

    fn around(renderer: Arc<Scripted>) -> Self {
        let app = crate::app(crate::test_parts(renderer.clone(), &[]));
        Self { renderer, app }
    }

    async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Answer {
        self.ask(Method::GET, path, headers).await
    }

    async fn ask(&self, method: Method, path: &str, headers: &[(&str, &str)]) -> Answer {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header("host", "www.example.org");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = self
            .app
            .clone()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap();
        let (parts, body) = response.into_parts();
        let body = axum::body::to_bytes(body, 1 << 22).await.unwrap();
        Answer {
            status: parts.status,
            headers: parts.headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    }
}

/// Lets the scripted renders through once `waiting` of them wait, then lets `count` go.
async fn when_rendering(renderer: &Scripted, waiting: usize) {
    for _ in 0..1000 {
        if renderer.renders() >= waiting {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!(
        "{waiting} renders never started ({} did)",
        renderer.renders()
    );
}

#[tokio::test]
async fn a_public_page_is_rendered_once_then_served_from_the_cache() {
    let site = Site::new(Scripted::new(public));
    let first = site.get("/en/a", &[]).await;
    let again = site.get("/en/a", &[]).await;
    assert_eq!(
        (first.status, again.status),
        (StatusCode::OK, StatusCode::OK)
    );
    assert!(first.body.contains("<p>en /a</p>"), "{}", first.body);
    assert_eq!(first.body, again.body);
    assert_eq!(first.header(header::ETAG), again.header(header::ETAG));
    assert!(first.header(header::CACHE_CONTROL).starts_with("public, "));
    assert_eq!(site.renderer.renders(), 1, "the second came from the cache");
    site.get("/fr/a", &[]).await;
    assert_eq!(
        site.renderer.renders(),
        2,
        "another language is another page"
    );
}

#[tokio::test]
async fn those_asking_while_a_page_renders_wait_for_it_and_get_the_same_page() {
    let gate = Arc::new(Semaphore::new(0));
    let site = Arc::new(Site::new(Scripted::new(public).gated(gate.clone())));
    let lead = tokio::spawn({
        let site = site.clone();
        async move { site.get("/fr/", &[]).await }
    });
    when_rendering(&site.renderer, 1).await;
    let followers: Vec<_> = (0..3)
        .map(|_| {
            let site = site.clone();
            tokio::spawn(async move { site.get("/fr/", &[]).await })
        })
        .collect();
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
    assert_eq!(
        site.renderer.renders(),
        1,
        "the followers wait, rendering nothing"
    );
    gate.add_permits(10);
    let lead = lead.await.unwrap();
    for follower in followers {
        let follower = follower.await.unwrap();
        assert_eq!(follower.status, StatusCode::OK);
        assert_eq!(follower.body, lead.body);
    }
    assert_eq!(site.renderer.renders(), 1);
}

#[tokio::test]
async fn when_the_leading_render_fails_those_waiting_render_their_own() {
    let gate = Arc::new(Semaphore::new(0));
    let failing_first = |n: usize, boot: &BootState| match n {
        0 => Err(RenderError::Script("TypeError: boom".into())),
        _ => page(boot, true, false),
    };
    let site = Arc::new(Site::new(Scripted::new(failing_first).gated(gate.clone())));
    let lead = tokio::spawn({
        let site = site.clone();
        async move { site.get("/fr/", &[]).await }
    });
    when_rendering(&site.renderer, 1).await;
    let follower = tokio::spawn({
        let site = site.clone();
        async move { site.get("/fr/", &[]).await }
    });
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
    assert_eq!(
        site.renderer.renders(),
        1,
        "the follower waits for the lead"
    );
    gate.add_permits(10);
    let lead = lead.await.unwrap();
    assert_eq!(lead.status, StatusCode::OK);
    assert!(!lead.has_markup(), "the client-rendered page");
    assert_eq!(lead.header(header::CACHE_CONTROL), "no-store");
    let follower = follower.await.unwrap();
    assert!(follower.has_markup(), "rendered its own: {}", follower.body);
    assert_eq!(site.renderer.renders(), 2);
}

#[tokio::test]
async fn after_a_failed_render_the_next_requests_do_not_wait_for_one_another() {
    let gate = Arc::new(Semaphore::new(1));
    let failing_first = |n: usize, boot: &BootState| match n {
        0 => Err(RenderError::TimedOut),
        _ => page(boot, true, false),
    };
    let site = Arc::new(Site::new(Scripted::new(failing_first).gated(gate.clone())));
    assert!(!site.get("/fr/", &[]).await.has_markup());
    // Marked failed: two at once both render, neither waits for the other.
    let both: Vec<_> = (0..2)
        .map(|_| {
            let site = site.clone();
            tokio::spawn(async move { site.get("/fr/", &[]).await })
        })
        .collect();
    when_rendering(&site.renderer, 3).await;
    gate.add_permits(10);
    for answer in both {
        assert!(answer.await.unwrap().has_markup());
    }
}

#[tokio::test]
async fn a_full_queue_sends_the_client_rendered_page_and_leaves_no_mark() {
    let gate = Arc::new(Semaphore::new(1));
    let busy_first = |n: usize, boot: &BootState| match n {
        0 => Err(RenderError::Busy),
        _ => page(boot, true, false),
    };
    let site = Arc::new(Site::new(Scripted::new(busy_first).gated(gate.clone())));
    let busy = site.get("/fr/", &[]).await;
    assert_eq!(busy.status, StatusCode::OK);
    assert!(!busy.has_markup());
    assert_eq!(busy.header(header::CACHE_CONTROL), "no-store");
    // Nothing was learned of the page: the next two still share one render.
    let both: Vec<_> = (0..2)
        .map(|_| {
            let site = site.clone();
            tokio::spawn(async move { site.get("/fr/", &[]).await })
        })
        .collect();
    when_rendering(&site.renderer, 2).await;
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
    assert_eq!(site.renderer.renders(), 2, "one leads, one waits");
    gate.add_permits(10);
    for answer in both {
        assert!(answer.await.unwrap().has_markup());
    }
    assert_eq!(site.renderer.renders(), 2);
}

#[tokio::test]
async fn a_full_queue_still_says_404_for_a_path_no_route_takes() {
    let always_busy = |_: usize, _: &BootState| Err(RenderError::Busy);
    let site = Site::new(Scripted::new(always_busy));
    for path in ["/fr/nowhere", "/en/status/extra", "/fr/languages/"] {
        for user_agent in [
            "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0",
            "Googlebot/2.1",
        ] {
            let answer = site.get(path, &[("user-agent", user_agent)]).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path} {user_agent}");
            assert_eq!(answer.header(header::CACHE_CONTROL), "no-store");
        }
    }
    let known = site
        .get(
            &app_page("fr", "status", &[]),
            &[("user-agent", "Googlebot/2.1")],
        )
        .await;
    assert_eq!(
        known.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "a page: come back later"
    );
    let known = site
        .get(&app_page("fr", "languages", &[("code", "zz")]), &[])
        .await;
    assert_eq!(
        known.status,
        StatusCode::OK,
        "maybe a page: the browser will tell"
    );
}

#[tokio::test]
async fn a_page_not_the_same_for_everyone_is_not_kept_and_no_one_waits_for_it() {
    let private = |_: usize, boot: &BootState| page(boot, false, false);
    let site = Site::new(Scripted::new(private));
    let status = app_page("fr", "status", &[]);
    let first = site.get(&status, &[]).await;
    assert_eq!(first.header(header::CACHE_CONTROL), "private, no-cache");
    assert!(
        !first.header(header::ETAG).is_empty(),
        "its visitor revalidates it"
    );
    site.get(&status, &[]).await;
    assert_eq!(site.renderer.renders(), 2, "rendered for each request");
}

#[tokio::test]
async fn a_page_holding_the_visitors_data_is_kept_by_no_one() {
    let theirs = |_: usize, boot: &BootState| page(boot, true, true);
    let site = Site::new(Scripted::new(theirs));
    let answer = site.get("/fr/", &[("cookie", "session=alice")]).await;
    assert_eq!(answer.header(header::CACHE_CONTROL), "private, no-store");
    assert!(answer.header(header::ETAG).is_empty());
    site.get("/fr/", &[]).await;
    assert_eq!(site.renderer.renders(), 2, "never served from the cache");
}

/// A stream of the frame's head, then `parts`, then its end.
fn streaming(
    parts: &'static [&'static str],
) -> impl Fn(usize, &BootState) -> Result<Rendering, RenderError> {
    move |_, _| {
        let (events, stream) = mpsc::unbounded_channel();
        for part in parts {
            events.send(StreamEvent::Html(part.to_string())).unwrap();
        }
        events
            .send(StreamEvent::End {
                data: None,
                errors: Vec::new(),
                per_visitor: false,
                data_keys: Default::default(),
            })
            .unwrap();
        let head = StreamHead {
            status: 200,
            title: "Streamed".into(),
            description: String::new(),
        };
        Ok(Rendering::Streaming(Stream::scripted(head, stream)))
    }
}

#[tokio::test]
async fn a_streamed_page_is_sent_whole_in_order_and_never_kept() {
    let site = Site::new(Scripted::new(streaming(&["<p>one</p>", "<p>two</p>"])));
    let status = app_page("fr", "status", &[]);
    let answer = site.get(&status, &[]).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header(header::CACHE_CONTROL), "private, no-store");
    let (one, two) = (
        answer.body.find("<p>one</p>"),
        answer.body.find("<p>two</p>"),
    );
    assert!(one.is_some() && one < two, "{}", answer.body);
    assert!(
        answer.body.trim_end().ends_with("</html>"),
        "{}",
        answer.body
    );
    let nonce = site.renderer.stream_nonces.lock().unwrap()[0]
        .clone()
        .unwrap();
    assert!(
        answer
            .header(header::CONTENT_SECURITY_POLICY)
            .contains(&nonce)
    );
    site.get(&status, &[]).await;
    assert_eq!(site.renderer.renders(), 2, "a stream is its visitor's");
}

#[tokio::test]
async fn head_on_a_streamed_page_gets_its_head_and_no_body() {
    let site = Site::new(Scripted::new(streaming(&["<p>one</p>"])));
    let answer = site
        .ask(Method::HEAD, &app_page("fr", "status", &[]), &[])
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.header(header::CONTENT_TYPE),
        "text/html; charset=utf-8"
    );
    assert_eq!(answer.body, "");
}

#[tokio::test]
async fn a_crawler_is_never_streamed_to_and_comes_back_later_when_the_render_fails() {
    const GOOGLEBOT: &str =
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    let failing = |_: usize, _: &BootState| Err(RenderError::HeapExhausted);
    let renderer = Arc::new(Scripted::new(failing));
    let crawler = ask(&renderer, Method::GET, "/fr/", &[("user-agent", GOOGLEBOT)]).await;
    assert_eq!(crawler.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(crawler.header(header::RETRY_AFTER), "30");
    let person = ask(&renderer, Method::GET, "/fr/", &[]).await;
    assert_eq!(person.status, StatusCode::OK, "the client-rendered page");
    let nonces = renderer.stream_nonces.lock().unwrap().clone();
    assert_eq!(nonces[0], None, "a crawler's page is asked for whole");
    assert!(nonces[1].is_some(), "a person's may stream");
}

#[tokio::test]
async fn with_the_render_threads_gone_the_answer_is_a_500() {
    let closed = |_: usize, _: &BootState| Err(RenderError::PoolClosed);
    let renderer = Arc::new(Scripted::new(closed));
    let answer = ask(&renderer, Method::GET, "/en/", &[]).await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(answer.header(header::CACHE_CONTROL), "no-store");
    assert_eq!(
        answer.body, "The server met an error.",
        "in the page's language"
    );
    let french = ask(&renderer, Method::GET, "/fr/", &[]).await;
    assert_eq!(french.body, "Le serveur a rencontré une erreur.");
}

#[tokio::test]
async fn a_client_holding_the_page_gets_a_304_fresh_or_kept() {
    let site = Site::new(Scripted::new(public));
    let first = site.get("/fr/", &[]).await;
    let etag = first.header(header::ETAG).to_string();
    let kept = site.get("/fr/", &[("if-none-match", &etag)]).await;
    assert_eq!(kept.status, StatusCode::NOT_MODIFIED);
    assert_eq!(
        (kept.body.as_str(), kept.header(header::ETAG)),
        ("", etag.as_str())
    );
    let private = |_: usize, boot: &BootState| page(boot, false, false);
    let renderer = Arc::new(Scripted::new(private));
    let etag = ask(&renderer, Method::GET, "/fr/x", &[])
        .await
        .header(header::ETAG)
        .to_string();
    let fresh = ask(&renderer, Method::GET, "/fr/x", &[("if-none-match", &etag)]).await;
    assert_eq!(
        fresh.status,
        StatusCode::NOT_MODIFIED,
        "rendered again, the same bytes"
    );
    assert_eq!(renderer.renders(), 2);
}

#[tokio::test]
async fn only_get_and_head_are_answered() {
    let renderer = Arc::new(Scripted::new(public));
    for method in [Method::POST, Method::PUT, Method::DELETE] {
        let answer = ask(&renderer, method.clone(), "/fr/", &[]).await;
        assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
        assert_eq!(answer.header(header::ALLOW), "GET, HEAD");
    }
    assert_eq!(renderer.renders(), 0);
}

#[tokio::test]
async fn an_unprefixed_path_leads_to_the_saved_language_and_only_a_cookieless_way_is_public() {
    let renderer = Arc::new(Scripted::new(public));
    let anyone = ask(&renderer, Method::GET, "/a?b=c", &[]).await;
    assert_eq!(anyone.status, StatusCode::FOUND);
    assert_eq!(anyone.header(header::LOCATION), "/fr/a?b=c");
    assert!(anyone.header(header::CACHE_CONTROL).starts_with("public, "));
    assert_eq!(anyone.header(header::VARY), "accept-language, cookie");
    assert_eq!(anyone.header(landing::REDUCED_ACCEPT_LANGUAGE), "fr");
    let asking_english = ask(
        &renderer,
        Method::GET,
        "/a",
        &[("accept-language", "en-GB,en;q=0.9,fr;q=0.8")],
    )
    .await;
    assert_eq!(asking_english.header(header::LOCATION), "/en/a");
    assert!(
        asking_english
            .header(header::CACHE_CONTROL)
            .starts_with("public, ")
    );
    assert_eq!(
        asking_english.header(landing::REDUCED_ACCEPT_LANGUAGE),
        "en"
    );
    let english = ask(
        &renderer,
        Method::GET,
        "/a",
        &[("cookie", "bilingue_lang=en")],
    )
    .await;
    assert_eq!(english.header(header::LOCATION), "/en/a");
    assert_eq!(english.header(header::CACHE_CONTROL), "private, no-store");
    assert_eq!(renderer.renders(), 0, "a way, not a page");
}

#[tokio::test]
async fn a_language_we_do_not_offer_is_a_404_the_cache_never_holds() {
    let site = Site::new(Scripted::new(public));
    let answer = site.get("/de/", &[]).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert!(
        !answer.body.contains("rel=\"alternate\""),
        "a 404 names no alternates"
    );
    site.get("/de/", &[]).await;
    assert_eq!(site.renderer.renders(), 2);
}

/// Each route of the app whose path differs between two languages, its parameters filled:
/// (route, one language, its path there, another, its path there), prefix and all.
fn translated_pages() -> Vec<(String, String, String, String, String)> {
    let mut pages = Vec::new();
    for route in &EMBEDDED.routes {
        let params: Vec<(&str, &str)> = route.paths[crate::lang::demo().default_language().code()]
            .split('/')
            .filter_map(|part| part.strip_prefix(':'))
            .map(|name| (name, "en"))
            .collect();
        for one in crate::lang::demo().all() {
            for other in crate::lang::demo().all() {
                if route.paths[one.code()] != route.paths[other.code()] {
                    pages.push((
                        route.name.clone(),
                        one.code().to_owned(),
                        app_page(one.code(), &route.name, &params),
                        other.code().to_owned(),
                        app_page(other.code(), &route.name, &params),
                    ));
                }
            }
        }
    }
    assert!(!pages.is_empty(), "the app translates some route's path");
    pages
}

#[tokio::test]
async fn a_path_in_another_languages_words_leads_to_its_own_for_good_before_any_render() {
    let renderer = Arc::new(Scripted::new(public));
    for (route, one, own, other, theirs) in translated_pages() {
        // `/fr` and the English path: the French path of the same page.
        let words = theirs.strip_prefix(&format!("/{other}")).unwrap();
        let asked = format!("/{one}{words}?from=a&b");
        let answer = ask(
            &renderer,
            Method::GET,
            &asked,
            &[("cookie", "bilingue_lang=en")],
        )
        .await;
        assert_eq!(answer.status, StatusCode::PERMANENT_REDIRECT, "{asked}");
        assert_eq!(answer.header(header::LOCATION), format!("{own}?from=a&b"));
        let cache_control = answer.header(header::CACHE_CONTROL);
        assert!(
            cache_control.starts_with("public, max-age="),
            "{cache_control}"
        );
        assert!(
            answer.header(header::VARY).is_empty(),
            "the same for everyone"
        );
        assert!(
            answer
                .header(crate::purge_keys::SURROGATE_KEY)
                .ends_with(&format!("lang-{one} route-{route}")),
            "{asked}"
        );
        let own_answer = ask(&renderer, Method::GET, &own, &[]).await;
        assert_eq!(own_answer.status, StatusCode::OK, "{own}");
    }
    let renders = renderer.renders();
    assert_eq!(
        renders,
        translated_pages().len(),
        "each own page rendered; no way was"
    );
}

#[tokio::test]
async fn an_unprefixed_path_leads_to_the_page_at_its_path_in_the_saved_language() {
    let renderer = Arc::new(Scripted::new(public));
    for (route, one, own, other, theirs) in translated_pages() {
        let words = theirs.strip_prefix(&format!("/{other}")).unwrap();
        let cookie = format!("bilingue_lang={one}");
        let answer = ask(&renderer, Method::GET, words, &[("cookie", &cookie)]).await;
        assert_eq!(answer.status, StatusCode::FOUND, "{words}");
        assert_eq!(answer.header(header::LOCATION), own, "{words} in {one}");
        let asking = ask(&renderer, Method::GET, words, &[("accept-language", &one)]).await;
        assert_eq!(asking.header(header::LOCATION), own, "{words} asking {one}");
        let anyone = ask(&renderer, Method::GET, words, &[]).await;
        let default = crate::lang::demo().default_language();
        let default = default.code();
        assert!(
            anyone
                .header(header::LOCATION)
                .starts_with(&format!("/{default}/"))
        );
        assert!(
            anyone
                .header(crate::purge_keys::SURROGATE_KEY)
                .ends_with(&format!("pages-build-test route-{route}")),
            "no language: the way follows the visitor's"
        );
    }
    assert_eq!(renderer.renders(), 0);
}

/// A parameter written again as the app writes it (`encodeURIComponent`) can make a page's
/// path three times as long as the request's: past `PAGE_PATH_AT_MOST`, the page names no
/// links, in its document or its `Link` header (which proxies bound); a shorter one does.
#[tokio::test]
async fn a_page_whose_paths_would_be_longer_than_a_path_may_be_names_no_links() {
    let renderer = Arc::new(Scripted::new(|_, boot: &BootState| page(boot, true, false)));
    let app = crate::app(crate::test_parts(renderer.clone(), &["/x/:id"]));
    let site = Site { renderer, app };
    let short = site.get("/en/x/a:b", &[]).await;
    assert_eq!(short.status, StatusCode::OK);
    assert!(
        short
            .body
            .contains(r#"rel="canonical" href="https://www.example.org/en/x/a%3Ab""#)
    );
    assert!(!short.header(header::LINK).is_empty());
    let long = format!("/en/x/{}", ":".repeat(700));
    let answer = site.get(&long, &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "a page all the same");
    assert!(
        !answer.body.contains(r#"rel="canonical""#),
        "{:.300}",
        answer.body
    );
    assert!(!answer.body.contains(r#"rel="alternate""#));
    assert_eq!(answer.header(header::LINK), "");
}

/// The route table says which page a request is: its links, its route and the page the
/// render is handed come from it, a parameter written as the app writes it whatever
/// escapes the request came with, whether the page was rendered or kept.
#[tokio::test]
async fn a_page_names_its_links_and_its_route_as_the_route_table_says_rendered_or_kept() {
    let handed = Arc::new(Mutex::new(Vec::new()));
    let seen = handed.clone();
    let site = Site::new(Scripted::new(move |_, boot: &BootState| {
        let handed = boot
            .page
            .as_ref()
            .expect("the table knows the app's routes");
        seen.lock()
            .unwrap()
            .push(serde_json::to_string(handed).unwrap());
        page(boot, true, false)
    }));
    for _ in 0..2 {
        let answer = site.get("/en/languages/%65n", &[]).await;
        assert_eq!(answer.status, StatusCode::OK);
        for link in [
            r#"<link rel="canonical" href="https://www.example.org/en/languages/en">"#,
            r#"<link rel="alternate" hreflang="fr" href="https://www.example.org/fr/langues/en">"#,
            r#"<link rel="alternate" hreflang="en" href="https://www.example.org/en/languages/en">"#,
            r#"<link rel="alternate" hreflang="x-default" href="https://www.example.org/langues/en">"#,
        ] {
            assert!(answer.body.contains(link), "{link}\n{}", answer.body);
        }
        assert!(
            !answer.body.contains("example.org/en/languages/%65n")
                && !answer.body.contains("example.org/fr/langues/%65n")
                && !answer.header(header::LINK).contains("%65n"),
            "no link from the path as asked"
        );
        assert!(answer.header(header::LINK).contains(
            r#"<https://www.example.org/fr/langues/en>; rel="alternate"; hreflang="fr""#
        ));
        assert!(
            answer
                .header(crate::purge_keys::SURROGATE_KEY)
                .ends_with("lang-en route-languages")
        );
    }
    assert_eq!(site.renderer.renders(), 1, "the second was kept");
    assert_eq!(
        *handed.lock().unwrap(),
        [r#"{"route":"languages","params":{"code":"en"}}"#]
    );
}
