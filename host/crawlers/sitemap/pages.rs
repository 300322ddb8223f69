//! The pages the sitemap lists, as the manifest gives them: per route, its pattern in every
//! language and its pages by their parameters' segments (`fr/FR`). A page's path in a
//! language is its pattern there, filled when a part is written: the host keeps one string
//! per page, never one per page and language.

use crate::lang::Languages;
use crate::manifest::{DeclaredRoute, SitemapRoute, filled};

/// One route's listed pages.
pub(super) struct ListedRoute {
    /// Its pattern in each language, by [`Language::index`].
    patterns: Vec<String>,
    /// Its parameters, in the order a page gives their segments (its default pattern's).
    names: Vec<String>,
    /// Each page: its parameters' segments joined by `/` (`""` without parameters).
    pages: Vec<Box<str>>,
}

impl ListedRoute {
    /// The pages `listed` names, of the route `declared` declares; fails when the manifest
    /// lists a route it does not declare, or a page with other parameters than its route's.
    pub fn new(
        languages: &Languages,
        declared: &[DeclaredRoute],
        listed: &SitemapRoute,
    ) -> Result<Self, String> {
        let route = declared
            .iter()
            .find(|route| route.name == listed.route)
            .ok_or_else(|| {
                format!(
                    "the manifest's sitemap lists the route {:?}, which it does not declare",
                    listed.route
                )
            })?;
        let patterns = route.patterns(languages)?;
        let names: Vec<String> = patterns[languages.default_language().index()]
            .split('/')
            .filter_map(|part| part.strip_prefix(':'))
            .map(str::to_owned)
            .collect();
        for page in &listed.pages {
            let segments = segments(page, names.len());
            if segments.len() != names.len() || segments.iter().any(|segment| segment.is_empty()) {
                return Err(format!(
                    "the manifest's sitemap lists the page {page:?} of {:?}, which takes the parameters ({})",
                    route.name,
                    names.join(", ")
                ));
            }
        }
        Ok(Self {
            patterns,
            names,
            pages: listed
                .pages
                .iter()
                .map(|page| page.as_str().into())
                .collect(),
        })
    }

    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// The path of its page `page` in every language, by [`Language::index`].
    pub fn paths(&self, page: usize) -> Vec<String> {
        let segments = segments(&self.pages[page], self.names.len());
        self.patterns
            .iter()
            .map(|pattern| filled(pattern, |name| self.segment(&segments, name)))
            .collect()
    }

    /// Its patterns with every parameter empty: what each language's path is without them.
    pub fn bare_paths(&self) -> Vec<String> {
        self.patterns
            .iter()
            .map(|pattern| filled(pattern, |_| ""))
            .collect()
    }

    /// How long, escaped for XML, the segments of its longest page are, summed: a path
    /// holds each once.
    pub fn longest_segments(&self, escaped_len: impl Fn(&str) -> usize) -> usize {
        self.pages
            .iter()
            .map(|page| {
                segments(page, self.names.len())
                    .iter()
                    .map(|s| escaped_len(s))
                    .sum()
            })
            .max()
            .unwrap_or(0)
    }

    fn segment<'p>(&self, segments: &[&'p str], name: &str) -> &'p str {
        self.names
            .iter()
            .position(|known| known == name)
            .map_or("", |at| segments[at])
    }
}

/// A page's segments: none for a route without parameters.
fn segments(page: &str, count: usize) -> Vec<&str> {
    if count == 0 && page.is_empty() {
        Vec::new()
    } else {
        page.split('/').collect()
    }
}
