//! The texts the host writes itself, in each language: the answer to a page that could not
//! be made, a crawler's "come back later", the 500 page, and the title and description of
//! a page the host could not render (the home page's). They are the app's: the `host.` keys
//! of its translation tables (and the home route's title and description), which the build
//! checks with the others and writes into the manifest per language, so a language added
//! to the app has them too.

use std::collections::HashMap;

use serde::Deserialize;

use crate::lang::{Language, Languages};

/// One language's texts, as the manifest has them (read strictly).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HostTexts {
    /// A page that could not be made (500, plain text).
    pub server_error: String,
    /// To a crawler whose page could not be rendered (503, plain text).
    pub come_back_later: String,
    /// The 500 page's title, which is its heading too.
    pub error_page_title: String,
    /// The 500 page's text.
    pub error_page_text: String,
    /// The title of a page the host could not render (the client-rendered page): the home
    /// page's, which the build reads from the tables.
    pub stand_in_title: String,
    /// Its description, the home page's as well.
    pub stand_in_description: String,
}

/// Every language's texts.
#[derive(Debug)]
pub struct Texts {
    languages: Languages,
    /// By [`Language::index`].
    texts: Vec<HostTexts>,
}

impl Texts {
    /// From the manifest's texts by language code: every language has its own.
    pub fn new(
        languages: &Languages,
        by_code: &HashMap<String, HostTexts>,
    ) -> Result<Self, String> {
        languages
            .all()
            .map(|language| {
                by_code.get(language.code()).cloned().ok_or_else(|| {
                    format!(
                        "the manifest has no host texts for {:?} (its table, app/i18n/tables/{}.ts)",
                        language.code(),
                        language.code()
                    )
                })
            })
            .collect::<Result<_, _>>()
            .map(|texts| Self {
                languages: languages.clone(),
                texts,
            })
    }

    pub fn of(&self, language: Language) -> &HostTexts {
        &self.texts[language.index()]
    }

    /// The languages they are in: the site's.
    pub fn languages(&self) -> &Languages {
        &self.languages
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::EMBEDDED;

    fn lang(code: &str) -> Language {
        crate::lang::demo().by_code(code).unwrap()
    }

    #[test]
    fn each_language_has_its_own_texts_from_its_table() {
        let texts = Texts::new(&crate::lang::demo(), &EMBEDDED.host_texts).unwrap();
        assert_eq!(texts.of(lang("fr")).error_page_title, "Erreur du serveur");
        assert_eq!(texts.of(lang("en")).error_page_title, "Server error");
        assert_eq!(
            texts.of(lang("en")).come_back_later,
            "The service is briefly unavailable; try again later."
        );
    }

    #[test]
    fn a_language_without_its_texts_is_refused_by_name() {
        let mut by_code = EMBEDDED.host_texts.clone();
        by_code.remove("en");
        let error = Texts::new(&crate::lang::demo(), &by_code).unwrap_err();
        assert!(
            error.contains("\"en\"") && error.contains("tables/en.ts"),
            "{error}"
        );
    }
}
