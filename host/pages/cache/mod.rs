//! The page cache: finished public pages (a screen without a loader, or whose loader
//! declared its data public), the same bytes for every visitor, kept plain and gzipped
//! once ([`KeptPage`]). Bounded in entries; it lives in the process, so a new build (a new
//! binary) never serves an old page.
//!
//! The page handler meets it once per request, through [`PageCache::turn`]: a page is
//! kept, or the request gets a [`RenderTurn`], which it must settle with what became of
//! the page: kept, not to be kept, failed, or nothing learned. Settling is the only way to
//! write the cache, and a turn dropped unsettled (an error, a client gone) counts as failed.
//! A page missing from the cache is rendered once however many ask for it at once: the
//! first leads, the others wait for its turn to be settled.
//!
//! Pages not found and the marks of pages not kept have a shelf of their own, an eighth of
//! the entries: any visitor can ask for endless paths that do not exist, and those must
//! never push out the pages that do.
//!
//! A kept page keeps the keys its data named (its headers' `data_keys`); a purge
//! ([`PageCache::purge`]) drops the pages it selects by them, and a page whose render began
//! before a purge is not kept after it (its data may be what the purge was for).

mod flight;
mod kept;
mod shelf;

pub use kept::KeptPage;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use flight::{Flight, Flights, Key, Lead};
use shelf::{Entry, Shelf};

use crate::lang::Language;
use crate::pages::representation::PageHeaders;

/// The part of the capacity pages not found and marks may take: one entry in this many.
const NOT_FOUND_SHARE: usize = 8;
/// How long a page the app declared not to be kept is rendered without waiting for others.
const NOT_KEPT_MARK: Duration = Duration::from_secs(60);
/// How long a page whose render failed is rendered without waiting for others.
const FAILED_MARK: Duration = Duration::from_secs(5);

pub struct PageCache {
    capacity: usize,
    found: RwLock<Shelf>,
    /// Pages not found and marks of pages not kept.
    not_found: RwLock<Shelf>,
    flights: Flights,
    /// How many purges have run; changed only with `not_found` held for writing.
    purges: AtomicU64,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// What the cache gives a page request.
pub enum Turn<'a> {
    /// The page is kept: send it.
    Kept(Arc<KeptPage>),
    /// Render it, then settle the turn.
    Render(RenderTurn<'a>),
}

/// A request's turn to render a page, and to tell the cache what became of it.
#[must_use = "a turn is settled with what became of the page; dropped, it counts as failed"]
pub struct RenderTurn<'a> {
    cache: &'a PageCache,
    /// `None`: a page the cache does not hold (off, or a language we do not offer).
    key: Option<Key>,
    /// Others wait for this render while it is held.
    _lead: Option<Lead<'a>>,
    /// The purges run before the render began.
    purges: u64,
    settled: bool,
}

/// A page anyone may keep, as written.
pub struct PublicPage {
    pub status: StatusCode,
    pub document: String,
    pub headers: PageHeaders,
    /// How long its data may be kept, when it says so.
    pub limit: Option<Duration>,
}

/// A settled public page: kept, or handed back when the cache does not hold it.
pub enum Keeping {
    Kept(Arc<KeptPage>),
    Uncached(Box<PublicPage>),
}

/// What the cache knows of a page.
enum Lookup {
    Found(Arc<KeptPage>),
    /// Its last render could not be kept (the app said so, or it failed): render it for
    /// each request, without waiting for another's.
    NotKept,
    Missing,
}

impl PageCache {
    /// `capacity` 0 turns the cache off.
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            found: RwLock::new(Shelf::new(capacity)),
            not_found: RwLock::new(Shelf::new(capacity.div_ceil(NOT_FOUND_SHARE))),
            flights: Flights::default(),
            purges: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The page kept for `page` (`None`: one the cache never holds), or a turn to render it:
    /// leading its render, or after waiting for the render another request leads.
    pub async fn turn(&self, page: Option<(Language, &str)>) -> Turn<'_> {
        let Some((language, path)) = page.filter(|_| self.capacity > 0) else {
            return Turn::Render(self.render_turn(None, None));
        };
        let key = (language, path.to_string());
        match self.lookup(language, path) {
            Lookup::Found(kept) => Turn::Kept(kept),
            Lookup::NotKept => Turn::Render(self.render_turn(Some(key), None)),
            Lookup::Missing => match self.flights.join(&key) {
                Flight::Lead(lead) => Turn::Render(self.render_turn(Some(key), Some(lead))),
                Flight::Follow(landed) => {
                    landed.await;
                    match self.lookup(language, path) {
                        Lookup::Found(kept) => Turn::Kept(kept),
                        // It could not be kept: render our own, at once.
                        Lookup::NotKept | Lookup::Missing => {
                            Turn::Render(self.render_turn(Some(key), None))
                        }
                    }
                }
            },
        }
    }

    fn render_turn<'a>(&'a self, key: Option<Key>, lead: Option<Lead<'a>>) -> RenderTurn<'a> {
        RenderTurn {
            cache: self,
            key,
            _lead: lead,
            purges: self.purges.load(Ordering::Acquire),
            settled: false,
        }
    }

    fn lookup(&self, language: Language, path: &str) -> Lookup {
        let look = |shelf: &RwLock<Shelf>| {
            shelf
                .read()
                .expect("cache lock")
                .get(language, path)
                .map(|entry| entry.page.clone())
        };
        let found = look(&self.found).or_else(|| look(&self.not_found));
        let counter = match found {
            Some(Some(_)) => &self.hits,
            _ => &self.misses,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        match found {
            Some(Some(page)) => Lookup::Found(page),
            Some(None) => Lookup::NotKept,
            None => Lookup::Missing,
        }
    }

    /// Keeps `page` until `expires` (`None`: for the life of the process), unless a purge
    /// has run since its render began (`purges` then).
    fn insert(
        &self,
        (language, path): &Key,
        page: Arc<KeptPage>,
        expires: Option<Instant>,
        purges: u64,
    ) {
        let entry = Entry {
            page: Some(page.clone()),
            expires,
        };
        let mut not_found = self.not_found.write().expect("cache lock");
        if self.purges.load(Ordering::Acquire) != purges {
            return;
        }
        if page.status == StatusCode::NOT_FOUND {
            not_found.put(*language, path, entry);
        } else {
            not_found.remove(*language, path);
            // Taken while `not_found` is held, as a purge takes them: none can come between.
            let mut found = self.found.write().expect("cache lock");
            found.put(*language, path, entry);
        }
    }

    /// Drops every kept page `selects` picks by its language, path and headers (what it is,
    /// its data keys); how many went. A render begun before it is not kept.
    pub fn purge(&self, selects: impl Fn(Language, &str, &PageHeaders) -> bool) -> usize {
        let drops = |language: Language, path: &str, entry: &Entry| {
            entry
                .page
                .as_ref()
                .is_some_and(|page| selects(language, path, &page.headers))
        };
        // In `insert`'s order: a page is either kept before the purge, and seen by it, or
        // after, and refused.
        let mut not_found = self.not_found.write().expect("cache lock");
        let mut found = self.found.write().expect("cache lock");
        self.purges.fetch_add(1, Ordering::AcqRel);
        not_found.remove_where(drops) + found.remove_where(drops)
    }

    /// Remembers for `lasting` that this page is not kept.
    fn mark_not_kept(&self, (language, path): &Key, lasting: Duration) {
        self.found
            .write()
            .expect("cache lock")
            .remove(*language, path);
        let mark = Entry {
            page: None,
            expires: Some(Instant::now() + lasting),
        };
        self.not_found
            .write()
            .expect("cache lock")
            .put(*language, path, mark);
    }

    pub fn len(&self) -> usize {
        // One lock at a time: both are only ever held together `not_found` first.
        let found = self.found.read().expect("cache lock").len();
        found + self.not_found.read().expect("cache lock").len()
    }

    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }
}

impl RenderTurn<'_> {
    /// A public page: kept (for `page.limit` at most, when its data says so), or handed
    /// back when the cache does not hold this page. Sent as kept either way: a page a
    /// purge kept out is still the page this request rendered.
    pub fn keep(mut self, page: PublicPage) -> Keeping {
        self.settled = true;
        let Some(key) = &self.key else {
            return Keeping::Uncached(Box::new(page));
        };
        let expires = page.limit.map(|limit| Instant::now() + limit);
        let kept = Arc::new(KeptPage::new(
            page.status,
            page.document,
            page.headers,
            page.limit.is_some(),
        ));
        self.cache.insert(key, kept.clone(), expires, self.purges);
        Keeping::Kept(kept)
    }

    /// A page that is not the same for everyone: no one waits for another's for a while.
    pub fn not_kept(mut self) {
        self.settled = true;
        if let Some(key) = &self.key {
            self.cache.mark_not_kept(key, NOT_KEPT_MARK);
        }
    }

    /// A failed render: those waiting, and those who come soon, render their own.
    pub fn failed(mut self) {
        self.settled = true;
        if let Some(key) = &self.key {
            self.cache.mark_not_kept(key, FAILED_MARK);
        }
    }

    /// Nothing learned of the page (the queue was full, or the page was this visitor's):
    /// those waiting render their own, and the next request may lead again.
    pub fn release(mut self) {
        self.settled = true;
    }
}

impl Drop for RenderTurn<'_> {
    fn drop(&mut self) {
        if !self.settled
            && let Some(key) = &self.key
        {
            self.cache.mark_not_kept(key, FAILED_MARK);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use axum::http::HeaderValue;

    use super::*;
    use crate::data_keys::DataKeys;

    fn lang(code: &str) -> Language {
        crate::lang::demo().by_code(code).unwrap()
    }

    pub(crate) fn headers() -> PageHeaders {
        PageHeaders {
            language: lang("fr"),
            content_language: HeaderValue::from_static("fr"),
            cache_control: HeaderValue::from_static("public, max-age=60"),
            link: None,
            policy: HeaderValue::from_static("default-src 'self'"),
            data_keys: Default::default(),
            page: Default::default(),
        }
    }

    fn public(status: StatusCode, text: &str, limit: Option<Duration>) -> PublicPage {
        PublicPage {
            status,
            document: text.into(),
            headers: headers(),
            limit,
        }
    }

    /// The kept page's text, or `None` when the request gets a turn (settled as released).
    async fn kept(cache: &PageCache, code: &str, path: &str) -> Option<String> {
        match cache.turn(Some((lang(code), path))).await {
            Turn::Kept(page) => Some(String::from_utf8(page.plain().body.to_vec()).unwrap()),
            Turn::Render(turn) => {
                turn.release();
                None
            }
        }
    }

    async fn keep(cache: &PageCache, code: &str, path: &str, page: PublicPage) {
        let Turn::Render(turn) = cache.turn(Some((lang(code), path))).await else {
            panic!("{path} is kept already")
        };
        assert!(matches!(turn.keep(page), Keeping::Kept(_)));
    }

    /// Whether a request for the page would wait for another's render: it leads it.
    fn leads(cache: &PageCache, code: &str, path: &str) -> bool {
        matches!(cache.lookup(lang(code), path), Lookup::Missing)
    }

    #[tokio::test]
    async fn a_page_is_found_by_language_and_path() {
        let cache = PageCache::new(8);
        keep(&cache, "en", "/", public(StatusCode::OK, "english", None)).await;
        assert_eq!(kept(&cache, "en", "/").await.as_deref(), Some("english"));
        assert_eq!(kept(&cache, "fr", "/").await, None);
    }

    #[tokio::test]
    async fn pages_not_found_make_room_only_among_themselves() {
        let cache = PageCache::new(16);
        keep(&cache, "fr", "/", public(StatusCode::OK, "home", None)).await;
        for i in 0..1000 {
            let missing = public(StatusCode::NOT_FOUND, "404", None);
            keep(&cache, "fr", &format!("/nowhere-{i}"), missing).await;
        }
        assert!(
            kept(&cache, "fr", "/").await.is_some(),
            "the page found stays"
        );
        assert_eq!(cache.len(), 1 + 2, "pages not found hold an eighth of 16");
        assert!(kept(&cache, "fr", "/nowhere-999").await.is_some());
    }

    #[tokio::test]
    async fn a_page_marked_not_kept_is_known_so_until_the_mark_expires() {
        let cache = PageCache::new(8);
        let key = (lang("fr"), "/status".to_string());
        cache.mark_not_kept(&key, Duration::from_millis(30));
        assert!(!leads(&cache, "fr", "/status"), "rendered at once, by each");
        tokio::time::sleep(Duration::from_millis(40)).await;
        assert!(leads(&cache, "fr", "/status"), "the mark expired");
        let Turn::Render(turn) = cache.turn(Some((lang("fr"), "/status"))).await else {
            panic!("not kept")
        };
        turn.not_kept();
        keep(
            &cache,
            "fr",
            "/status",
            public(StatusCode::OK, "now public", None),
        )
        .await;
        assert_eq!(
            kept(&cache, "fr", "/status").await.as_deref(),
            Some("now public")
        );
        assert_eq!(cache.len(), 1, "the mark gave way");
    }

    #[tokio::test]
    async fn a_turn_dropped_unsettled_counts_as_a_failed_render() {
        let cache = PageCache::new(8);
        let turn = cache.turn(Some((lang("fr"), "/"))).await;
        drop(turn);
        assert!(
            matches!(cache.lookup(lang("fr"), "/"), Lookup::NotKept),
            "marked failed: no one waits for a render that never comes"
        );
    }

    #[tokio::test]
    async fn a_released_turn_leaves_no_mark() {
        let cache = PageCache::new(8);
        assert_eq!(kept(&cache, "fr", "/").await, None);
        assert!(leads(&cache, "fr", "/"));
    }

    #[tokio::test]
    async fn those_waiting_for_a_render_get_the_page_it_kept() {
        let cache = Arc::new(PageCache::new(8));
        let Turn::Render(lead) = cache.turn(Some((lang("fr"), "/"))).await else {
            panic!("missing")
        };
        let follower = {
            let cache = cache.clone();
            tokio::spawn(async move { kept(&cache, "fr", "/").await })
        };
        tokio::task::yield_now().await;
        assert!(!follower.is_finished(), "waits while the lead renders");
        assert!(matches!(
            lead.keep(public(StatusCode::OK, "home", None)),
            Keeping::Kept(_)
        ));
        assert_eq!(follower.await.unwrap().as_deref(), Some("home"));
    }

    #[tokio::test]
    async fn a_page_kept_for_a_while_is_not_served_after_it() {
        let cache = PageCache::new(8);
        let page = public(StatusCode::OK, "a", Some(Duration::from_millis(30)));
        keep(&cache, "fr", "/a", page).await;
        assert!(kept(&cache, "fr", "/a").await.is_some());
        tokio::time::sleep(Duration::from_millis(40)).await;
        assert!(kept(&cache, "fr", "/a").await.is_none(), "expired");
    }

    fn naming(mut page: PublicPage, keys: &str) -> PublicPage {
        let mut answer = axum::http::HeaderMap::new();
        answer.insert("surrogate-key", keys.parse().unwrap());
        page.headers.data_keys = DataKeys::of_answer(&answer, "a test");
        page
    }

    #[tokio::test]
    async fn a_purge_drops_exactly_the_kept_pages_it_selects_by_their_data_keys() {
        let cache = PageCache::new(16);
        let page = |text| public(StatusCode::OK, text, None);
        keep(
            &cache,
            "fr",
            "/languages/en",
            naming(page("fr en"), "language-en"),
        )
        .await;
        keep(
            &cache,
            "en",
            "/languages/en",
            naming(page("en en"), "language-en"),
        )
        .await;
        keep(
            &cache,
            "fr",
            "/languages/fr",
            naming(page("fr fr"), "language-fr"),
        )
        .await;
        keep(&cache, "fr", "/", page("home")).await;
        let missing = public(StatusCode::NOT_FOUND, "404", None);
        keep(
            &cache,
            "fr",
            "/languages/zz",
            naming(missing, "language-zz"),
        )
        .await;
        let gone = cache.purge(|_, _, page| page.data_keys.contains("language-en"));
        assert_eq!(gone, 2);
        assert_eq!(kept(&cache, "fr", "/languages/en").await, None);
        assert_eq!(kept(&cache, "en", "/languages/en").await, None);
        for (code, path) in [
            ("fr", "/languages/fr"),
            ("fr", "/"),
            ("fr", "/languages/zz"),
        ] {
            assert!(kept(&cache, code, path).await.is_some(), "{code} {path}");
        }
        assert_eq!(
            cache.purge(|_, _, page| page.data_keys.contains("language-zz")),
            1,
            "the 404s too"
        );
        assert_eq!(
            cache.purge(|language, path, _| language == lang("fr") && path == "/"),
            1
        );
        assert_eq!(cache.len(), 1);
    }

    #[tokio::test]
    async fn a_page_whose_render_began_before_a_purge_is_not_kept_after_it() {
        let cache = PageCache::new(8);
        let Turn::Render(before) = cache.turn(Some((lang("en"), "/languages/en"))).await else {
            panic!("missing")
        };
        cache.purge(|_, _, page| page.data_keys.contains("language-en"));
        let page = naming(public(StatusCode::OK, "old data", None), "language-en");
        assert!(
            matches!(before.keep(page), Keeping::Kept(_)),
            "sent all the same"
        );
        assert_eq!(kept(&cache, "en", "/languages/en").await, None);
        keep(
            &cache,
            "en",
            "/languages/en",
            public(StatusCode::OK, "new", None),
        )
        .await;
        assert_eq!(
            kept(&cache, "en", "/languages/en").await.as_deref(),
            Some("new")
        );
    }

    #[tokio::test]
    async fn a_page_the_cache_does_not_hold_is_handed_back() {
        for (cache, page) in [
            (PageCache::new(0), Some((lang("fr"), "/"))),
            (PageCache::new(8), None),
        ] {
            let Turn::Render(turn) = cache.turn(page).await else {
                panic!("nothing is kept")
            };
            let Keeping::Uncached(page) = turn.keep(public(StatusCode::OK, "x", None)) else {
                panic!("not the cache's")
            };
            assert_eq!(page.document, "x");
            assert_eq!(cache.len(), 0);
        }
    }
}
