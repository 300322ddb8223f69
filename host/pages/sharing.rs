//! Who may keep a page, and for how long: decided from what its route declared (one field,
//! `sharing`, in `app/routes.ts`) and what its data carried, never from the request alone.
//!
//! - A public page (its route declared it public, and its data, if any, loaded with
//!   nothing of the visitor's) is the same bytes for everyone: any cache may keep it,
//!   browsers for `--page-max-age`, shared caches (a CDN, Varnish) for
//!   `--page-s-maxage`, and serve it stale for `--page-stale-while-revalidate` while they
//!   fetch it again, and for `--page-stale-if-error` while the origin errors or cannot be
//!   reached. A route's `maxSeconds` caps all four, and a page kept for it says its
//!   `Age`, so that no cache keeps its data longer than declared; a page not found is kept
//!   a minute at most, so a page a deploy adds is not hidden for long.
//! - A page whose data is fresh at each request is its visitor's to keep, revalidated
//!   every time (`private, no-cache`).
//! - A page holding data that is the visitor's alone (their Cookie or Authorization
//!   reached the API, or its answer set a cookie) is kept by no one (`private, no-store`),
//!   nor is a streamed page (its scripts carry this answer's nonce), nor the way from an
//!   unprefixed URL for a visitor who sent a cookie (it follows their saved choice);
//!   without a cookie, that way is public. What stands in for a failed render (the
//!   client-rendered page, a crawler's 503) is `no-store`.
//!
//! The same decision tells the page cache what became of the page (`answer`).

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode};

use super::outcome::Outcome;
use crate::render::{PageSharing, Rendered};

/// Who may keep a page, and so what the page cache is told of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sharing {
    /// Anyone, for at most this long when the page's data says so; the cache keeps it.
    Public { limit: Option<Duration> },
    /// Its visitor, revalidated each time; rendered for each request for a while.
    Private,
    /// Its visitor, this once: a streamed page (its data fresh at each request, its
    /// scripts carrying this answer's nonce); rendered for each request for a while.
    Once,
    /// No one: the visitor's own data is in it. Nothing is learned of the page, which may
    /// be public for another visitor.
    NoOne,
    /// No one: the client-rendered page, or a crawler's 503, standing in for a failed
    /// render; `page_failed` unless the render never started (a full queue).
    StandIn { page_failed: bool },
}

impl Sharing {
    /// Step 4, for every page: from what its render came to.
    pub fn of(outcome: &Outcome) -> Self {
        match outcome {
            Outcome::Whole(page) => Self::of_whole(&page.rendered, page.per_visitor),
            Outcome::Streamed { .. } => Sharing::Once,
            Outcome::Failed(fallback) => Sharing::StandIn {
                page_failed: fallback.page_failed(),
            },
        }
    }

    /// A page rendered whole: what its route declared, and whether the visitor's own data
    /// is in it.
    fn of_whole(rendered: &Rendered, per_visitor: bool) -> Self {
        match rendered.sharing {
            _ if per_visitor => Sharing::NoOne,
            PageSharing::Public { max_seconds: None } => Sharing::Public { limit: None },
            PageSharing::Public {
                max_seconds: Some(seconds),
            } if seconds > 0 => Sharing::Public {
                limit: Some(Duration::from_secs(seconds)),
            },
            PageSharing::Public { .. } | PageSharing::Private => Sharing::Private,
        }
    }

    /// Whether the page is revalidated where it is kept: then it carries a validator.
    pub fn validated(self) -> bool {
        matches!(self, Sharing::Public { .. } | Sharing::Private)
    }
}

/// A page not found is kept at most this long anywhere.
const NOT_FOUND_LIMIT: Duration = Duration::from_secs(60);

/// How long public pages are kept (the options), as `Cache-Control` values.
#[derive(Debug, Clone, Copy)]
pub struct Freshness {
    pub max_age: Duration,
    pub s_maxage: Duration,
    pub stale_while_revalidate: Duration,
    pub stale_if_error: Duration,
}

impl Freshness {
    /// The `Cache-Control` of a page answered with `status` and shared as `sharing`.
    pub fn cache_control(&self, sharing: Sharing, status: StatusCode) -> HeaderValue {
        match sharing {
            Sharing::NoOne | Sharing::Once => HeaderValue::from_static("private, no-store"),
            Sharing::StandIn { .. } => HeaderValue::from_static("no-store"),
            Sharing::Private => HeaderValue::from_static("private, no-cache"),
            Sharing::Public { limit } => {
                let limit = match (status == StatusCode::NOT_FOUND, limit) {
                    (true, limit) => {
                        Some(limit.map_or(NOT_FOUND_LIMIT, |l| l.min(NOT_FOUND_LIMIT)))
                    }
                    (false, limit) => limit,
                };
                let capped = |span: Duration| limit.map_or(span, |limit| span.min(limit)).as_secs();
                HeaderValue::try_from(format!(
                    "public, max-age={}, s-maxage={}, stale-while-revalidate={}, stale-if-error={}",
                    capped(self.max_age),
                    capped(self.s_maxage),
                    capped(self.stale_while_revalidate),
                    capped(self.stale_if_error)
                ))
                .expect("digits")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(sharing: PageSharing) -> Rendered {
        Rendered {
            status: 200,
            title: String::new(),
            description: String::new(),
            html: String::new(),
            sharing,
            data: None,
        }
    }

    const PUBLIC: PageSharing = PageSharing::Public { max_seconds: None };
    const FOR_20_S: PageSharing = PageSharing::Public {
        max_seconds: Some(20),
    };

    const OPTIONS: Freshness = Freshness {
        max_age: Duration::from_secs(60),
        s_maxage: Duration::from_secs(300),
        stale_while_revalidate: Duration::from_secs(30),
        stale_if_error: Duration::from_secs(86_400),
    };

    #[test]
    fn a_page_is_shared_as_far_as_the_app_and_its_data_allow() {
        assert_eq!(
            Sharing::of_whole(&rendered(PUBLIC), false),
            Sharing::Public { limit: None }
        );
        assert_eq!(
            Sharing::of_whole(&rendered(FOR_20_S), false),
            Sharing::Public {
                limit: Some(Duration::from_secs(20))
            }
        );
        assert_eq!(
            Sharing::of_whole(&rendered(PageSharing::Private), false),
            Sharing::Private
        );
        let zero = PageSharing::Public {
            max_seconds: Some(0),
        };
        assert_eq!(Sharing::of_whole(&rendered(zero), false), Sharing::Private);
        assert_eq!(Sharing::of_whole(&rendered(PUBLIC), true), Sharing::NoOne);
        assert_eq!(Sharing::of_whole(&rendered(FOR_20_S), true), Sharing::NoOne);
    }

    #[test]
    fn public_pages_say_how_long_each_cache_may_keep_them() {
        let public = |limit, status| {
            OPTIONS
                .cache_control(Sharing::Public { limit }, status)
                .to_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(
            public(None, StatusCode::OK),
            "public, max-age=60, s-maxage=300, stale-while-revalidate=30, stale-if-error=86400"
        );
        assert_eq!(
            public(Some(Duration::from_secs(20)), StatusCode::OK),
            "public, max-age=20, s-maxage=20, stale-while-revalidate=20, stale-if-error=20"
        );
        assert_eq!(
            public(None, StatusCode::NOT_FOUND),
            "public, max-age=60, s-maxage=60, stale-while-revalidate=30, stale-if-error=60"
        );
        assert_eq!(
            OPTIONS.cache_control(Sharing::NoOne, StatusCode::OK),
            "private, no-store"
        );
        assert_eq!(
            OPTIONS.cache_control(Sharing::Private, StatusCode::OK),
            "private, no-cache"
        );
        assert_eq!(
            OPTIONS.cache_control(Sharing::Once, StatusCode::OK),
            "private, no-store"
        );
        let stand_in = Sharing::StandIn { page_failed: true };
        assert_eq!(OPTIONS.cache_control(stand_in, StatusCode::OK), "no-store");
    }
}
