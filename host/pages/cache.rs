//! Finished public pages (a screen without a loader, or whose loader declared its data
//! public): the same bytes for every visitor, kept plain and gzipped once, with their
//! validators and headers, so serving one again costs a map lookup and a reference count.
//! Bounded in entries; the cache lives in the process, so a new build (a new binary) never
//! serves an old page.
//!
//! Pages not found have a room of their own, an eighth of the entries: any visitor can ask
//! for endless paths that do not exist, and those must never push out the pages that do.
//! A page missing from the cache is rendered once however many ask for it at once
//! ([`PageCache::flight`]).

use std::collections::HashMap;
use std::future::Future;
use std::io::Write as _;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode};
use flate2::Compression;
use flate2::write::GzEncoder;
use tokio::sync::watch;

use super::answer::{PageHeaders, Representation, etag};
use crate::lang::Language;

/// A finished public page: its status, its headers, and its document plain and gzipped,
/// each with its validator.
pub struct CachedPage {
    pub status: StatusCode,
    pub headers: PageHeaders,
    /// For a page whose data is public for a while only: when it was made (its answers
    /// then say their `Age`).
    made: Option<Instant>,
    plain: Bytes,
    plain_etag: HeaderValue,
    gzip: Bytes,
    gzip_etag: HeaderValue,
}

impl CachedPage {
    /// `aged`: the page's data is public for a while only.
    pub fn new(status: StatusCode, document: String, headers: PageHeaders, aged: bool) -> Self {
        let plain = Bytes::from(document);
        // Once per page: the best compression is worth its time.
        let mut encoder = GzEncoder::new(Vec::with_capacity(plain.len() / 3), Compression::best());
        encoder.write_all(&plain).expect("in-memory gzip");
        let gzip = Bytes::from(encoder.finish().expect("in-memory gzip"));
        Self {
            status,
            headers,
            made: aged.then(Instant::now),
            plain_etag: etag(&plain),
            plain,
            gzip_etag: etag(&gzip),
            gzip,
        }
    }

    /// The page as is.
    pub fn plain(&self) -> Representation {
        Representation {
            body: self.plain.clone(),
            encoding: None,
            etag: Some(self.plain_etag.clone()),
            age: self.age(),
        }
    }

    /// The page gzipped.
    pub fn gzip(&self) -> Representation {
        Representation {
            body: self.gzip.clone(),
            encoding: Some("gzip"),
            etag: Some(self.gzip_etag.clone()),
            age: self.age(),
        }
    }

    fn age(&self) -> Option<u64> {
        self.made.map(|made| made.elapsed().as_secs())
    }
}

/// A cached page, or the mark of a page that may not be kept, and when it stops being served
/// (`None`: never, within this process).
struct Entry {
    page: Option<Arc<CachedPage>>,
    expires: Option<Instant>,
}

/// What the cache knows of a page.
pub enum Lookup {
    Found(Arc<CachedPage>),
    /// Its last render could not be kept (the app said so, or it failed): render it for
    /// each request, without waiting for another's.
    NotKept,
    Missing,
}

/// Pages by language, then by path: a lookup borrows the request's path, it copies nothing.
struct Pages {
    by_language: HashMap<Language, HashMap<String, Entry>>,
    len: usize,
    /// Picks which page makes room (xorshift; seeded per process).
    victims: u64,
}

impl Default for Pages {
    fn default() -> Self {
        use std::hash::{BuildHasher, Hasher};
        Self {
            by_language: HashMap::new(),
            len: 0,
            victims: std::hash::RandomState::new().build_hasher().finish() | 1,
        }
    }
}

impl Pages {
    /// Removes a page drawn at random. The first in a map's order would be the same page
    /// every time: two popular pages would push each other out while cold ones stayed.
    fn evict_one(&mut self) {
        if self.len == 0 {
            return;
        }
        self.victims ^= self.victims << 13;
        self.victims ^= self.victims >> 7;
        self.victims ^= self.victims << 17;
        let mut at = (self.victims % self.len as u64) as usize;
        for paths in self.by_language.values_mut() {
            if at < paths.len() {
                let victim = paths.keys().nth(at).cloned().expect("within the map");
                paths.remove(&victim);
                self.len -= 1;
                return;
            }
            at -= paths.len();
        }
    }
}

pub struct PageCache {
    capacity: usize,
    pages: RwLock<Pages>,
    /// Pages not found and marks of pages not kept, with [`NOT_FOUND_SHARE`] of the capacity.
    rest: RwLock<Pages>,
    flights: Mutex<HashMap<(Language, String), watch::Receiver<()>>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// The part of the capacity pages not found and marks may take: one entry in this many.
const NOT_FOUND_SHARE: usize = 8;

/// A render under way for a page missing from the cache.
pub enum Flight<'a> {
    /// This request renders it; the others wait until this is dropped.
    Lead(Lead<'a>),
    /// Another request renders it: resolves when that one is done.
    Follow(Pin<Box<dyn Future<Output = ()> + Send>>),
}

pub struct Lead<'a> {
    cache: &'a PageCache,
    key: (Language, String),
    _landed: watch::Sender<()>,
}

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        self.cache
            .flights
            .lock()
            .expect("flights lock")
            .remove(&self.key);
    }
}

impl PageCache {
    /// `capacity` 0 turns the cache off.
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            pages: RwLock::default(),
            rest: RwLock::default(),
            flights: Mutex::default(),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    pub fn enabled(&self) -> bool {
        self.capacity > 0
    }

    /// Joins the render of a page missing from the cache, or leads it.
    pub fn flight(&self, language: Language, path: &str) -> Flight<'_> {
        let mut flights = self.flights.lock().expect("flights lock");
        let key = (language, path.to_string());
        if let Some(landed) = flights.get(&key) {
            let mut landed = landed.clone();
            // Resolves when the lead's sender is dropped.
            return Flight::Follow(Box::pin(
                async move { while landed.changed().await.is_ok() {} },
            ));
        }
        let (sender, landed) = watch::channel(());
        flights.insert(key.clone(), landed);
        Flight::Lead(Lead {
            cache: self,
            key,
            _landed: sender,
        })
    }

    pub fn lookup(&self, language: Language, path: &str) -> Lookup {
        if self.capacity == 0 {
            return Lookup::Missing;
        }
        let look = |pages: &RwLock<Pages>| {
            pages
                .read()
                .expect("cache lock")
                .by_language
                .get(&language)
                .and_then(|pages| pages.get(path))
                .filter(|entry| entry.expires.is_none_or(|expires| Instant::now() < expires))
                .map(|entry| entry.page.clone())
        };
        let found = look(&self.pages).or_else(|| look(&self.rest));
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

    /// The page, if it is kept.
    #[cfg(test)]
    pub fn get(&self, language: Language, path: &str) -> Option<Arc<CachedPage>> {
        match self.lookup(language, path) {
            Lookup::Found(page) => Some(page),
            Lookup::NotKept | Lookup::Missing => None,
        }
    }

    /// Keeps `page` until `expires` (`None`: for the life of the process).
    pub fn insert(
        &self,
        language: Language,
        path: &str,
        page: Arc<CachedPage>,
        expires: Option<Instant>,
    ) {
        if page.status == StatusCode::NOT_FOUND {
            self.put(&self.rest, language, path, Some(page), expires);
        } else {
            self.remove(&self.rest, language, path);
            self.put(&self.pages, language, path, Some(page), expires);
        }
    }

    /// Remembers for `lasting` that this page is not kept.
    pub fn mark_not_kept(&self, language: Language, path: &str, lasting: Duration) {
        self.remove(&self.pages, language, path);
        self.put(
            &self.rest,
            language,
            path,
            None,
            Some(Instant::now() + lasting),
        );
    }

    fn remove(&self, pages: &RwLock<Pages>, language: Language, path: &str) {
        let mut pages = pages.write().expect("cache lock");
        if pages
            .by_language
            .get_mut(&language)
            .and_then(|paths| paths.remove(path))
            .is_some()
        {
            pages.len -= 1;
        }
    }

    fn put(
        &self,
        pages: &RwLock<Pages>,
        language: Language,
        path: &str,
        page: Option<Arc<CachedPage>>,
        expires: Option<Instant>,
    ) {
        if self.capacity == 0 {
            return;
        }
        let capacity = if std::ptr::eq(pages, &self.rest) {
            self.capacity.div_ceil(NOT_FOUND_SHARE)
        } else {
            self.capacity
        };
        let mut pages = pages.write().expect("cache lock");
        let replaces = pages
            .by_language
            .get(&language)
            .is_some_and(|paths| paths.contains_key(path));
        if !replaces && pages.len >= capacity {
            // Past the bound, one entry makes room: paths no one asks for again (random
            // 404s) cannot grow the cache, and popular pages come back on their next request.
            pages.evict_one();
        }
        let entry = Entry { page, expires };
        if pages
            .by_language
            .entry(language)
            .or_default()
            .insert(path.to_string(), entry)
            .is_none()
        {
            pages.len += 1;
        }
    }

    pub fn len(&self) -> usize {
        self.pages.read().expect("cache lock").len + self.rest.read().expect("cache lock").len
    }

    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(code: &str) -> Language {
        Language::from_code(code).unwrap()
    }

    fn headers() -> PageHeaders {
        PageHeaders {
            language: lang("fr"),
            cache_control: HeaderValue::from_static("public, max-age=60"),
            vary_cookie: false,
            link: None,
            policy: HeaderValue::from_static("default-src 'self'"),
        }
    }

    fn page(text: &str) -> Arc<CachedPage> {
        Arc::new(CachedPage::new(
            StatusCode::OK,
            text.into(),
            headers(),
            false,
        ))
    }

    #[test]
    fn a_page_is_found_by_language_and_path() {
        let cache = PageCache::new(8);
        cache.insert(lang("en"), "/", page("english"), None);
        assert_eq!(cache.get(lang("en"), "/").unwrap().plain().body, "english");
        assert!(cache.get(lang("fr"), "/").is_none());
        assert_eq!((cache.hits(), cache.misses()), (1, 1));
    }

    #[test]
    fn pages_asked_for_again_do_not_just_push_each_other_out() {
        // Nine pages through a cache of eight, each put back as soon as it is missed: the
        // page that makes room must be drawn from all of them, not be whichever came
        // first in the map's order (then the last two put back would evict each other
        // for ever while the other seven stayed).
        let cache = PageCache::new(8);
        let paths: Vec<String> = (0..9).map(|i| format!("/{i}")).collect();
        for path in &paths {
            cache.insert(lang("fr"), path, page("x"), None);
        }
        let mut evicted = std::collections::HashSet::new();
        for _ in 0..100 {
            let missing = paths
                .iter()
                .find(|path| cache.get(lang("fr"), path).is_none())
                .expect("one of nine is always out");
            evicted.insert(missing.clone());
            cache.insert(lang("fr"), missing, page("x"), None);
        }
        // Drawn at random, all 100 from the same four of nine: odds around 1e-28.
        assert!(evicted.len() >= 5, "only {evicted:?} ever made room");
    }

    #[test]
    fn the_cache_never_holds_more_than_its_capacity() {
        let cache = PageCache::new(3);
        for i in 0..100 {
            cache.insert(lang("fr"), &format!("/{i}"), page("x"), None);
        }
        assert_eq!(cache.len(), 3);
        assert!(
            cache.get(lang("fr"), "/99").is_some(),
            "the newest page is kept"
        );
        for i in 0..100 {
            cache.insert(lang(["fr", "en"][i % 2]), "/same", page("x"), None);
        }
        assert_eq!(cache.len(), 3, "replacing a page takes no room");
        assert!(
            cache.get(lang("fr"), "/same").is_some() && cache.get(lang("en"), "/same").is_some()
        );
    }

    #[test]
    fn pages_not_found_make_room_only_among_themselves() {
        let cache = PageCache::new(16);
        cache.insert(lang("fr"), "/", page("home"), None);
        for i in 0..1000 {
            let missing = Arc::new(CachedPage::new(
                StatusCode::NOT_FOUND,
                "404".into(),
                headers(),
                false,
            ));
            cache.insert(lang("fr"), &format!("/nowhere-{i}"), missing, None);
        }
        assert!(cache.get(lang("fr"), "/").is_some(), "the page found stays");
        assert_eq!(cache.len(), 1 + 2, "pages not found hold an eighth of 16");
        assert!(cache.get(lang("fr"), "/nowhere-999").is_some());
    }

    #[test]
    fn a_page_marked_not_kept_is_known_so_until_the_mark_expires() {
        let cache = PageCache::new(8);
        cache.mark_not_kept(lang("fr"), "/status", Duration::from_millis(30));
        assert!(matches!(
            cache.lookup(lang("fr"), "/status"),
            Lookup::NotKept
        ));
        std::thread::sleep(Duration::from_millis(40));
        assert!(matches!(
            cache.lookup(lang("fr"), "/status"),
            Lookup::Missing
        ));
        cache.mark_not_kept(lang("fr"), "/status", Duration::from_secs(60));
        cache.insert(lang("fr"), "/status", page("now public"), None);
        assert!(matches!(
            cache.lookup(lang("fr"), "/status"),
            Lookup::Found(_)
        ));
        assert_eq!(cache.len(), 1, "the mark gave way");
    }

    #[tokio::test]
    async fn one_request_leads_the_render_of_a_missing_page_and_the_others_wait_for_it() {
        let cache = PageCache::new(8);
        let Flight::Lead(lead) = cache.flight(lang("fr"), "/") else {
            panic!("the first leads")
        };
        let Flight::Follow(landed) = cache.flight(lang("fr"), "/") else {
            panic!("the second follows")
        };
        assert!(
            matches!(cache.flight(lang("en"), "/"), Flight::Lead(_)),
            "another page is another flight"
        );
        let waiting = tokio::spawn(landed);
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "waits while the lead renders");
        drop(lead);
        waiting.await.unwrap();
        assert!(
            matches!(cache.flight(lang("fr"), "/"), Flight::Lead(_)),
            "the flight is over"
        );
    }

    #[test]
    fn a_page_kept_for_a_while_is_not_served_after_it() {
        let cache = PageCache::new(8);
        let soon = Instant::now() + std::time::Duration::from_millis(30);
        cache.insert(lang("fr"), "/a", page("a"), Some(soon));
        assert!(cache.get(lang("fr"), "/a").is_some());
        std::thread::sleep(std::time::Duration::from_millis(40));
        assert!(cache.get(lang("fr"), "/a").is_none(), "expired");
    }

    #[test]
    fn capacity_zero_turns_it_off() {
        let cache = PageCache::new(0);
        cache.insert(lang("fr"), "/", page("x"), None);
        assert!(cache.get(lang("fr"), "/").is_none());
        assert_eq!(cache.len(), 0);
    }

    #[test]
    fn a_kept_page_is_the_same_bytes_every_time_in_each_coding_with_its_own_validator() {
        let document = "<p>répété</p>".repeat(50);
        let cached = CachedPage::new(StatusCode::OK, document.clone(), headers(), false);
        assert_eq!(cached.plain().body, document.as_bytes());
        assert_eq!(
            crate::test_support::gunzip(&cached.gzip().body),
            document.as_bytes()
        );
        assert_ne!(cached.plain().etag, cached.gzip().etag);
        assert_eq!(cached.gzip().etag, Some(etag(&cached.gzip().body)));
    }
}
