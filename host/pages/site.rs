//! A site, as a value: its languages, where each sits (its origin among them), what every
//! page is written with (its crawlers, its time zone, how long a loader may wait and caches
//! may keep), its build (replaced by development with each new one) and its caches. Two
//! sites in one process are two of these, and share nothing (`tests/two_sites.rs`).

use std::sync::{Arc, RwLock};
use std::time::Duration;

use super::build::PageBuild;
use super::cache::PageCache;
use super::first_parts::FirstParts;
use super::sharing::Freshness;
use crate::crawlers::CrawlerTest;
use crate::lang::Languages;
use crate::placement::Placement;

/// A site: what every page of it is written with, its build and its caches.
pub struct Site {
    /// Its languages, from its build.
    pub languages: Languages,
    /// Where visitors reach the site, and where each language sits: the pages' absolute
    /// links start with it.
    pub placement: Placement,
    pub crawlers: CrawlerTest,
    /// The IANA time zone dates are shown in.
    pub time_zone: Arc<str>,
    /// How long a page's loader may wait for its data.
    pub load_timeout: Duration,
    /// How long caches may keep public pages.
    pub freshness: Freshness,
    /// The build its pages are written from now.
    pub build: CurrentBuild,
    /// Its finished pages, kept (`--page-cache-entries`).
    pub cache: Arc<PageCache>,
    /// Its streamed pages' first parts, gzipped once for everyone who asks the same page.
    pub first_parts: FirstParts,
}

/// A site's build: the one its pages are written from, which development replaces.
pub struct CurrentBuild(RwLock<Arc<PageBuild>>);

impl CurrentBuild {
    pub fn new(build: PageBuild) -> Self {
        Self(RwLock::new(Arc::new(build)))
    }

    /// The build pages are written from now.
    pub fn get(&self) -> Arc<PageBuild> {
        self.0.read().expect("build lock").clone()
    }

    /// Development: a new build's files and routes.
    pub fn set(&self, build: PageBuild) {
        *self.0.write().expect("build lock") = Arc::new(build);
    }
}
