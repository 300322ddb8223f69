//! The supported languages: the one list in `app/i18n/languages.json`, which the app reads
//! too (the build embeds it; development mode reads the app's own copy), with the default
//! and the name of the cookie that keeps a visitor's choice. Which language a request gets
//! is read by `pages::request` (path prefix › saved choice › default).

use std::sync::OnceLock;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct LanguageInfo {
    code: String,
    /// The BCP 47 locale (fr-FR).
    locale: String,
    /// The language's own name for itself (Français).
    name: String,
    /// Which way its text runs.
    direction: Direction,
    /// Its place in the declared list, set once the list is read.
    #[serde(skip)]
    index: usize,
    /// `fr-FR, fr;q=0.9`: what an API is asked in for a page in this language.
    #[serde(skip, default = "no_accept_language")]
    accept_language: axum::http::HeaderValue,
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

    /// The BCP 47 locale: `fr-FR`.
    pub fn locale(self) -> &'static str {
        &self.0.locale
    }

    /// Its own name for itself: `Français`.
    pub fn name(self) -> &'static str {
        &self.0.name
    }

    pub fn direction(self) -> Direction {
        self.0.direction
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(code: &str) -> Language {
        Language::from_code(code).unwrap()
    }

    #[test]
    fn an_api_is_asked_in_the_pages_language() {
        assert_eq!(lang("fr").accept_language(), "fr-FR, fr;q=0.9");
        assert_eq!(lang("en").accept_language(), "en-US, en;q=0.9");
    }

    #[test]
    fn each_language_says_its_name_and_direction() {
        assert_eq!(lang("fr").name(), "Français");
        assert_eq!(lang("en").locale(), "en-US");
        assert_eq!(lang("en").direction(), Direction::Ltr);
    }

    #[test]
    fn french_is_the_default() {
        assert_eq!(Language::default_language().code(), "fr");
        assert_eq!(cookie_name(), "bilingue_lang");
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
