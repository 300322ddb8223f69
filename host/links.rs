//! The absolute URLs a page names for crawlers: its canonical URL and each language's
//! version of it, with x-default, each at the page's own path in that language where that
//! language sits (`https://www.example.org/en/languages/en`, `https://exemple.fr/langues/en`:
//! `placement`), as the page's identity or the sitemap gives them. The page's document and
//! headers name them, and the sitemap lists them, all from this one place.

use axum::http::HeaderValue;

use crate::lang::Language;
use crate::placement::Placement;

/// The URLs a page names for crawlers, absolute: itself, and each language's version of
/// it with x-default (the unprefixed URL on the site's origin, which follows the visitor's
/// choice).
pub struct PageLinks {
    canonical: String,
    alternates: Vec<(Hreflang, String)>,
}

/// What an alternate is the version for: a language, or anyone (`x-default`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hreflang {
    Language(Language),
    Default,
}

impl Hreflang {
    pub fn as_str(&self) -> &str {
        match self {
            Hreflang::Language(language) => language.code(),
            Hreflang::Default => "x-default",
        }
    }
}

impl std::fmt::Display for Hreflang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The links of the page in `language` whose path (without the prefix) in each language
/// `path_in` gives. x-default is the default language's path, unprefixed on the site's
/// origin: the host sends it on to the visitor's language, at that language's path.
pub fn page_links<'a>(
    placement: &Placement,
    language: Language,
    path_in: impl Fn(Language) -> &'a str,
) -> PageLinks {
    let placed = |language: Language| placement.url(language, path_in(language));
    let languages = placement.languages();
    let mut alternates: Vec<(Hreflang, String)> = languages
        .all()
        .map(|other| (Hreflang::Language(other), placed(other)))
        .collect();
    alternates.push((
        Hreflang::Default,
        placement
            .shared()
            .url(path_in(languages.default_language())),
    ));
    PageLinks {
        canonical: placed(language),
        alternates,
    }
}

impl PageLinks {
    pub fn canonical(&self) -> &str {
        &self.canonical
    }

    /// (hreflang, URL) for each language, then x-default.
    pub fn alternates(&self) -> &[(Hreflang, String)] {
        &self.alternates
    }

    /// The alternates as an HTTP `Link` header (RFC 8288), written into one buffer (a page
    /// of a site in 30 languages names 31).
    pub fn link_header(&self) -> Option<HeaderValue> {
        const AROUND: &str = r#"<>; rel="alternate"; hreflang="", "#;
        let room = self
            .alternates
            .iter()
            .map(|(hreflang, href)| href.len() + hreflang.as_str().len() + AROUND.len())
            .sum();
        let mut value = String::with_capacity(room);
        for (i, (hreflang, href)) in self.alternates.iter().enumerate() {
            if i > 0 {
                value.push_str(", ");
            }
            value.push('<');
            value.push_str(href);
            value.push_str(r#">; rel="alternate"; hreflang=""#);
            value.push_str(hreflang.as_str());
            value.push('"');
        }
        HeaderValue::try_from(value).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(links: &PageLinks) -> Vec<(&str, String)> {
        let alternates = links.alternates().iter();
        alternates
            .map(|(h, url)| (h.as_str(), url.clone()))
            .collect()
    }

    #[test]
    fn each_language_is_named_at_its_own_path() {
        let origin = crate::origin::Origin::parse("https://www.example.org").unwrap();
        let placement = Placement::prefixed(crate::lang::demo(), origin);
        let (fr, en) = (
            crate::lang::demo().by_code("fr").unwrap(),
            crate::lang::demo().by_code("en").unwrap(),
        );
        let path_in = |language: Language| match language.code() {
            "fr" => "/langues/en",
            _ => "/languages/en",
        };
        let links = page_links(&placement, en, path_in);
        assert_eq!(links.canonical(), "https://www.example.org/en/languages/en");
        assert_eq!(
            shown(&links),
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
            page_links(&placement, fr, path_in).canonical(),
            "https://www.example.org/fr/langues/en"
        );
        let header = links.link_header().unwrap();
        assert!(header.to_str().unwrap().starts_with(
            r#"<https://www.example.org/fr/langues/en>; rel="alternate"; hreflang="fr", "#
        ));
    }

    #[test]
    fn a_language_on_its_own_origin_is_named_there_and_x_default_stays_on_the_sites() {
        let origin = crate::origin::Origin::parse("https://www.example.org").unwrap();
        let placement = Placement::new(
            crate::lang::demo(),
            origin,
            &["fr=https://exemple.fr".into()],
        )
        .unwrap();
        let en = crate::lang::demo().by_code("en").unwrap();
        let links = page_links(&placement, en, |language| match language.code() {
            "fr" => "/langues/en",
            _ => "/languages/en",
        });
        assert_eq!(
            shown(&links),
            [
                ("fr", "https://exemple.fr/langues/en".to_string()),
                ("en", "https://www.example.org/en/languages/en".to_string()),
                (
                    "x-default",
                    "https://www.example.org/langues/en".to_string()
                ),
            ]
        );
    }
}
