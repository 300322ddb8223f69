//! The absolute URLs a page names for crawlers, from the public origin: its canonical URL
//! and each language's version of it, with x-default, each at the page's own path in that
//! language (`/fr/langues/en`, `/en/languages/en`), as the page's identity or the sitemap
//! gives them. The page's document and headers name them, and the sitemap lists them, all
//! from this one place.

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

/// The links of the page in `language` whose path (without the prefix) in each language
/// `path_in` gives. x-default is the default language's path, unprefixed: the host sends
/// it on to the visitor's language, at that language's path.
pub fn page_links<'a>(
    origin: &Origin,
    language: Language,
    path_in: impl Fn(Language) -> &'a str,
) -> PageLinks {
    let prefixed =
        |language: Language| origin.url(&format!("/{}{}", language.segment(), path_in(language)));
    let languages = language.languages();
    let mut alternates: Vec<(&'static str, String)> = languages
        .all()
        .map(|other| (other.code(), prefixed(other)))
        .collect();
    alternates.push((
        "x-default",
        origin.url(path_in(languages.default_language())),
    ));
    PageLinks {
        canonical: prefixed(language),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_is_named_at_its_own_path() {
        let origin = Origin::parse("https://www.example.org").unwrap();
        let (fr, en) = (
            crate::lang::demo().by_code("fr").unwrap(),
            crate::lang::demo().by_code("en").unwrap(),
        );
        let path_in = |language: Language| match language.code() {
            "fr" => "/langues/en",
            _ => "/languages/en",
        };
        let links = page_links(&origin, en, path_in);
        assert_eq!(links.canonical(), "https://www.example.org/en/languages/en");
        assert_eq!(
            links.alternates(),
            [
                ("fr", "https://www.example.org/fr/langues/en".to_string()),
                ("en", "https://www.example.org/en/languages/en".to_string()),
                (
                    "x-default",
                    "https://www.example.org/langues/en".to_string()
                ),
            ]
        );
        assert_eq!(
            page_links(&origin, fr, path_in).canonical(),
            "https://www.example.org/fr/langues/en"
        );
        let header = links.link_header().unwrap();
        assert!(header.to_str().unwrap().starts_with(
            r#"<https://www.example.org/fr/langues/en>; rel="alternate"; hreflang="fr", "#
        ));
    }
}
