//! Which page a request is, from the request to the purge keys, in one value: the
//! language it is asked in, its route, its parameters, and its path in every language.
//! The route table says it for the ways to a page and for a page whose render failed
//! (`manifest`); the bundle says it for a page it rendered (a value of the contract,
//! `render::contract`, read strictly here): a route name that can be a purge key's, and a
//! path in every language the host serves, each one a URL path the host may write into a
//! link as it is (`url_path`); the not-found page names no route and no path (a page of a
//! bundle that declares no routes names no route, and every path). An identity that is
//! not one fails its render, as any unreadable result does. Paths no page can have never
//! reach the render (`url_path::page_path`), so a visitor's odd path makes the not-found
//! page, not a failed render.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;

use crate::lang::{Language, Languages, is_language_tag};
use crate::url_path::is_url_path;

/// What a page is. The host writes the page's links (canonical, alternates, the `Link`
/// header), its preloads and its purge keys from it, and keeps it with the page; it never
/// re-derives a page from its URL path. (What the page's data named for a purge comes from
/// its loader's calls, beside it: `data_keys`.)
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct PageIdentity {
    /// The site's language it is asked in: its purge keys' `lang-`. None for the way from
    /// a path without a prefix, and under a prefix the site does not offer. The bundle
    /// renders in the language it is asked and does not say it: the host does
    /// ([`PageIdentity::asked_in`]).
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    language: Option<Language>,
    /// Its route's name in `app/routes.ts` (`languages`); `null` for the not-found route (and
    /// a page of a bundle that declares none).
    #[cfg_attr(test, ts(type = "string | null"))]
    route: Option<Arc<str>>,
    /// Its route's parameters, decoded (`{ "code": "en" }`).
    #[cfg_attr(test, ts(type = "Record<string, string>"))]
    params: BTreeMap<String, String>,
    /// Its path in each language, by language code, without the prefix and as a URL writes
    /// it (`{ "fr": "/langues/en", "en": "/languages/en" }`); none for the not-found page.
    #[cfg_attr(test, ts(type = "Record<string, string>"))]
    paths: BTreeMap<String, String>,
}

/// The longest route name (a purge key is at most 64 bytes, `route-` included).
const NAME_AT_MOST: usize = 58;

/// Reads a page's identity, and checks its shape (`deserialize_with`); whether it has a
/// path in each of its site's languages is [`PageIdentity::problem_in`]'s to say, once the
/// render is back with the site that asked for it.
pub fn checked<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<PageIdentity, D::Error> {
    let identity = PageIdentity::deserialize(deserializer)?;
    identity.problem().map_or(Ok(identity), |problem| {
        Err(serde::de::Error::custom(format!(
            "the page's identity: {problem}"
        )))
    })
}

impl PageIdentity {
    /// The page of the route `route`, its parameters `params` (decoded), at `paths` in
    /// each language (by code).
    pub fn of_route(
        language: Option<Language>,
        route: Arc<str>,
        params: BTreeMap<String, String>,
        paths: BTreeMap<String, String>,
    ) -> Self {
        Self {
            language,
            route: Some(route),
            params,
            paths,
        }
    }

    /// A page no route of the table names, at `path` in each of `languages` (what the
    /// host takes a page to be when the table cannot say more).
    pub fn at(language: Option<Language>, languages: Languages, path: &str) -> Self {
        Self {
            language,
            route: None,
            params: BTreeMap::new(),
            paths: languages
                .all()
                .map(|language| (language.code().to_owned(), path.to_owned()))
                .collect(),
        }
    }

    /// The same page, asked in `language` (the bundle's identity, once the host knows
    /// under which of its languages the page answers).
    pub fn asked_in(self, language: Option<Language>) -> Self {
        Self { language, ..self }
    }

    /// The site's language it is asked in (see the field).
    pub fn language(&self) -> Option<Language> {
        self.language
    }

    /// Its route's name; none for the not-found page, or a page of another bundle.
    pub fn route(&self) -> Option<&str> {
        self.route.as_deref()
    }

    /// Its route's parameters, decoded.
    pub fn params(&self) -> &BTreeMap<String, String> {
        &self.params
    }

    /// The page's path in `language`, without the prefix (checked to be there).
    pub fn path_in(&self, language: Language) -> &str {
        self.paths.get(language.code()).map_or("/", String::as_str)
    }

    /// What makes it no page of the site whose languages are `languages`: a path in a
    /// language it does not serve, or none in one it serves.
    pub fn problem_in(&self, languages: Languages) -> Option<String> {
        if self.route.is_none() && self.paths.is_empty() {
            return None;
        }
        // The common answer first, in one lookup a language: as many paths as languages,
        // each language's there, leaves no room for another's.
        if self.paths.len() == languages.count()
            && languages
                .all()
                .all(|language| self.paths.contains_key(language.code()))
        {
            return None;
        }
        if let Some(extra) = self
            .paths
            .keys()
            .find(|code| languages.by_code(code).is_none())
        {
            return Some(format!(
                "a path in {extra:.20?}, a language the host does not serve"
            ));
        }
        languages
            .all()
            .find(|language| !self.paths.contains_key(language.code()))
            .map(|language| format!("no path in {}", language.code()))
    }

    fn problem(&self) -> Option<String> {
        match &self.route {
            // The not-found page: at no path.
            None if self.paths.is_empty() => return None,
            // Or a page of a bundle that declares no routes (`--server-bundle`): at its paths.
            None => {}
            Some(name) if !is_route_name(name) => {
                return Some(format!("{name:.80?} is no route name"));
            }
            Some(_) => {}
        }
        self.paths.iter().find_map(|(code, path)| {
            if !is_language_tag(code) {
                Some(format!("a path in {code:.20?}, which is no language tag"))
            } else if !is_url_path(path) {
                Some(format!("its path in {code}, {path:.80?}, is no URL path"))
            } else {
                None
            }
        })
    }
}

/// A route's name as the build allows it (`app/data/routeCheck.ts`): a word of ASCII
/// letters and digits, starting with a small letter.
pub fn is_route_name(name: &str) -> bool {
    name.len() <= NAME_AT_MOST
        && name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
impl PageIdentity {
    /// A page whose path is `path` in every language (tests' stand-in renderers, which
    /// the bundle's checks do not read).
    pub fn everywhere(route: Option<&str>, path: &str) -> Self {
        Self {
            route: route.map(Arc::from),
            ..Self::at(None, crate::lang::demo(), path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<PageIdentity, String> {
        #[derive(Deserialize)]
        struct Holder {
            #[serde(deserialize_with = "checked")]
            page: PageIdentity,
        }
        let page = serde_json::from_str::<Holder>(&format!(r#"{{"page":{json}}}"#))
            .map(|holder| holder.page)
            .map_err(|e| e.to_string())?;
        match page.problem_in(crate::lang::demo()) {
            Some(problem) => Err(problem),
            None => Ok(page),
        }
    }

    #[test]
    fn an_identity_names_a_route_and_a_path_in_every_language() {
        let identity = read(
            r#"{"route":"languages","params":{"code":"en"},"paths":{"fr":"/langues/en","en":"/languages/en"}}"#,
        )
        .unwrap();
        assert_eq!(identity.route(), Some("languages"));
        assert_eq!(
            identity.path_in(crate::lang::demo().by_code("fr").unwrap()),
            "/langues/en"
        );
        assert_eq!(
            identity.path_in(crate::lang::demo().by_code("en").unwrap()),
            "/languages/en"
        );
        let not_found = read(r#"{"route":null,"params":{},"paths":{}}"#);
        assert!(not_found.is_ok(), "{not_found:?}");
    }

    #[test]
    fn an_identity_the_host_could_not_write_as_it_is_is_refused() {
        for (json, why) in [
            (
                r#"{"route":"a b","params":{},"paths":{"fr":"/","en":"/"}}"#,
                "no route name",
            ),
            (
                r#"{"route":"Home","params":{},"paths":{"fr":"/","en":"/"}}"#,
                "no route name",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/"}}"#,
                "no path in en",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en":"/","de":"/"}}"#,
                "a language the host does not serve",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en":"//evil.example/"}}"#,
                "is no URL path",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en":"x"}}"#,
                "is no URL path",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en":"/a b"}}"#,
                "is no URL path",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en":"/a>"}}"#,
                "is no URL path",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en":"/a\\b"}}"#,
                "is no URL path",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en":"/%zz"}}"#,
                "is no URL path",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en":"/é"}}"#,
                "is no URL path",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en":"/"},"more":1}"#,
                "unknown field",
            ),
            (
                r#"{"route":"home","params":{},"paths":{"fr":"/","en/x":"/"}}"#,
                "no language tag",
            ),
            (
                r#"{"route":null,"params":{},"paths":{"fr":"/x"}}"#,
                "no path in en",
            ),
        ] {
            let error = read(json).unwrap_err();
            assert!(error.contains(why), "{json}: {error}");
        }
    }
}
