//! Step 1 of a page request: what it asks for. Its language (the path's prefix) and its
//! path without the prefix, canonical
//! (`url_path::page_path`: what a browser leaves raw, `|` or `é`, encoded; a path no page
//! can have, `//x` or one too long, marked as such, for the not-found page); a path
//! without a prefix is answered at once with the way to its prefixed page, in the language
//! it lands in (`landing`: saved choice, a crawler's default, Accept-Language), a path in
//! another language's words with the way to its own (`redirect`, from the manifest's
//! routes), and a method other than GET or HEAD is refused, so only a prefixed page in its
//! language's words goes on to the cache and the render; one the cache does not keep is
//! then identified (`Asked::identify`: the page the route table found there, whose route
//! and parameters the app renders). Synchronous, and it trusts nothing it reads.

use std::borrow::Cow;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, Version, header};
use axum::response::{IntoResponse, Response};

use super::cookies;
use super::landing::Landing;
use super::redirect;
use super::site::Site;
use crate::lang::{Language, Languages};
use crate::links::{self, PageLinks};
use crate::manifest::{AppRoutes, Found};
use crate::page_identity::PageIdentity;
use crate::placement::{Placed, Placement};
use crate::render::Visitor;
use crate::server::PeerAddr;
use crate::trace::Trace;
use crate::url_path::{PagePath, canonical, page_path};

/// What a request is, once read.
pub enum Read {
    /// A page to find or render.
    Page(Asked),
    /// An answer already: the way to a prefixed page, or a refused method.
    Answer(Response),
}

/// A page asked for with its language in its path.
pub struct Asked {
    pub language: Language,
    /// `/de/…`: a language we do not offer: a 404 whatever the app renders.
    pub offered: bool,
    /// HEAD: the answer's head only.
    pub head_only: bool,
    pub headers: HeaderMap,
    pub peer: Option<PeerAddr>,
    /// The request's trace: the loader's calls carry it on.
    pub trace: Trace,
    /// The client takes trailers: HTTP/2, or HTTP/1.1 with `TE: trailers`.
    pub trailers: bool,
    /// No page can be at its path (`url_path::page_path`): a 404 whatever the app renders.
    no_page: bool,
    /// The page may wait for data (`Found::may_load`): never a page no route takes, nor a
    /// path no page can have; it takes its part of the loading budget.
    pub may_wait: bool,
    /// What the route table found at its path (none: a prefix we do not offer, or a path
    /// no page can have): which page it is, once the cache has none (`identify`).
    found: Option<Found>,
    uri: Uri,
    /// Where the path without its prefix starts in `uri`'s path.
    unprefixed_from: usize,
    /// The path without its prefix, canonical, when it is not so as it came.
    canonical: Option<Box<str>>,
}

impl Asked {
    /// The path without its language prefix (`/en` → `/`), canonical.
    pub fn path(&self) -> &str {
        if let Some(canonical) = &self.canonical {
            return canonical;
        }
        match &self.uri.path()[self.unprefixed_from..] {
            "" => "/",
            path => path,
        }
    }

    /// The answer's status, from the one the app rendered.
    pub fn status(&self, rendered: StatusCode) -> StatusCode {
        match self.offered && !self.no_page {
            true => rendered,
            false => StatusCode::NOT_FOUND,
        }
    }

    /// The page's canonical URL and alternates, at its path in each language: a page found
    /// names them, no other does, nor a page a path of which is longer than a page's path
    /// may be (a parameter written again as the app writes it may be three times as long).
    pub fn links(
        &self,
        placement: &Placement,
        status: StatusCode,
        page: &PageIdentity,
    ) -> Option<PageLinks> {
        (status == StatusCode::OK && page.fits())
            .then(|| links::page_links(placement, self.language, |language| page.path_in(language)))
    }

    /// Which page it is, from what the route table found at its path (the not-found page
    /// when no route of its language takes it): made once the cache has no page for it (a
    /// kept page has its own).
    pub fn identify(&self, routes: &AppRoutes) -> Arc<PageIdentity> {
        // Asked in its language, or in none under a prefix we do not offer (its keys name
        // no language).
        let asked_in = self.offered.then_some(self.language);
        let page = match self.found {
            Some(Found::Here { .. }) => routes.page(asked_in, self.language, self.path()),
            _ => PageIdentity::at(asked_in, self.path()),
        };
        Arc::new(page)
    }

    /// The route table says no route takes its path (`page`, its identity): the not-found
    /// page, whatever renders it.
    pub fn no_route_takes_it(&self, page: &PageIdentity) -> bool {
        self.found != Some(Found::Unknown) && page.route().is_none()
    }

    /// `page` (its identity) as the boot state hands it to the app: none when the route
    /// table does not know the bundle's routes (it matches the path itself).
    pub fn for_the_app(&self, page: &Arc<PageIdentity>) -> Option<Arc<PageIdentity>> {
        (self.found != Some(Found::Unknown)).then(|| page.clone())
    }

    /// How the page cache knows this page; `None`: a page it never holds (an unsupported
    /// prefix is a 404 of its own).
    pub fn cache_key(&self) -> Option<(Language, &str)> {
        self.offered.then(|| (self.language, self.path()))
    }

    /// What the page's loader may carry for the visitor.
    pub fn visitor(&self, languages: &Languages) -> Visitor {
        Visitor {
            // Several Cookie fields are one list (RFC 6265 §5.4 sends one; HTTP/2 may split it).
            cookie: cookies::all_but_the_choice(languages, self.cookie_fields()),
            authorization: self.headers.get(header::AUTHORIZATION).cloned(),
            accept_language: languages.info(self.language).accept_language().clone(),
            peer: self.peer.map(|PeerAddr(address)| address),
            trace: self.trace.clone(),
        }
    }

    fn cookie_fields(&self) -> impl Iterator<Item = &[u8]> {
        self.headers
            .get_all(header::COOKIE)
            .iter()
            .map(HeaderValue::as_bytes)
    }
}

/// Whether an answer's trailer fields reach the client: HTTP/2 carries them always,
/// HTTP/1.1 when the client says it takes them (RFC 9110 §6.5.1); browsers do not.
fn takes_trailers(version: Version, headers: &HeaderMap) -> bool {
    version == Version::HTTP_2
        || headers
            .get_all(header::TE)
            .iter()
            .flat_map(|value| value.as_bytes().split(|b| *b == b','))
            .any(|coding| coding.trim_ascii().eq_ignore_ascii_case(b"trailers"))
}

/// Reads `request` (taken whole, so that nothing of it is copied).
pub fn read(request: Request, routes: &AppRoutes, site: &Site) -> Read {
    let (parts, _) = request.into_parts();
    if parts.method != Method::GET && parts.method != Method::HEAD {
        return Read::Answer(
            (
                StatusCode::METHOD_NOT_ALLOWED,
                [(header::ALLOW, "GET, HEAD")],
                "method not allowed",
            )
                .into_response(),
        );
    }
    let full = parts.uri.path();
    let placement = &site.placement;
    let own = placement.own_language_of(&parts.uri, &parts.headers);
    let (language, offered, unprefixed_from) = match placement.read(own, full, routes) {
        Placed::Page { language, from } => (language, true, from),
        Placed::Unsupported => (site.languages.default_language(), false, 0),
        Placed::Moved { language, path } => {
            let path = canonical(path);
            return Read::Answer(redirect::for_good(
                placement.location(own, language),
                language,
                routes.page(Some(language), language, &path),
                parts.uri.query(),
                &site.freshness,
            ));
        }
        Placed::Unprefixed { path } => {
            let landing = Landing::of(&site.languages, &parts.headers, &site.crawlers);
            let has_cookie = parts.headers.contains_key(header::COOKIE);
            let path = canonical(path);
            return Read::Answer(redirect::to_the_prefixed_page(
                placement.location(None, landing.language),
                landing.language,
                routes.page(None, landing.language, &path),
                parts.uri.query(),
                landing.headers(has_cookie, &site.freshness),
            ));
        }
    };
    let (no_page, path) = match page_path(match &full[unprefixed_from..] {
        "" => "/",
        path => path,
    }) {
        PagePath::Page(path) => (false, path),
        PagePath::NoPage(path) => (true, path),
    };
    let found = (offered && !no_page).then(|| routes.find(language, &path));
    if found == Some(Found::Elsewhere) {
        return Read::Answer(redirect::for_good(
            placement.location(own, language),
            language,
            routes.page(Some(language), language, &path),
            parts.uri.query(),
            &site.freshness,
        ));
    }
    let may_wait = found.is_some_and(|found| found.may_load());

    let canonical = match path {
        Cow::Borrowed(_) => None,
        Cow::Owned(path) => Some(path.into_boxed_str()),
    };
    Read::Page(Asked {
        language,
        offered,
        no_page,
        may_wait,
        found,
        canonical,
        head_only: parts.method == Method::HEAD,
        peer: parts.extensions.get::<PeerAddr>().copied(),
        trace: parts
            .extensions
            .get::<Trace>()
            .cloned()
            .unwrap_or_else(Trace::untraced),
        trailers: takes_trailers(parts.version, &parts.headers),
        headers: parts.headers,
        uri: parts.uri,
        unprefixed_from,
    })
}
