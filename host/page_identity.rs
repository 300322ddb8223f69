//! Which page a request is, from the request to the purge keys, in one value: the
//! language it is asked in, its route, its parameters, and its path in every language.
//! The host's route table says it (`manifest`, its routes' forms included), once the page
//! cache has no page for the request (`pages::request`, `Asked::identify`; a kept page
//! keeps its own); the render is handed it in the boot state, and the
//! app renders that route with those parameters (`app/bootMatch.ts`), on the
//! server and in the browser it hydrates, so no second matcher decides which page it is.
//! A bundle whose routes the table does not know (`--server-bundle`) is handed none and
//! matches its own. The not-found page names no route.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::lang::{Language, Languages};
use crate::url_path::PAGE_PATH_AT_MOST;

/// What a page is. The host writes the page's links (canonical, alternates, the `Link`
/// header), its preloads and its purge keys from it, keeps it with the page, and hands the
/// render its route and parameters (all the app needs: it writes its links from them).
/// (What the page's data named for a purge comes from its loader's calls, beside it:
/// `data_keys`.)
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PageIdentity {
    /// The site's language it is asked in: its purge keys' `lang-`. None for the way from
    /// a path without a prefix, and under a prefix the site does not offer.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    language: Option<Language>,
    /// Its route's name in `app/routes.ts` (`languages`); `null` for the not-found page
    /// (and a page of a bundle whose routes the table does not know).
    #[cfg_attr(test, ts(type = "string | null"))]
    route: Option<Arc<str>>,
    /// Its route's parameters, decoded (`{ "code": "en" }`).
    #[cfg_attr(test, ts(type = "Record<string, string>"))]
    params: BTreeMap<String, String>,
    /// Its path in each language, by language code, without the prefix and as a URL writes
    /// it (`{ "fr": "/langues/en", "en": "/languages/en" }`): the host's alone.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    paths: BTreeMap<String, String>,
}

/// The longest route name (a purge key is at most 64 bytes, `route-` included).
const NAME_AT_MOST: usize = 58;

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
    pub fn at(language: Option<Language>, languages: &Languages, path: &str) -> Self {
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

    /// The same page, asked in `language`.
    #[cfg(test)]
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
    #[cfg(test)]
    pub fn params(&self) -> &BTreeMap<String, String> {
        &self.params
    }

    /// Whether each of its paths is no longer than a page's path may be
    /// (`url_path::PAGE_PATH_AT_MOST`): its links may name it.
    pub fn fits(&self) -> bool {
        self.paths
            .values()
            .all(|path| path.len() <= PAGE_PATH_AT_MOST)
    }

    /// The page's path in `language`, without the prefix (the table writes one in each).
    pub fn path_in(&self, language: Language) -> &str {
        self.paths.get(language.code()).map_or("/", String::as_str)
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
            ..Self::at(None, &crate::lang::demo(), path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_render_is_handed_a_pages_route_and_parameters_not_its_paths() {
        let page = PageIdentity::of_route(
            None,
            "languages".into(),
            [("code".to_string(), "en".to_string())].into(),
            [("fr".to_string(), "/langues/en".to_string())].into(),
        );
        assert_eq!(
            serde_json::to_string(&page).unwrap(),
            r#"{"route":"languages","params":{"code":"en"}}"#
        );
        let none = PageIdentity::at(None, &crate::lang::demo(), "/x");
        assert_eq!(
            serde_json::to_string(&none).unwrap(),
            r#"{"route":null,"params":{}}"#
        );
    }
}
