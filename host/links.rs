//! The absolute URLs a page names for crawlers, from the public origin: its canonical URL
//! and each language's version of it, with x-default. The page's document and headers name
//! them, and the sitemap lists them, all from this one place.

use axum::http::HeaderValue;

use crate::lang::Language;
use crate::origin::Origin;

/// The URLs a page names for crawlers, absolute: itself (its prefixed URL), and each
/// language's version of it with x-default (the unprefixed URL, which follows the
/// visitor's choice).
pub struct PageLinks {
    canonical: String,
    alternates: Vec<(&'static str, String)>,
}

pub fn page_links(origin: &Origin, language: Language, rest: &str) -> PageLinks {
    let mut alternates: Vec<(&'static str, String)> = Language::all()
        .map(|other| {
            (
                other.code(),
                origin.url(&format!("/{}{rest}", other.code())),
            )
        })
        .collect();
    alternates.push(("x-default", origin.url(rest)));
    PageLinks {
        canonical: origin.url(&format!("/{}{rest}", language.code())),
        alternates,
    }
}

impl PageLinks {
    pub fn canonical(&self) -> &str {
        &self.canonical
    }

    /// (hreflang, URL) for each language, then x-default.
    pub fn alternates(&self) -> &[(&'static str, String)] {
        &self.alternates
    }

    /// The alternates as an HTTP `Link` header (RFC 8288).
    pub fn link_header(&self) -> Option<HeaderValue> {
        let value = self
            .alternates
            .iter()
            .map(|(hreflang, href)| format!(r#"<{href}>; rel="alternate"; hreflang="{hreflang}""#))
            .collect::<Vec<_>>()
            .join(", ");
        HeaderValue::try_from(value).ok()
    }
}
