//! A request path's language prefix: `/en/x` is `/x` in English, `/de/x` a language we do
//! not offer, `/x` a path without a prefix. A first segment the app routes (its build
//! lists them) is never read as a language. The one split of the host: a page's request
//! (`pages::request`) and its purge keys (`purge_keys`) both read the prefix here. The app
//! strips the same prefixes (`stripLanguagePrefix`, app/i18n/languages.ts); both sides are
//! held to the cases in `app/i18n/prefix-cases.json`.

use crate::lang::{Language, Languages};
use crate::manifest::AppRoutes;

/// A request path, split into its language prefix and the path without it.
#[derive(Debug, PartialEq, Eq)]
pub enum PathLanguage<'a> {
    /// `/en/x` → (en, `/x`); `/en` → (en, `/`).
    Prefixed { language: Language, path: &'a str },
    /// The first segment looks like a language tag (`/de/…`, `/pt-BR/…`) we do not offer,
    /// and is none of the app's routes.
    Unsupported,
    /// No language prefix: `/x` → `/x`.
    Unprefixed { path: &'a str },
}

/// Splits `path`; a first segment the app routes is never read as a language.
pub fn split_path<'a>(path: &'a str, routes: &AppRoutes) -> PathLanguage<'a> {
    let Some(after_slash) = path.strip_prefix('/') else {
        return PathLanguage::Unprefixed { path: "/" };
    };
    if let Some((language, rest)) = offered_prefix(routes.languages(), path) {
        return PathLanguage::Prefixed {
            language,
            path: rest,
        };
    }
    let segment = after_slash.split('/').next().unwrap_or_default();
    if !routes.routes(segment) && looks_like_language_tag(segment) {
        return PathLanguage::Unsupported;
    }
    PathLanguage::Unprefixed { path }
}

/// The language we offer that `path` is prefixed with, and the path without it: `/en/x` →
/// (en, `/x`), `/en` → (en, `/`); none for any other path.
pub fn offered_prefix<'p>(languages: &Languages, path: &'p str) -> Option<(Language, &'p str)> {
    let after_slash = path.strip_prefix('/')?;
    let (segment, rest) = match after_slash.find('/') {
        Some(i) => (&after_slash[..i], &after_slash[i..]),
        None => (after_slash, "/"),
    };
    Some((languages.by_segment(segment)?, rest))
}

/// `de`, `ast`, `pt-BR`, `zh-Hant`: a BCP 47 primary subtag with at most one more subtag.
fn looks_like_language_tag(segment: &str) -> bool {
    let mut parts = segment.split('-');
    let primary = parts.next().unwrap_or_default();
    let primary_ok =
        (2..=3).contains(&primary.len()) && primary.bytes().all(|b| b.is_ascii_alphabetic());
    let second_ok = match parts.next() {
        None => true,
        Some(sub) => (2..=8).contains(&sub.len()) && sub.bytes().all(|b| b.is_ascii_alphanumeric()),
    };
    primary_ok && second_ok && parts.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Random;

    fn lang(code: &str) -> Language {
        crate::lang::demo().by_code(code).unwrap()
    }

    /// The cases the app's `stripLanguagePrefix` is held to as well.
    #[derive(serde::Deserialize)]
    struct Case {
        path: String,
        language: Option<String>,
        path_without_prefix: String,
    }

    #[test]
    fn the_host_and_the_app_strip_the_same_prefixes() {
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../app/i18n/prefix-cases.json"))
                .expect("app/i18n/prefix-cases.json");
        assert!(cases.len() >= 8);
        for case in cases {
            let expected = match &case.language {
                Some(code) => PathLanguage::Prefixed {
                    language: lang(code),
                    path: &case.path_without_prefix,
                },
                None => PathLanguage::Unprefixed {
                    path: &case.path_without_prefix,
                },
            };
            assert_eq!(
                split_path(&case.path, &AppRoutes::none(crate::lang::demo())),
                expected,
                "{}",
                case.path
            );
        }
    }

    #[test]
    fn language_like_prefixes_we_do_not_offer_are_unsupported() {
        for path in ["/de/", "/de", "/pt-BR/x", "/zh-Hant/", "/EN/"] {
            assert_eq!(
                split_path(path, &AppRoutes::none(crate::lang::demo())),
                PathLanguage::Unsupported,
                "{path}"
            );
        }
    }

    #[test]
    fn a_segment_the_app_routes_is_never_a_language() {
        let routes = AppRoutes::same_in_every_language(&["/faq", "/cgu/:page", "/new"]);
        for path in ["/faq", "/cgu/", "/new/x"] {
            assert_eq!(
                split_path(path, &routes),
                PathLanguage::Unprefixed { path },
                "{path}"
            );
        }
        assert_eq!(split_path("/faw", &routes), PathLanguage::Unsupported);
    }

    /// Random paths never panic, and what comes out keeps its promises.
    #[test]
    fn any_path_splits_without_losing_its_rest() {
        let mut random = Random(0x5eed);
        for _ in 0..20_000 {
            let bytes = random.text();
            let path = String::from_utf8_lossy(&bytes);
            match split_path(&path, &AppRoutes::none(crate::lang::demo())) {
                PathLanguage::Prefixed {
                    language,
                    path: rest,
                } => {
                    assert!(rest.starts_with('/'), "{path:?}");
                    assert!(
                        path == format!("/{}", language.segment())
                            || path == format!("/{}{rest}", language.segment()),
                        "{path:?}"
                    );
                }
                PathLanguage::Unsupported => assert!(path.starts_with('/'), "{path:?}"),
                PathLanguage::Unprefixed { path: rest } => assert!(
                    rest == path || (rest == "/" && !path.starts_with('/')),
                    "{path:?}"
                ),
            }
        }
    }
}
