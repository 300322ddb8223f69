//! The sitemap of one origin: every indexable page the app declares, in each language
//! that origin serves (all of them but those on origins of their own, on the site's; its
//! own language on a language's origin: one sitemap per origin, as Google reads them), at
//! its path there, each with its alternates wherever they sit, as the pages' own links
//! name them. The manifest lists
//! each page once, by its parameters (`pages`); the URLs are written when a crawler asks,
//! part by part, never held (`body`). When they fit one file (sitemaps.org: 50,000 URLs,
//! 50 MB), `/sitemap.xml` is that file; past that it is an index of parts,
//! `/sitemap-1.xml`, `/sitemap-2.xml`…, each within both bounds (`parts`), the index
//! written once at start-up.

mod body;
mod pages;
mod parts;
mod xml;

use std::ops::Range;

use crate::lang::Language;
use crate::manifest::{DeclaredRoute, SitemapRoute};
use crate::origin::Origin;
use crate::placement::Placement;

pub use body::Chunks;
use pages::ListedRoute;
use parts::{Bounds, PROTOCOL};
pub(super) use xml::part_path;

/// What `/sitemap.xml` and its parts are made of.
pub struct Sitemap {
    placement: Placement,
    /// The languages whose URLs it lists: those its origin serves.
    languages: Vec<Language>,
    /// The origin it is served at.
    origin: Origin,
    built_at: String,
    routes: Vec<ListedRoute>,
    /// The number of each route's first URL: URLs are numbered route by route, page by
    /// page, language by language.
    starts: Vec<usize>,
    parts: Vec<Range<usize>>,
}

impl Sitemap {
    /// The sitemap `origin` serves of the pages `listed`, of the routes `declared`, within
    /// the protocol's bounds.
    pub fn new(
        placement: &Placement,
        origin: &Origin,
        declared: &[DeclaredRoute],
        listed: &[SitemapRoute],
        built_at: &str,
    ) -> Result<Self, String> {
        Self::within(placement, origin, declared, listed, built_at, PROTOCOL)
    }

    /// The same, each file within `bounds` (tests cut small sitemaps into parts).
    fn within(
        placement: &Placement,
        origin: &Origin,
        declared: &[DeclaredRoute],
        listed: &[SitemapRoute],
        built_at: &str,
        bounds: Bounds,
    ) -> Result<Self, String> {
        let routes = listed
            .iter()
            .map(|route| ListedRoute::new(placement.languages(), declared, route))
            .collect::<Result<Vec<_>, _>>()?;
        let languages = placement.languages_at(origin);
        let runs: Vec<parts::Run> = routes
            .iter()
            .map(|route| parts::Run {
                urls: route.len() * languages.len(),
                most_bytes: most_bytes(placement, &languages, route, built_at),
            })
            .collect();
        let starts = runs
            .iter()
            .scan(0, |next, run| {
                let start = *next;
                *next += run.urls;
                Some(start)
            })
            .collect();
        let frame = xml::URLSET_OPEN.len() + xml::URLSET_CLOSE.len();
        Ok(Self {
            placement: placement.clone(),
            languages,
            origin: origin.clone(),
            built_at: built_at.to_owned(),
            routes,
            starts,
            parts: parts::split(&runs, frame, bounds)?,
        })
    }

    /// How many files the URLs take: 1, `/sitemap.xml` itself, or the index's parts.
    pub fn parts(&self) -> usize {
        self.parts.len()
    }

    /// The index of the parts, when there are several.
    pub fn index(&self) -> Option<String> {
        (self.parts.len() > 1).then(|| xml::index(&self.origin, self.parts.len(), &self.built_at))
    }

    /// The route and page of URL `url`, and its language.
    fn url(&self, url: usize) -> (usize, usize, Language) {
        let route = self.starts.partition_point(|&start| start <= url) - 1;
        let within = url - self.starts[route];
        let count = self.languages.len();
        (route, within / count, self.languages[within % count])
    }
}

/// The most bytes one `<url>` of `route` takes: its bare entry in the language where that
/// is longest, and its longest page's segments, which each of the entry's URLs holds once
/// (its `<loc>`, each language's alternate and x-default).
fn most_bytes(
    placement: &Placement,
    languages: &[Language],
    route: &ListedRoute,
    built_at: &str,
) -> usize {
    let bare = route.bare_paths();
    let longest_bare = languages
        .iter()
        .map(|language| {
            let mut entry = String::new();
            xml::write_url(&mut entry, placement, *language, &bare, built_at);
            entry.len()
        })
        .max()
        .unwrap_or(0);
    let alternates = placement.languages().count();
    longest_bare + (alternates + 2) * route.longest_segments(xml::escaped_len)
}

#[cfg(test)]
mod tests;
