//! Which language a request is answered in. The supported languages are the one list in
//! `app/i18n/languages.json`, which the app reads too (the build embeds it; development
//! mode reads the app's own copy). Order of precedence: the path's language prefix, then
//! the saved choice (a cookie the app writes), then the default. Nothing here trusts its
//! input: any path or cookie of any shape is answered.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::manifest::AppRoutes;

#[derive(Debug, Deserialize)]
pub struct LanguageInfo {
    code: String,
    /// The BCP 47 locale (fr-FR).
    locale: String,
    /// Its place in the declared list, set once the list is read.
    #[serde(skip)]
    index: usize,
    /// `fr-FR, fr;q=0.9`: what an API is asked in for a page in this language.
    #[serde(skip, default = "no_accept_language")]
    accept_language: axum::http::HeaderValue,
}

fn no_accept_language() -> axum::http::HeaderValue {
    axum::http::HeaderValue::from_static("")
}

/// `languages.json`.
#[derive(Debug, Deserialize)]
struct Declared {
    default: String,
    /// The cookie that keeps the visitor's choice.
    cookie: String,
    languages: Vec<LanguageInfo>,
}

static DECLARED: OnceLock<Declared> = OnceLock::new();

fn read_declared(json: &str) -> Result<Declared, String> {
    let mut declared: Declared =
        serde_json::from_str(json).map_err(|e| format!("languages.json: {e}"))?;
    if declared.languages.is_empty() {
        return Err("languages.json declares no language".into());
    }
    for (index, language) in declared.languages.iter_mut().enumerate() {
        language.index = index;
        language.accept_language = axum::http::HeaderValue::try_from(format!(
            "{}, {};q=0.9",
            language.locale, language.code
        ))
        .map_err(|_| {
            format!(
                "languages.json: {:?} is not a language tag",
                language.locale
            )
        })?;
    }
    if !declared
        .languages
        .iter()
        .any(|l| l.code == declared.default)
    {
        return Err(format!(
            "languages.json: the default {:?} is not one of the languages",
            declared.default
        ));
    }
    Ok(declared)
}

fn declared() -> &'static Declared {
    DECLARED.get_or_init(|| {
        read_declared(include_str!("../app/i18n/languages.json"))
            .expect("app/i18n/languages.json is valid")
    })
}

/// Uses `json` (the shape of `languages.json`) as the list of languages instead of the
/// built-in one: development mode reads the app's own. Only before any language is
/// looked at.
pub fn declare(json: &str) -> Result<(), String> {
    let declared = read_declared(json)?;
    DECLARED
        .set(declared)
        .map_err(|_| "the languages were already read".to_string())
}

/// The cookie the app writes when the visitor changes language.
pub fn cookie_name() -> &'static str {
    &declared().cookie
}

/// A supported language: a reference into the declared list, cheap to copy and compare.
#[derive(Debug, Clone, Copy)]
pub struct Language(&'static LanguageInfo);

impl PartialEq for Language {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for Language {}

impl std::hash::Hash for Language {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.index().hash(state);
    }
}

impl serde::Serialize for Language {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl Language {
    pub fn all() -> impl Iterator<Item = Language> {
        declared().languages.iter().map(Language)
    }

    pub fn default_language() -> Language {
        Self::from_code(&declared().default).expect("checked when the list is read")
    }

    pub fn from_code(code: &str) -> Option<Language> {
        declared()
            .languages
            .iter()
            .find(|l| l.code == code)
            .map(Language)
    }

    pub fn code(self) -> &'static str {
        &self.0.code
    }

    /// The locale as Open Graph writes it: `fr_FR`.
    pub fn og_locale(self) -> String {
        self.0.locale.replace('-', "_")
    }

    /// What an API is asked in (`Accept-Language`) for a page in this language.
    pub fn accept_language(self) -> axum::http::HeaderValue {
        self.0.accept_language.clone()
    }

    /// How many languages are supported.
    pub fn count() -> usize {
        declared().languages.len()
    }

    /// This language's place in the declared list, from 0 to `count() - 1`.
    pub fn index(self) -> usize {
        self.0.index
    }
}

/// A request path, split into its language prefix and the rest.
#[derive(Debug, PartialEq, Eq)]
pub enum PathLanguage<'a> {
    /// `/en/x` → (en, `/x`); `/en` → (en, `/`).
    Prefixed { language: Language, rest: &'a str },
    /// The first segment looks like a language tag (`/de/…`, `/pt-BR/…`) we do not offer,
    /// and is none of the app's routes.
    Unsupported,
    /// No language prefix: `/x` → `/x`.
    Unprefixed { rest: &'a str },
}

/// Splits `path`; a first segment the app routes is never read as a language.
pub fn split_path<'a>(path: &'a str, routes: &AppRoutes) -> PathLanguage<'a> {
    let Some(after_slash) = path.strip_prefix('/') else {
        return PathLanguage::Unprefixed { rest: "/" };
    };
    let (segment, rest) = match after_slash.find('/') {
        Some(i) => (&after_slash[..i], &after_slash[i..]),
        None => (after_slash, "/"),
    };
    if let Some(language) = Language::from_code(segment) {
        return PathLanguage::Prefixed { language, rest };
    }
    if !routes.routes(segment) && looks_like_language_tag(segment) {
        return PathLanguage::Unsupported;
    }
    PathLanguage::Unprefixed { rest: path }
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

/// The saved choice from `Cookie` header values; an unknown or malformed value is ignored.
pub fn from_cookies<'a>(cookie_headers: impl IntoIterator<Item = &'a [u8]>) -> Option<Language> {
    cookie_headers
        .into_iter()
        .filter_map(|value| std::str::from_utf8(value).ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.split_once('='))
        .filter(|(name, _)| name.trim() == cookie_name())
        .find_map(|(_, value)| Language::from_code(value.trim().trim_matches('"')))
}

/// The cookies of `Cookie` header values but the saved language choice (the host's, which
/// no API needs), as one header value; `None` when nothing else was sent. Anything that is
/// not exactly `NAME=<a supported language>` is kept: a nameless cookie, a second value,
/// whatever the visitor sent that this parse would not understand.
pub fn cookies_but_the_choice<'a>(
    cookie_headers: impl IntoIterator<Item = &'a [u8]>,
) -> Option<axum::http::HeaderValue> {
    let mut kept: Vec<&[u8]> = Vec::new();
    for value in cookie_headers {
        for pair in value.split(|b| *b == b';') {
            let pair = pair.trim_ascii();
            if pair.is_empty() || is_language_choice(pair) {
                continue;
            }
            kept.push(pair);
        }
    }
    if kept.is_empty() {
        return None;
    }
    axum::http::HeaderValue::from_bytes(&kept.join(&b"; "[..])).ok()
}

fn is_language_choice(pair: &[u8]) -> bool {
    let Ok(pair) = std::str::from_utf8(pair) else {
        return false;
    };
    pair.split_once('=')
        .is_some_and(|(name, value)| name == cookie_name() && Language::from_code(value).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(code: &str) -> Language {
        Language::from_code(code).unwrap()
    }

    #[test]
    fn prefixed_paths_carry_their_language_and_rest() {
        assert_eq!(
            split_path("/en/", &AppRoutes::default()),
            PathLanguage::Prefixed {
                language: lang("en"),
                rest: "/"
            }
        );
        assert_eq!(
            split_path("/en", &AppRoutes::default()),
            PathLanguage::Prefixed {
                language: lang("en"),
                rest: "/"
            }
        );
        assert_eq!(
            split_path("/fr/a/b", &AppRoutes::default()),
            PathLanguage::Prefixed {
                language: lang("fr"),
                rest: "/a/b"
            }
        );
    }

    #[test]
    fn language_like_prefixes_we_do_not_offer_are_unsupported() {
        for path in ["/de/", "/de", "/pt-BR/x", "/zh-Hant/", "/EN/"] {
            assert_eq!(
                split_path(path, &AppRoutes::default()),
                PathLanguage::Unsupported,
                "{path}"
            );
        }
    }

    #[test]
    fn a_segment_the_app_routes_is_never_a_language() {
        let routes = AppRoutes::new(&["faq".into(), "cgu".into(), "new".into()]);
        for path in ["/faq", "/cgu/", "/new/x"] {
            assert_eq!(
                split_path(path, &routes),
                PathLanguage::Unprefixed { rest: path },
                "{path}"
            );
        }
        assert_eq!(split_path("/faw", &routes), PathLanguage::Unsupported);
    }

    #[test]
    fn other_paths_have_no_prefix() {
        for path in ["/", "/about", "/english/", "/assets-x", "/e/", "/a-b-c/"] {
            assert_eq!(
                split_path(path, &AppRoutes::default()),
                PathLanguage::Unprefixed { rest: path },
                "{path}"
            );
        }
    }

    #[test]
    fn the_saved_choice_is_read_from_any_cookie_header() {
        let headers: [&[u8]; 2] = [b"a=1; theme=dark", b"x=y; bilingue_lang=en"];
        assert_eq!(from_cookies(headers), Some(lang("en")));
    }

    #[test]
    fn unknown_or_broken_cookies_are_ignored() {
        let headers: [&[u8]; 4] = [
            b"bilingue_lang=de",
            b"bilingue_lang",
            b"\xff\xfe=\x00",
            b";;=;",
        ];
        assert_eq!(from_cookies(headers), None);
    }

    #[test]
    fn only_a_well_formed_language_choice_is_left_out_of_the_cookies_forwarded() {
        let forwarded = |values: &[&[u8]]| {
            cookies_but_the_choice(values.iter().copied())
                .map(|v| String::from_utf8(v.as_bytes().to_vec()).unwrap())
        };
        assert_eq!(forwarded(&[b"bilingue_lang=en"]), None);
        assert_eq!(forwarded(&[b" bilingue_lang=fr ; ;"]), None);
        assert_eq!(
            forwarded(&[b"session=1; bilingue_lang=en", b"b=2"]),
            Some("session=1; b=2".into())
        );
        for kept in [
            &b"alice-token"[..],
            b"=alice-token",
            b"bilingue_lang=alice",
            b"bilingue_lang",
            b"bilingue_lang=\"en\"",
            b"Bilingue_lang=en",
        ] {
            assert!(
                forwarded(&[kept]).is_some(),
                "{}",
                String::from_utf8_lossy(kept)
            );
        }
    }

    #[test]
    fn an_api_is_asked_in_the_pages_language() {
        assert_eq!(lang("fr").accept_language(), "fr-FR, fr;q=0.9");
        assert_eq!(lang("en").accept_language(), "en-US, en;q=0.9");
    }

    #[test]
    fn french_is_the_default() {
        assert_eq!(Language::default_language().code(), "fr");
        assert_eq!(cookie_name(), "bilingue_lang");
    }

    #[test]
    fn a_list_that_cannot_be_served_is_refused_with_its_reason() {
        let no_default = r#"{"default":"de","cookie":"c","languages":[{"code":"fr","locale":"fr-FR","name":"F"}]}"#;
        assert!(read_declared(no_default).unwrap_err().contains("\"de\""));
        let empty = r#"{"default":"fr","cookie":"c","languages":[]}"#;
        assert!(read_declared(empty).unwrap_err().contains("no language"));
        assert!(read_declared("{").is_err());
    }
}

/// Random input for the negotiation: paths and cookies of any shape never panic, and what
/// comes out keeps its promises.
#[cfg(test)]
mod random_input {
    use super::*;

    /// xorshift64*: deterministic, so a failure names a seed that reproduces it.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn text(&mut self) -> Vec<u8> {
            const PIECES: [&[u8]; 14] = [
                b"/",
                b"fr",
                b"en",
                b"de",
                b"-",
                b"BR",
                b";",
                b"=",
                b"bilingue_lang",
                b" ",
                b"%2F",
                b"\xff",
                b"\xc3\xa9",
                b"..",
            ];
            let len = self.next() % 12;
            (0..len)
                .flat_map(|_| PIECES[(self.next() % PIECES.len() as u64) as usize].to_vec())
                .collect()
        }
    }

    #[test]
    fn any_path_splits_without_losing_its_rest() {
        let mut random = Random(0x5eed);
        for _ in 0..20_000 {
            let bytes = random.text();
            let path = String::from_utf8_lossy(&bytes);
            match split_path(&path, &AppRoutes::default()) {
                PathLanguage::Prefixed { language, rest } => {
                    assert!(rest.starts_with('/'), "{path:?}");
                    assert!(
                        path == format!("/{}", language.code())
                            || path == format!("/{}{rest}", language.code()),
                        "{path:?}"
                    );
                }
                PathLanguage::Unsupported => assert!(path.starts_with('/'), "{path:?}"),
                PathLanguage::Unprefixed { rest } => assert!(
                    rest == path || (rest == "/" && !path.starts_with('/')),
                    "{path:?}"
                ),
            }
        }
    }

    #[test]
    fn any_cookie_header_gives_a_supported_language_or_none() {
        let mut random = Random(0xc00c1e);
        for _ in 0..20_000 {
            let header = random.text();
            if let Some(language) = from_cookies([header.as_slice()]) {
                assert!(Language::all().any(|l| l == language));
                assert!(String::from_utf8_lossy(&header).contains(cookie_name()));
            }
        }
    }
}
