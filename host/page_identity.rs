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

use crate::lang::Language;
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
    /// Its path in each language, without the prefix and as a URL writes it
    /// (`/langues/en` in French, `/languages/en` in English): the host's alone.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    paths: Paths,
}

/// A page's path in each language: one for all (a page of no route), or one per language
/// by [`Language::index`], shared by every request for a route without parameters (made
/// once, with the route table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paths {
    Same(Arc<str>),
    Each(Arc<[Box<str>]>),
}

impl Default for Paths {
    fn default() -> Self {
        Paths::Same("/".into())
    }
}

impl Paths {
    fn all(&self) -> impl Iterator<Item = &str> {
        let (same, each) = match self {
            Paths::Same(path) => (Some(&**path), &[][..]),
            Paths::Each(paths) => (None, &paths[..]),
        };
        same.into_iter().chain(each.iter().map(|path| &**path))
    }
}

/// The longest route name (a purge key is at most 64 bytes, `route-` included).
const NAME_AT_MOST: usize = 58;

impl PageIdentity {
    /// The page of the route `route`, its parameters `params` (decoded), at `paths` in
    /// each language (by [`Language::index`]).
    pub fn of_route(
        language: Option<Language>,
        route: Arc<str>,
        params: BTreeMap<String, String>,
        paths: Arc<[Box<str>]>,
    ) -> Self {
        Self {
            language,
            route: Some(route),
            params,
            paths: Paths::Each(paths),
        }
    }

    /// A page no route of the table names, at `path` in every language (what the host
    /// takes a page to be when the table cannot say more).
    pub fn at(language: Option<Language>, path: &str) -> Self {
        Self {
            language,
            route: None,
            params: BTreeMap::new(),
            paths: Paths::Same(path.into()),
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
        self.paths.all().all(|path| path.len() <= PAGE_PATH_AT_MOST)
    }

    /// The page's path in `language`, without the prefix (the table writes one in each).
    pub fn path_in(&self, language: Language) -> &str {
        match &self.paths {
            Paths::Same(path) => path,
            Paths::Each(paths) => paths.get(language.index()).map_or("/", |path| path),
        }
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
            ..Self::at(None, path)
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
            [Box::from("/langues/en"), Box::from("/languages/en")].into(),
        );
        assert_eq!(
            serde_json::to_string(&page).unwrap(),
            r#"{"route":"languages","params":{"code":"en"}}"#
        );
        let none = PageIdentity::at(None, "/x");
        assert_eq!(
            serde_json::to_string(&none).unwrap(),
            r#"{"route":null,"params":{}}"#
        );
    }
}
