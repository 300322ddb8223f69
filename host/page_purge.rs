//! Purging the page cache by key, on the operations listener (`--metrics-bind`), never on
//! the public port: `PURGE /` with the keys in `xkey`, space-separated, as the VCL we ship
//! takes them, drops every kept page that carries one of them (a key of its family,
//! `purge_keys`, or of its data, `data_keys`), and answers `Purged N`. Each replica keeps
//! its own pages: purge every replica, then the shared cache (the other way round, the
//! shared cache could fetch the old page again from a replica still keeping it).

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;

use crate::pages::PageCache;
use crate::purge_keys::PurgeKeys;

const XKEY: HeaderName = HeaderName::from_static("xkey");
/// The most keys one purge names.
const KEYS_AT_MOST: usize = 64;

struct Purging {
    cache: Arc<PageCache>,
    keys: Arc<PurgeKeys>,
}

pub fn routes(cache: Arc<PageCache>, keys: Arc<PurgeKeys>) -> Router {
    Router::new()
        .route("/", any(purge))
        .with_state(Arc::new(Purging { cache, keys }))
}

async fn purge(
    State(purging): State<Arc<Purging>>,
    method: Method,
    headers: HeaderMap,
) -> Response {
    if method.as_str() != "PURGE" {
        let mut refused = (
            StatusCode::METHOD_NOT_ALLOWED,
            "PURGE, with the keys in xkey\n",
        )
            .into_response();
        refused
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("PURGE"));
        return refused;
    }
    let asked: Vec<&str> = headers
        .get_all(XKEY)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(str::split_ascii_whitespace)
        .collect();
    if asked.is_empty() || asked.len() > KEYS_AT_MOST {
        let why = format!("name 1 to {KEYS_AT_MOST} keys in xkey, space-separated\n");
        return (StatusCode::BAD_REQUEST, why).into_response();
    }
    let purged = purging.cache.purge(|_, _, page| {
        let family = purging.keys.for_page(&page.page);
        asked
            .iter()
            .any(|key| family.names(key) || page.data_keys.contains(key))
    });
    let keys = asked.join(" ");
    tracing::info!(keys = %keys.escape_debug(), purged, "the page cache was purged");
    (StatusCode::OK, format!("Purged {purged}\n")).into_response()
}

#[cfg(test)]
mod tests {
    //! The public routes and the operations listener's purge over one page cache, with a
    //! stand-in renderer (no V8): each language's page names `language-<code>` for its data.

    use std::future::Future;
    use std::pin::Pin;
    use std::time::Instant;

    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt as _;

    use super::*;
    use crate::data_keys::DataKeys;
    use crate::render::{
        BootState, Page, PageRenderer, PageSharing, RenderError, Rendered, Rendering, Visitor,
    };

    /// `/languages/en` names `language-en`; the status page is its visitor's; others name
    /// nothing.
    struct LanguagePages;

    impl PageRenderer for LanguagePages {
        fn render<'a>(
            &'a self,
            boot: &'a BootState,
            _: Visitor,
            _: Instant,
            _: Option<String>,
            _: bool,
        ) -> Pin<Box<dyn Future<Output = Result<Rendering, RenderError>> + Send + 'a>> {
            let shown = boot.path.strip_prefix("/languages/");
            let data_keys = shown
                .and_then(|code| DataKeys::own(&format!("language-{code}")))
                .unwrap_or_default();
            let status = crate::manifest::app_page(boot.language.code(), "status", &[]);
            let is_status = format!("/{}{}", boot.language.code(), boot.path) == status;
            let rendered = Rendered {
                status: 200,
                title: "Page".into(),
                description: String::new(),
                html: format!("<p>{} {}</p>", boot.language.code(), boot.path),
                sharing: match is_status {
                    true => PageSharing::Private,
                    false => PageSharing::Public { max_seconds: None },
                },
                data: None,
            };
            Box::pin(async move {
                Ok(Rendering::Complete(Page {
                    rendered,
                    per_visitor: false,
                    data_keys,
                }))
            })
        }
    }

    /// The public routes, and the purge of their page cache.
    fn site() -> (Router, Router) {
        let parts = crate::test_parts(Arc::new(LanguagePages), &["/languages/:code"]);
        let purge = routes(parts.pages.site.cache.clone(), parts.purge_keys.clone());
        (crate::app(parts), purge)
    }

    async fn ask(router: &Router, method: &str, path: &str, xkey: Option<&str>) -> Response {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header("host", "www.example.org");
        if let Some(keys) = xkey {
            request = request.header("xkey", keys);
        }
        router
            .clone()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap()
    }

    fn surrogate_key(answer: &Response) -> &str {
        answer
            .headers()
            .get("surrogate-key")
            .map_or("", |value| value.to_str().unwrap())
    }

    fn from_the_cache(answer: &Response) -> bool {
        answer
            .headers()
            .get("server-timing")
            .is_some_and(|value| value.to_str().unwrap().contains("hit"))
    }

    async fn purged(purge: &Router, keys: &str) -> String {
        let answer = ask(purge, "PURGE", "/", Some(keys)).await;
        assert_eq!(answer.status(), StatusCode::OK);
        let body = axum::body::to_bytes(answer.into_body(), 1024)
            .await
            .unwrap();
        String::from_utf8(body.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn a_page_names_its_data_after_its_family_rendered_or_kept() {
        let (app, _) = site();
        for kept in [false, true] {
            let answer = ask(&app, "GET", "/fr/languages/en", None).await;
            assert_eq!(from_the_cache(&answer), kept);
            assert_eq!(
                surrogate_key(&answer),
                "build-test pages pages-build-test lang-fr route-languages language-en"
            );
            assert_eq!(
                answer.headers()["cache-tag"],
                "build-test,pages,pages-build-test,lang-fr,route-languages,language-en"
            );
        }
        let home = ask(&app, "GET", "/fr/", None).await;
        assert!(
            surrogate_key(&home).ends_with("route-home"),
            "no data, no data key"
        );
        let status = crate::manifest::app_page("fr", "status", &[]);
        let private = ask(&app, "GET", &status, None).await;
        assert_eq!(surrogate_key(&private), "", "kept by no shared cache");
    }

    #[tokio::test]
    async fn a_purge_drops_exactly_the_kept_pages_that_carry_its_key() {
        let (app, purge) = site();
        let pages = [
            "/fr/languages/en",
            "/en/languages/en",
            "/fr/languages/fr",
            "/fr/",
        ];
        let kept = || async {
            let mut kept = Vec::new();
            for path in pages {
                kept.push(from_the_cache(&ask(&app, "GET", path, None).await));
            }
            kept
        };
        kept().await;
        assert_eq!(kept().await, [true; 4]);
        assert_eq!(purged(&purge, "language-en").await, "Purged 2\n");
        assert_eq!(kept().await, [false, false, true, true]);
        // A key of a page's family selects as the shared cache's purge does; several keys,
        // any of them.
        assert_eq!(purged(&purge, "lang-en").await, "Purged 1\n");
        assert_eq!(
            purged(&purge, "route-home  language-fr").await,
            "Purged 2\n"
        );
        assert_eq!(kept().await, [true, false, false, false]);
        assert_eq!(purged(&purge, "pages-build-test").await, "Purged 4\n");
        assert_eq!(purged(&purge, "nothing-kept").await, "Purged 0\n");
    }

    #[tokio::test]
    async fn a_purge_is_asked_with_purge_and_its_keys() {
        let (_, purge) = site();
        let get = ask(&purge, "GET", "/", Some("language-en")).await;
        assert_eq!(get.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(get.headers()["allow"], "PURGE");
        assert_eq!(
            ask(&purge, "PURGE", "/", None).await.status(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            ask(&purge, "PURGE", "/", Some("  ")).await.status(),
            StatusCode::BAD_REQUEST
        );
        let too_many = vec!["k"; KEYS_AT_MOST + 1].join(" ");
        let answer = ask(&purge, "PURGE", "/", Some(&too_many)).await;
        assert_eq!(answer.status(), StatusCode::BAD_REQUEST);
    }
}
