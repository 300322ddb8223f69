//! Where each language of a site sits: under its prefix on the site's origin
//! (`https://www.example.org/fr-ca/…`), or at the root of an origin of its own
//! (`--language-origin fr=https://exemple.fr`: `https://exemple.fr/…`). The one place that
//! knows: every URL the host writes for a language (canonical, alternates, sitemap, the
//! ways of a redirect) is [`Placement::url`] or [`Placement::location`], and what a request
//! asks for is [`Placement::read`], from its path and the origin it was sent to. The app
//! writes its links from the same placement, which the boot state hands it
//! (`BootState::placement`).
//!
//! The origin a request was sent to is read from its `Host` (HTTP/1.1) or `:authority`
//! (HTTP/2), and only ever compared with the origins the operator named: an unknown one
//! is the site's origin, whatever it says.

pub mod prefix;

use std::sync::Arc;

use axum::http::{HeaderMap, Uri, header};
use serde::Serialize;

use crate::lang::{Language, Languages};
use crate::manifest::AppRoutes;
use crate::origin::Origin;
use prefix::{PathLanguage, split_path};

/// The site's origin, and the languages that have one of their own.
#[derive(Debug, Clone)]
pub struct Placement {
    languages: Languages,
    shared: Origin,
    /// By [`Language::index`]: its own origin, if it has one.
    own: Vec<Option<Origin>>,
    /// By [`Language::index`]: where its place starts in a URL (see [`Placement::start`]),
    /// written once: every page names it for each language.
    starts: Vec<String>,
    /// What the app is told, made once: none while every language sits under its prefix.
    for_the_app: Option<Arc<AppPlacement>>,
}

/// What a request's path and origin ask for.
#[derive(Debug, PartialEq, Eq)]
pub enum Placed<'a> {
    /// A page in `language`; its path (without the language's prefix, if it has one)
    /// starts at byte `from` of the request's path.
    Page { language: Language, from: usize },
    /// `language`'s page at `path`, asked where the language does not sit (its prefix on
    /// the site's origin when it has its own; a prefix on a language's own origin): its
    /// way is to where it sits, for good.
    Moved { language: Language, path: &'a str },
    /// A prefix that looks like a language tag the site does not offer (`/de/…`).
    Unsupported,
    /// A path without a prefix on the site's origin: the visitor's language decides.
    Unprefixed { path: &'a str },
}

/// How the app writes its links: the site's origin, and the languages on origins of their
/// own (absent when none has one: every language sits under its prefix).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Placement"))]
pub struct AppPlacement {
    /// `https://www.example.org`: where the prefixed languages sit.
    pub origin: String,
    /// By language code: the origin a language sits at the root of.
    pub origins: std::collections::BTreeMap<String, String>,
}

impl Placement {
    /// Every language under its prefix on `shared`.
    pub fn prefixed(languages: Languages, shared: Origin) -> Self {
        let mut placement = Self {
            own: vec![None; languages.count()],
            languages,
            starts: Vec::new(),
            shared,
            for_the_app: None,
        };
        placement.starts = placement.written_starts();
        placement
    }

    fn written_starts(&self) -> Vec<String> {
        self.languages
            .all()
            .map(|language| match &self.own[language.index()] {
                Some(origin) => origin.to_string(),
                None => self.shared.url(&format!("/{}", language.segment())),
            })
            .collect()
    }

    /// `--language-origin` values (`fr=https://exemple.fr`), each a language of the site
    /// at the root of an origin that is neither the site's nor another language's.
    pub fn new(languages: Languages, shared: Origin, given: &[String]) -> Result<Self, String> {
        let mut placement = Self::prefixed(languages.clone(), shared);
        for value in given {
            let refuse = |why: String| {
                Err(format!(
                    "--language-origin {value:?}: {why}; give a language of the site and the origin it is served at, as fr=https://exemple.fr"
                ))
            };
            let Some((code, origin)) = value.split_once('=') else {
                return refuse("no `=`".into());
            };
            let Some(language) = languages.by_tag(code.trim()) else {
                let codes: Vec<String> = languages.all().map(|l| l.code().to_owned()).collect();
                return refuse(format!(
                    "{code:?} is not one of the site's languages ({})",
                    codes.join(", ")
                ));
            };
            let origin = match Origin::parse(origin.trim()) {
                Ok(origin) => origin,
                Err(e) => return refuse(e.replace("--public-url", "its origin")),
            };
            if placement.own[language.index()].is_some() {
                return refuse(format!("{} is given an origin twice", language.code()));
            }
            if origin.authority() == placement.shared.authority()
                || placement
                    .own
                    .iter()
                    .flatten()
                    .any(|other| other.authority() == origin.authority())
            {
                return refuse(format!(
                    "{origin} is already the site's or another language's"
                ));
            }
            placement.own[language.index()] = Some(origin);
        }
        placement.starts = placement.written_starts();
        placement.for_the_app = placement.app_placement().map(Arc::new);
        Ok(placement)
    }

    /// The site's languages.
    pub fn languages(&self) -> &Languages {
        &self.languages
    }

    /// The site's origin: the prefixed languages', x-default's.
    pub fn shared(&self) -> &Origin {
        &self.shared
    }

    /// The origin `language` sits on.
    pub fn origin_of(&self, language: Language) -> &Origin {
        self.own[language.index()].as_ref().unwrap_or(&self.shared)
    }

    /// Whether some language sits on an origin of its own.
    pub fn has_own_origins(&self) -> bool {
        self.own.iter().any(Option::is_some)
    }

    /// The languages whose pages an origin serves: `authority`'s own language, or every
    /// language without an origin of its own (on the site's).
    pub fn languages_at(&self, origin: &Origin) -> Vec<Language> {
        self.languages
            .all()
            .filter(|language| self.origin_of(*language).authority() == origin.authority())
            .collect()
    }

    /// The origins the site is served at: its own, then the languages' own.
    pub fn origins(&self) -> impl Iterator<Item = &Origin> {
        std::iter::once(&self.shared).chain(self.own.iter().flatten())
    }

    /// Where `language`'s place starts in a URL: its origin, then its prefix if it has one
    /// (`https://www.example.org/fr-ca`, `https://exemple.fr`); a page's path follows.
    pub fn start(&self, language: Language) -> &str {
        &self.starts[language.index()]
    }

    /// The absolute URL of `language`'s page whose path there (without a prefix) is `path`.
    pub fn url(&self, language: Language, path: &str) -> String {
        let start = self.start(language);
        let mut url = String::with_capacity(start.len() + path.len());
        url.push_str(start);
        url.push_str(path);
        url
    }

    /// The start of a `Location` leading to `language`'s pages from a page at `from`'s
    /// place (`None`: the site's origin): a path when both are on one origin, else the
    /// absolute URL's start.
    pub fn location(&self, from: Option<Language>, language: Language) -> String {
        let here = from.map_or(&self.shared, |from| self.origin_of(from));
        let there = self.origin_of(language);
        match (&self.own[language.index()], here == there) {
            (Some(_), true) => String::new(),
            (None, true) => format!("/{}", language.segment()),
            (_, false) => self.start(language).to_owned(),
        }
    }

    /// What the app is told, when some language has an origin of its own.
    pub fn for_the_app(&self) -> Option<Arc<AppPlacement>> {
        self.for_the_app.clone()
    }

    fn app_placement(&self) -> Option<AppPlacement> {
        self.has_own_origins().then(|| AppPlacement {
            origin: self.shared.to_string(),
            origins: self
                .languages
                .all()
                .filter_map(|language| {
                    let origin = self.own[language.index()].as_ref()?;
                    Some((language.code().to_owned(), origin.to_string()))
                })
                .collect(),
        })
    }

    /// The language whose own origin a request was sent to (its `:authority`, else its
    /// `Host`); none for the site's origin, or any origin the operator did not name.
    pub fn own_language_of(&self, uri: &Uri, headers: &HeaderMap) -> Option<Language> {
        if !self.has_own_origins() {
            return None;
        }
        let authority = match uri.authority() {
            Some(authority) => authority.as_str(),
            None => headers.get(header::HOST)?.to_str().ok()?,
        };
        self.languages.all().find(|language| {
            self.own[language.index()]
                .as_ref()
                .is_some_and(|origin| same_authority(origin, authority))
        })
    }

    /// What a request for `path` sent to `own`'s origin (`None`: the site's) asks for.
    pub fn read<'a>(&self, own: Option<Language>, path: &'a str, routes: &AppRoutes) -> Placed<'a> {
        let split = split_path(path, routes);
        let Some(own) = own else {
            return match split {
                PathLanguage::Prefixed { language, path }
                    if self.own[language.index()].is_some() =>
                {
                    Placed::Moved { language, path }
                }
                PathLanguage::Prefixed { language, .. } => Placed::Page {
                    language,
                    from: 1 + language.segment().len(),
                },
                PathLanguage::Unsupported => Placed::Unsupported,
                PathLanguage::Unprefixed { path } => Placed::Unprefixed { path },
            };
        };
        match split {
            // A prefix on a language's own origin: its own (`/fr/x` on exemple.fr is `/x`),
            // or another language's, which sits elsewhere.
            PathLanguage::Prefixed { language, path } => Placed::Moved { language, path },
            PathLanguage::Unsupported | PathLanguage::Unprefixed { .. } => Placed::Page {
                language: own,
                from: 0,
            },
        }
    }
}

/// Whether `authority` (a request's, as the client wrote it) names `origin`: its host in
/// any case and with or without the trailing dot of a fully qualified name, its port as
/// the origin's (or the scheme's default where either has none).
fn same_authority(origin: &Origin, authority: &str) -> bool {
    let default_port = match origin.scheme() {
        "https" => "443",
        _ => "80",
    };
    let (Some((host, port)), Some((their_host, their_port))) =
        (host_and_port(authority), host_and_port(origin.authority()))
    else {
        return false;
    };
    let host = host.strip_suffix('.').unwrap_or(host);
    host.eq_ignore_ascii_case(their_host)
        && port.unwrap_or(default_port) == their_port.unwrap_or(default_port)
}

/// An authority's host and port (`None`: none written); `None` for an authority that is
/// neither (an empty port, or one that is not digits, is malformed here, not the default).
fn host_and_port(authority: &str) -> Option<(&str, Option<&str>)> {
    let host_end = match authority.strip_prefix('[') {
        // A bracketed IPv6 address holds colons of its own.
        Some(rest) => rest.find(']')? + 2,
        None => authority.find(':').unwrap_or(authority.len()),
    };
    let (host, rest) = authority.split_at(host_end);
    if rest.is_empty() {
        return Some((host, None));
    }
    let port = rest.strip_prefix(':')?;
    let digits = !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit());
    digits.then_some((host, Some(port)))
}

#[cfg(test)]
mod tests;
