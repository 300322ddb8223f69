//! What a page request asks for: its language (path prefix › saved choice › default), the
//! path without its prefix, and what kind of page that makes; and what its loader may carry
//! for the visitor.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};

use crate::lang::{self, Language, PathLanguage};
use crate::manifest::AppRoutes;
use crate::render::Visitor;
use crate::server::PeerAddr;

/// What a page request is, once its path is read: the answer's status, caching and
/// `Vary` follow from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageKind {
    /// `/fr/…`: the language is in the path.
    Prefixed,
    /// `/…`: the language is the visitor's saved choice, else the default; the answer is a
    /// redirect to the prefixed page.
    Unprefixed,
    /// `/de/…`: a language we do not offer; a 404 whatever the app renders.
    Unsupported,
}

impl PageKind {
    pub fn status(self, rendered: StatusCode) -> StatusCode {
        match self {
            PageKind::Unsupported => StatusCode::NOT_FOUND,
            PageKind::Prefixed | PageKind::Unprefixed => rendered,
        }
    }

    /// Whether the page cache may hold it: an unsupported prefix is a 404 of its own.
    pub fn cacheable(self) -> bool {
        self != PageKind::Unsupported
    }
}

/// Which page a request asks for.
pub struct PageRequest<'a> {
    pub language: Language,
    /// The path without its language prefix.
    pub rest: &'a str,
    pub kind: PageKind,
}

/// Reads the request's path (its language prefix, unless the app routes its first
/// segment) and, on an unprefixed path, the visitor's saved choice.
pub fn read_request<'a>(path: &'a str, headers: &HeaderMap, routes: &AppRoutes) -> PageRequest<'a> {
    match lang::split_path(path, routes) {
        PathLanguage::Prefixed { language, rest } => PageRequest {
            language,
            rest,
            kind: PageKind::Prefixed,
        },
        PathLanguage::Unsupported => PageRequest {
            language: Language::default_language(),
            rest: path,
            kind: PageKind::Unsupported,
        },
        PathLanguage::Unprefixed { rest } => {
            let saved =
                lang::from_cookies(headers.get_all(header::COOKIE).iter().map(|v| v.as_bytes()));
            PageRequest {
                language: saved.unwrap_or_else(Language::default_language),
                rest,
                kind: PageKind::Unprefixed,
            }
        }
    }
}

/// What a page's loader may carry for the visitor, on a page in `language`.
pub fn visitor(headers: &HeaderMap, language: Language, peer: Option<PeerAddr>) -> Visitor {
    Visitor {
        // Several Cookie fields are one list (RFC 6265 §5.4 sends one; HTTP/2 may split it).
        cookie: lang::cookies_but_the_choice(
            headers
                .get_all(header::COOKIE)
                .iter()
                .map(HeaderValue::as_bytes),
        ),
        authorization: headers.get(header::AUTHORIZATION).cloned(),
        language,
        peer: peer.map(|PeerAddr(address)| address),
    }
}
