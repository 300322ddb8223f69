//! What every page of a site is written with, from the options: its languages, where
//! each sits, its crawlers, its time zone, how long a loader may wait and caches may keep.

use std::sync::Arc;
use std::time::Duration;

use super::sharing::Freshness;
use crate::crawlers::CrawlerTest;
use crate::lang::Languages;
use crate::placement::Placement;

/// What every page is written with, from the options.
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
}
