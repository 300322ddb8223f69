//! Which language a path without a prefix (`/`, `/status`) leads to, and who may keep that
//! way: the visitor's saved choice (the language cookie); else, for a crawler, the default
//! language, so that every crawler is led the same way; else the best of the site's
//! languages for their `Accept-Language` (`accept_language`); else the default.
//!
//! A shared cache may keep the way without one copy per header a browser sends: the way
//! varies on `Accept-Language` and `Cookie`, and names the one site's tag its choice rests
//! on (`Bilingue-Accept-Language`), which is what `deploy/varnish.vcl` reduces the header
//! to before its cache looks (a cache that does the same holds one way per language). A
//! crawler's way rests on the default; when its header would lead elsewhere, the way is
//! the crawler's alone (`private`), so that a cache never keeps it for that header.

use axum::http::header::{self, HeaderName};
use axum::http::{HeaderMap, HeaderValue, StatusCode};

use super::accept_language::{self, Preferred};
use super::cookies;
use super::sharing::{Freshness, Sharing};
use crate::crawlers::CrawlerTest;
use crate::lang::{Language, Languages};

/// The reduced `Accept-Language` a way rests on: one of the site's tags, as the list
/// writes it.
pub const REDUCED_ACCEPT_LANGUAGE: HeaderName = HeaderName::from_static("bilingue-accept-language");

/// Where a path without a prefix leads, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Landing {
    pub language: Language,
    basis: Basis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Basis {
    /// The visitor's cookie holds their choice: the way is theirs.
    SavedChoice,
    /// The header, reduced to `language`'s tag (a crawler's: to the default's), and whether
    /// that is also what the header alone leads to, so that anyone may keep the way.
    AcceptLanguage { as_the_header_alone: bool },
}

impl Landing {
    /// Reads the request's headers: its cookies, its user agent, its `Accept-Language`.
    pub fn of(languages: &Languages, headers: &HeaderMap, crawlers: &CrawlerTest) -> Self {
        let saved = cookies::saved_language(
            languages,
            headers
                .get_all(header::COOKIE)
                .iter()
                .map(HeaderValue::as_bytes),
        );
        if let Some(language) = saved {
            return Self {
                language,
                basis: Basis::SavedChoice,
            };
        }
        let asked = match accept_language::lookup(
            headers
                .get_all(header::ACCEPT_LANGUAGE)
                .iter()
                .map(HeaderValue::as_bytes),
            |tag| languages.by_tag(tag),
        ) {
            Some(Preferred::Language(language)) => language,
            Some(Preferred::Any) | None => languages.default_language(),
        };
        let language = match crawlers.is_crawler(headers) {
            true => languages.default_language(),
            false => asked,
        };
        Self {
            language,
            basis: Basis::AcceptLanguage {
                as_the_header_alone: language == asked,
            },
        }
    }

    /// The way's own headers: who may keep it, what it varies on, and the reduced value
    /// its choice rests on. `has_cookie`: any cookie makes the way the visitor's.
    pub fn headers(&self, has_cookie: bool, freshness: &Freshness) -> HeaderMap {
        let shared = !has_cookie
            && self.basis
                == (Basis::AcceptLanguage {
                    as_the_header_alone: true,
                });
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CACHE_CONTROL,
            match shared {
                true => freshness.cache_control(Sharing::Public { limit: None }, StatusCode::FOUND),
                false => HeaderValue::from_static("private, no-store"),
            },
        );
        headers.insert(
            header::VARY,
            HeaderValue::from_static("accept-language, cookie"),
        );
        if let Basis::AcceptLanguage { .. } = self.basis {
            headers.insert(
                REDUCED_ACCEPT_LANGUAGE,
                HeaderValue::from_str(self.language.code())
                    .expect("a language tag is a header value"),
            );
        }
        headers
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::EMBEDDED;

    const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    const GOOGLEBOT: &str =
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    fn land(fields: &[(&str, &str)]) -> (Landing, HeaderMap) {
        let crawlers = CrawlerTest::new(&EMBEDDED.crawlers).unwrap();
        let mut headers = HeaderMap::new();
        for (name, value) in fields {
            headers.append(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        let landing = Landing::of(&crate::lang::demo(), &headers, &crawlers);
        let has_cookie = headers.contains_key(header::COOKIE);
        let freshness = Freshness {
            max_age: std::time::Duration::from_secs(60),
            s_maxage: std::time::Duration::from_secs(300),
            stale_while_revalidate: std::time::Duration::ZERO,
            stale_if_error: std::time::Duration::ZERO,
        };
        (landing, landing.headers(has_cookie, &freshness))
    }

    fn said(headers: &HeaderMap, name: HeaderName) -> &str {
        headers.get(name).map_or("", |v| v.to_str().unwrap())
    }

    const ENGLISH_BROWSER: [(&str, &str); 2] = [
        ("user-agent", BROWSER),
        ("accept-language", "en-GB,en;q=0.9"),
    ];

    #[test]
    fn a_browser_is_led_by_its_header_and_anyone_may_keep_the_way() {
        let (landing, headers) = land(&ENGLISH_BROWSER);
        assert_eq!(landing.language.code(), "en");
        assert!(said(&headers, header::CACHE_CONTROL).starts_with("public, "));
        assert_eq!(said(&headers, header::VARY), "accept-language, cookie");
        assert_eq!(said(&headers, REDUCED_ACCEPT_LANGUAGE), "en");
        let (nothing, headers) = land(&[("user-agent", BROWSER), ("accept-language", "zh")]);
        assert_eq!(nothing.language, crate::lang::demo().default_language());
        assert_eq!(said(&headers, REDUCED_ACCEPT_LANGUAGE), "fr");
    }

    #[test]
    fn a_saved_choice_wins_and_the_way_is_the_visitors() {
        let (landing, headers) = land(&[
            ("accept-language", "fr"),
            ("cookie", "theme=x; bilingue_lang=en"),
        ]);
        assert_eq!(landing.language.code(), "en");
        assert_eq!(said(&headers, header::CACHE_CONTROL), "private, no-store");
        assert_eq!(
            said(&headers, REDUCED_ACCEPT_LANGUAGE),
            "",
            "it rests on no header"
        );
        // Another cookie: the header leads, but the way is still the visitor's.
        let (landing, headers) = land(&[
            ("accept-language", "en"),
            ("cookie", "theme=x; bilingue_lang=xx"),
        ]);
        assert_eq!(landing.language.code(), "en");
        assert_eq!(said(&headers, header::CACHE_CONTROL), "private, no-store");
        assert_eq!(said(&headers, REDUCED_ACCEPT_LANGUAGE), "en");
    }

    #[test]
    fn a_crawler_is_led_to_the_default_and_keeps_a_way_no_browser_gets_to_itself() {
        let (landing, headers) = land(&[("user-agent", GOOGLEBOT), ("accept-language", "en")]);
        assert_eq!(landing.language, crate::lang::demo().default_language());
        assert_eq!(said(&headers, header::CACHE_CONTROL), "private, no-store");
        assert_eq!(said(&headers, REDUCED_ACCEPT_LANGUAGE), "fr");
        // Without a header, or with one reduced to the default (as the VCL sends a
        // crawler's), its way is everyone's.
        for asked in [
            &[("user-agent", GOOGLEBOT)][..],
            &[("user-agent", GOOGLEBOT), ("accept-language", "fr")],
        ] {
            let (landing, headers) = land(asked);
            assert_eq!(landing.language, crate::lang::demo().default_language());
            assert!(
                said(&headers, header::CACHE_CONTROL).starts_with("public, "),
                "{asked:?}"
            );
        }
    }
}
