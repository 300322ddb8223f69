//! The supported languages: the one list in `app/i18n/languages.json`, which the app reads
//! too (the build embeds it; development mode reads the app's own copy), with the default
//! and the name of the cookie that keeps a visitor's choice. Which language a request gets
//! is read by `pages::request` (its path's prefix) and, for a path without one,
//! `pages::landing` (saved choice › a crawler's default › Accept-Language › default).
//!
//! A language is a BCP 47 tag as the list writes it (`fr`, `fr-CA`): what `<html lang>`,
//! `Content-Language` and hreflang say. It sits in a URL as its segment, the tag in small
//! letters (`/fr-ca/`). A regional variant names its parent (`fr-CA` → `fr`): a message it
//! lacks is its parent's, then the default language's (its chain).
//!
//! The list is a site's value ([`Languages`], read from its build, shared by what serves
//! the site and freed with it), not the process's: two sites in one process have a list
//! each. A [`Language`] is a small copyable value of its own, its place in its list and its
//! tag: what a request carries from its path to its page. What else the list says of it
//! (its name, its locale, its parent) is asked of the list.

use std::sync::Arc;

use serde::Deserialize;

/// What the list says of one language.
#[derive(Deserialize)]
pub struct LanguageInfo {
    code: String,
    /// The BCP 47 locale (fr-FR).
    locale: String,
    /// The language's own name for itself (Français).
    name: String,
    /// Which way its text runs.
    direction: Direction,
    /// The language a regional variant inherits from (`fr` for `fr-CA`).
    #[serde(default)]
    parent: Option<String>,
    /// Whether the build refuses a message it lacks (the app's to read).
    #[serde(default)]
    #[allow(dead_code)]
    complete: bool,
    /// Its place in the declared list, set once the list is read.
    #[serde(skip)]
    index: usize,
    /// Its URL segment: the tag in small letters.
    #[serde(skip)]
    segment: String,
    /// Its parent's place in the list.
    #[serde(skip)]
    parent_index: Option<usize>,
    /// `fr-FR, fr;q=0.9`: what an API is asked in for a page in this language.
    #[serde(skip, default = "no_accept_language")]
    accept_language: axum::http::HeaderValue,
}

impl LanguageInfo {
    /// The BCP 47 locale: `fr-FR`.
    pub fn locale(&self) -> &str {
        &self.locale
    }

    /// Its own name for itself: `Français`.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The locale as Open Graph writes it: `fr_FR`.
    pub fn og_locale(&self) -> String {
        self.locale.replace('-', "_")
    }

    /// What an API is asked in (`Accept-Language`) for a page in this language.
    pub fn accept_language(&self) -> &axum::http::HeaderValue {
        &self.accept_language
    }
}

/// Which way a language's text runs: `<html dir>`, and the app's logical styles, follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Ltr,
    Rtl,
}

fn no_accept_language() -> axum::http::HeaderValue {
    axum::http::HeaderValue::from_static("")
}

/// `languages.json`: a site's list.
#[derive(Deserialize)]
pub struct LanguageList {
    /// The list as it was read (`languages.json`'s value), to tell a new one from it.
    #[serde(skip)]
    source: serde_json::Value,
    default: String,
    /// The cookie that keeps the visitor's choice.
    cookie: String,
    languages: Vec<LanguageInfo>,
}

impl std::fmt::Debug for LanguageList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let codes: Vec<&str> = self.languages.iter().map(|l| l.code.as_str()).collect();
        f.debug_struct("LanguageList")
            .field("default", &self.default)
            .field("languages", &codes)
            .finish()
    }
}

fn read_declared(json: &str) -> Result<LanguageList, String> {
    let mut declared: LanguageList =
        serde_json::from_str(json).map_err(|e| format!("languages.json: {e}"))?;
    if declared.languages.is_empty() {
        return Err("languages.json declares no language".into());
    }
    if declared.languages.len() > usize::from(u8::MAX) {
        return Err(format!(
            "languages.json declares {} languages, more than the {} a site may have",
            declared.languages.len(),
            u8::MAX
        ));
    }
    for (index, language) in declared.languages.iter_mut().enumerate() {
        if !is_language_tag(&language.code) {
            return Err(format!(
                "languages.json: {:.40?} is not a language tag (BCP 47: `fr`, `fr-CA`, `pt-BR`, `zh-Hant`)",
                language.code
            ));
        }
        language.index = index;
        language.segment = language.code.to_ascii_lowercase();
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
    for index in 0..declared.languages.len() {
        let (code, segment) = {
            let language = &declared.languages[index];
            (language.code.clone(), language.segment.clone())
        };
        if declared.languages[..index]
            .iter()
            .any(|other| other.segment == segment)
        {
            return Err(format!("languages.json: {code:?} is listed twice"));
        }
        let Some(parent) = declared.languages[index].parent.clone() else {
            continue;
        };
        let parent_index = declared
            .languages
            .iter()
            .position(|other| other.code == parent)
            .ok_or_else(|| {
                format!("languages.json: {code:?} names the parent {parent:?}, which is not one of the languages")
            })?;
        declared.languages[index].parent_index = Some(parent_index);
    }
    for start in 0..declared.languages.len() {
        let mut at = start;
        for _ in 0..=declared.languages.len() {
            match declared.languages[at].parent_index {
                Some(parent) => at = parent,
                None => break,
            }
            if at == start {
                return Err(format!(
                    "languages.json: {:?} is its own parent, through its parents",
                    declared.languages[start].code
                ));
            }
        }
    }
    match declared
        .languages
        .iter()
        .find(|l| l.code == declared.default)
    {
        None => {
            return Err(format!(
                "languages.json: the default {:?} is not one of the languages",
                declared.default
            ));
        }
        Some(default) if default.parent.is_some() => {
            return Err(format!(
                "languages.json: the default {:?} has a parent: every message is its own, and the others fall back to it",
                declared.default
            ));
        }
        Some(_) => {}
    }
    Ok(declared)
}

/// `fr`, `ast`, `fr-CA`, `pt-BR`, `zh-Hant`, `es-419`: a primary subtag of two or three
/// letters, then subtags of two to eight letters or digits (what a URL segment, a cookie
/// and a header hold as they are).
pub fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let primary = parts.next().unwrap_or_default();
    (2..=3).contains(&primary.len())
        && primary.bytes().all(|b| b.is_ascii_alphabetic())
        && parts.all(|sub| {
            (2..=8).contains(&sub.len()) && sub.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// A site's languages: its list, its default, its cookie's name. Shared, cheap to clone.
#[derive(Clone)]
pub struct Languages(Arc<LanguageList>);

impl std::fmt::Debug for Languages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.all()).finish()
    }
}

impl PartialEq for Languages {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for Languages {}

impl Languages {
    /// The list `json` declares (the shape of `languages.json`), checked.
    pub fn read(json: &str) -> Result<Self, String> {
        let mut list = read_declared(json)?;
        list.source = serde_json::from_str(json).map_err(|e| format!("languages.json: {e}"))?;
        Ok(Self(Arc::new(list)))
    }

    pub fn all(&self) -> impl Iterator<Item = Language> + '_ {
        self.0.languages.iter().map(Language::of)
    }

    pub fn default_language(&self) -> Language {
        self.by_code(&self.0.default)
            .expect("checked when the list is read")
    }

    /// The language whose tag is `code`, as the list writes it.
    pub fn by_code(&self, code: &str) -> Option<Language> {
        self.all().find(|l| l.code() == code)
    }

    /// The language whose tag is `tag` in any case (BCP 47 tags are case-insensitive:
    /// `fr-ca` is `fr-CA`), as a browser or a cookie may write it.
    pub fn by_tag(&self, tag: &str) -> Option<Language> {
        self.all().find(|l| l.code().eq_ignore_ascii_case(tag))
    }

    /// The language whose URL segment is `segment` (`fr-ca`), exactly.
    pub fn by_segment(&self, segment: &str) -> Option<Language> {
        self.all().find(|l| l.segment() == segment)
    }

    /// Whether `declared` (a build's `languages.json`) is the list these were read from.
    pub fn declared_by(&self, declared: &serde_json::Value) -> bool {
        self.0.source == *declared
    }

    /// How many languages the site has.
    pub fn count(&self) -> usize {
        self.0.languages.len()
    }

    /// The cookie the app writes when the visitor changes language.
    pub fn cookie_name(&self) -> &str {
        &self.0.cookie
    }

    /// What the list says of `language` (one of its own).
    pub fn info(&self, language: Language) -> &LanguageInfo {
        &self.0.languages[language.index()]
    }

    /// The language a regional variant inherits from; none for a language of its own.
    pub fn parent(&self, language: Language) -> Option<Language> {
        let parent = self.info(language).parent_index?;
        Some(Language::of(&self.0.languages[parent]))
    }

    /// The languages a message is looked for in: `language`, its parents, then the default.
    pub fn chain(&self, language: Language) -> impl Iterator<Item = Language> + '_ {
        let default = self.default_language();
        let mut next = Some(language);
        std::iter::from_fn(move || {
            let current = next?;
            next = (current != default).then(|| self.parent(current).unwrap_or(default));
            Some(current)
        })
    }
}

/// The longest language tag (`is_language_tag`: three letters, a dash, eight more).
const TAG_AT_MOST: usize = 12;

/// A tag held in place, so that a [`Language`] is a value of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Tag {
    bytes: [u8; TAG_AT_MOST],
    len: u8,
}

impl Tag {
    fn of(tag: &str) -> Self {
        let mut bytes = [0; TAG_AT_MOST];
        bytes[..tag.len()].copy_from_slice(tag.as_bytes());
        Self {
            bytes,
            len: tag.len() as u8,
        }
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).expect("an ASCII tag")
    }
}

/// A site's language: its place in its site's list and its tag, cheap to copy and compare.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Language {
    index: u8,
    code: Tag,
    segment: Tag,
}

impl std::fmt::Debug for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Language({})", self.code())
    }
}

impl std::hash::Hash for Language {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

impl serde::Serialize for Language {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl Language {
    fn of(info: &LanguageInfo) -> Self {
        Self {
            index: info.index as u8,
            code: Tag::of(&info.code),
            segment: Tag::of(&info.segment),
        }
    }

    /// Its BCP 47 tag, as the list writes it (`fr-CA`).
    pub fn code(&self) -> &str {
        self.code.as_str()
    }

    /// Its URL segment: the tag in small letters (`fr-ca`).
    pub fn segment(&self) -> &str {
        self.segment.as_str()
    }

    /// This language's place in the declared list, from 0 to `count() - 1`.
    pub fn index(self) -> usize {
        usize::from(self.index)
    }
}

/// The demo's list (`app/i18n/languages.json`), read once: what unit tests serve.
#[cfg(test)]
pub fn demo() -> Languages {
    static DEMO: std::sync::OnceLock<Languages> = std::sync::OnceLock::new();
    DEMO.get_or_init(|| {
        Languages::read(include_str!("../app/i18n/languages.json")).expect("the demo's list")
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(code: &str) -> Language {
        demo().by_code(code).unwrap()
    }

    /// A failed assertion on a language shows it: a derived Debug followed a language's
    /// link back to its list, and the list's to the language, until the stack overflowed.
    #[test]
    fn a_language_and_its_list_show_as_their_codes() {
        assert_eq!(format!("{:?}", lang("fr")), "Language(fr)");
        assert_eq!(format!("{:?}", Some(lang("en"))), "Some(Language(en))");
        assert_eq!(format!("{:?}", demo()), "[Language(fr), Language(en)]");
    }

    /// A language is a value of its own: it outlives its list, which goes with the last
    /// of its site's holders; nothing of a site stays in the process after it.
    #[test]
    fn a_language_is_a_value_of_its_own_and_a_list_goes_with_its_site() {
        let list = Languages::read(include_str!("../app/i18n/languages.json")).unwrap();
        let held = Arc::downgrade(&list.0);
        let (fr, en) = (list.by_code("fr").unwrap(), list.by_code("en").unwrap());
        let other = Languages::read(
            r#"{"default":"en","cookie":"c","languages":[
                {"code":"en","locale":"en-GB","name":"English","direction":"ltr"},
                {"code":"ar","locale":"ar-EG","name":"العربية","direction":"rtl"}]}"#,
        )
        .unwrap();
        assert_ne!(other.by_code("en"), Some(en), "its place in its own list");
        assert_eq!(
            other.info(other.by_code("ar").unwrap()).direction(),
            Direction::Rtl
        );
        drop(list);
        assert!(held.upgrade().is_none(), "the list is freed with its site");
        assert_eq!((fr.code(), fr.segment(), fr.index()), ("fr", "fr", 0));
        assert!(std::mem::size_of::<Language>() <= 32);
    }

    #[test]
    fn an_api_is_asked_in_the_pages_language() {
        let info = |code: &str| demo().info(lang(code)).accept_language().clone();
        assert_eq!(info("fr"), "fr-FR, fr;q=0.9");
        assert_eq!(info("en"), "en-US, en;q=0.9");
    }

    #[test]
    fn each_language_says_its_name_and_direction() {
        let demo = demo();
        assert_eq!(demo.info(lang("fr")).name(), "Français");
        assert_eq!(demo.info(lang("en")).locale(), "en-US");
        assert_eq!(demo.info(lang("en")).direction(), Direction::Ltr);
    }

    #[test]
    fn french_is_the_default() {
        assert_eq!(demo().default_language().code(), "fr");
        assert_eq!(demo().cookie_name(), "bilingue_lang");
    }

    /// A list with a variant and a partial language, as the docs add them.
    fn with_variants() -> LanguageList {
        read_declared(
            r#"{"default":"fr","cookie":"c","languages":[
                {"code":"fr","locale":"fr-FR","name":"Français","direction":"ltr"},
                {"code":"en","locale":"en-US","name":"English","direction":"ltr"},
                {"code":"fr-CA","locale":"fr-CA","name":"Français (Canada)","direction":"ltr","parent":"fr"},
                {"code":"en-GB","locale":"en-GB","name":"English (UK)","direction":"ltr","parent":"en"},
                {"code":"de","locale":"de-DE","name":"Deutsch","direction":"ltr"}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn a_variant_sits_in_urls_in_small_letters_and_inherits_along_its_chain() {
        let declared = with_variants();
        let fr_ca = &declared.languages[2];
        assert_eq!(
            (fr_ca.code.as_str(), fr_ca.segment.as_str()),
            ("fr-CA", "fr-ca")
        );
        assert_eq!(fr_ca.parent_index, Some(0));
        assert_eq!(declared.languages[3].parent_index, Some(1));
        assert_eq!(declared.languages[4].parent_index, None);
        // The chain of the built-in list's languages: itself, then the default.
        let demo = demo();
        let chain = |code: &str| {
            let codes = demo.chain(lang(code)).map(|l| l.code().to_owned());
            codes.collect::<Vec<_>>()
        };
        assert_eq!(chain("en"), ["en", "fr"]);
        assert_eq!(chain("fr"), ["fr"]);
        assert_eq!(demo.by_tag("EN"), demo.by_code("en"));
        assert_eq!(demo.by_code("EN"), None);
        assert_eq!(demo.by_segment("en"), demo.by_code("en"));
        assert_eq!(
            demo.by_segment("EN"),
            None,
            "a URL's segment is in small letters"
        );
    }

    #[test]
    fn variants_that_cannot_be_served_are_refused_with_their_reason() {
        let list = |languages: &str| {
            read_declared(&format!(
                r#"{{"default":"fr","cookie":"c","languages":[{languages}]}}"#
            ))
        };
        let fr = r#"{"code":"fr","locale":"fr-FR","name":"F","direction":"ltr"}"#;
        for (languages, why) in [
            (format!(r#"{fr},{{"code":"fr-CA","locale":"fr-CA","name":"C","direction":"ltr","parent":"fr-BE"}}"#), "names the parent \"fr-BE\""),
            (format!(r#"{fr},{{"code":"a-b","locale":"fr-CA","name":"C","direction":"ltr"}}"#), "is not a language tag"),
            (format!(r#"{fr},{{"code":"fr/ca","locale":"fr-CA","name":"C","direction":"ltr"}}"#), "is not a language tag"),
            (format!(r#"{fr},{{"code":"FR","locale":"fr-FR","name":"C","direction":"ltr"}}"#), "listed twice"),
            (
                r#"{"code":"fr","locale":"fr-FR","name":"F","direction":"ltr","parent":"en"},{"code":"en","locale":"en-US","name":"E","direction":"ltr"}"#.to_string(),
                "the default \"fr\" has a parent",
            ),
            (
                format!(r#"{fr},{{"code":"en","locale":"en-US","name":"E","direction":"ltr","parent":"en-GB"}},{{"code":"en-GB","locale":"en-GB","name":"G","direction":"ltr","parent":"en"}}"#),
                "is its own parent",
            ),
        ] {
            let error = list(&languages).unwrap_err();
            assert!(error.contains(why), "{languages}: {error}");
        }
    }

    /// A language's place in its list is a byte: a longer list is refused at start-up.
    #[test]
    fn a_list_of_more_languages_than_a_site_may_have_is_refused() {
        let list = |count: usize| {
            let languages: Vec<String> = (0..count)
                .map(|i| {
                    let code = format!(
                        "x{}{}",
                        (b'a' + (i / 26) as u8) as char,
                        (b'a' + (i % 26) as u8) as char
                    );
                    format!(
                        r#"{{"code":"{code}","locale":"{code}","name":"{code}","direction":"ltr"}}"#
                    )
                })
                .collect();
            format!(
                r#"{{"default":"xaa","cookie":"c","languages":[{}]}}"#,
                languages.join(",")
            )
        };
        assert!(read_declared(&list(255)).is_ok());
        let error = read_declared(&list(256)).unwrap_err();
        assert!(
            error.contains("256 languages, more than the 255"),
            "{error}"
        );
    }

    #[test]
    fn a_list_that_cannot_be_served_is_refused_with_its_reason() {
        let no_default = r#"{"default":"de","cookie":"c","languages":[{"code":"fr","locale":"fr-FR","name":"F","direction":"ltr"}]}"#;
        assert!(read_declared(no_default).unwrap_err().contains("\"de\""));
        let empty = r#"{"default":"fr","cookie":"c","languages":[]}"#;
        assert!(read_declared(empty).unwrap_err().contains("no language"));
        assert!(read_declared("{").is_err());
        let no_direction = r#"{"default":"fr","cookie":"c","languages":[{"code":"fr","locale":"fr-FR","name":"F"}]}"#;
        assert!(
            read_declared(no_direction)
                .unwrap_err()
                .contains("direction")
        );
        let sideways = no_direction.replace(r#""name":"F""#, r#""name":"F","direction":"ttb""#);
        assert!(read_declared(&sideways).unwrap_err().contains("ttb"));
    }
}
