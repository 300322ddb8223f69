//! The route table: the routes the app declares, by which the host reads a path before
//! any render (which page of which route, or a page in another language's words, or none).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::DeclaredRoute;
use super::forms::Forms;
use crate::lang::{Language, Languages};
use crate::page_identity::PageIdentity;
use crate::url_path::{component, decodes, percent_decoded, segment_problem};

/// The routes the app declares, each with its pattern per language, in the order the app's
/// router tries them (`matchRoute`, app/data/router.ts). The host reads a path with them
/// before any render: whether it is a page of its language, or of another language's
/// words (then redirected to its own path), and which route's; and a path starting with a
/// route's first segment, in any language, is the app's, never a language prefix, however
/// much it looks like a language tag (`/faq`, `/cgu`).
#[derive(Debug, Clone)]
pub struct AppRoutes {
    languages: Languages,
    /// `None`: a bundle other than the build's renders the pages (`--server-bundle`), and
    /// the manifest cannot say which paths it takes.
    routes: Option<Vec<AppRoute>>,
    first_segments: HashSet<String>,
    /// By [`Language::index`]: each path that is a route's whole pattern there (no
    /// parameter) and that no route before it takes, with that route's place in `routes`.
    /// Such a path is read with one look-up, where the others try route after route.
    fixed: Vec<HashMap<Box<str>, usize>>,
}

#[derive(Debug, Clone)]
struct AppRoute {
    name: Arc<str>,
    /// By [`Language::index`].
    patterns: Vec<String>,
    /// Its path in each language when it has no parameter (its patterns): made once, and
    /// shared by every page of it.
    paths: Option<Arc<[Box<str>]>>,
    forms: Forms,
    loads: bool,
}

/// What a path without its prefix is in a language, as the manifest says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// A page of this language's words (the app may still find none there: its loader's
    /// 404); `loads`: its route has a loader.
    Here { loads: bool },
    /// In another language's words only: the page whose path in this language is another.
    Elsewhere,
    /// No route takes it: certainly no page.
    Nowhere,
    /// Another bundle renders the pages: any path may be one.
    Unknown,
}

impl AppRoutes {
    /// Fails when a route has no path in one of `languages`.
    pub fn new(languages: &Languages, declared: &[DeclaredRoute]) -> Result<Self, String> {
        let routes = declared
            .iter()
            .map(|route| {
                let patterns = route.patterns(languages)?;
                let paths = (!patterns.iter().any(|pattern| has_parameter(pattern))).then(|| {
                    patterns
                        .iter()
                        .map(|pattern| pattern.as_str().into())
                        .collect()
                });
                Ok(AppRoute {
                    name: route.name.as_str().into(),
                    patterns,
                    paths,
                    forms: Forms::new(&route.name, &route.params)?,
                    loads: route.loads,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let first_segments = routes
            .iter()
            .flat_map(|route| &route.patterns)
            .filter_map(|pattern| pattern.split('/').nth(1))
            .filter(|first| !first.is_empty() && !first.starts_with(':'))
            .map(str::to_owned)
            .collect();
        let fixed = languages
            .all()
            .map(|language| fixed_paths(&routes, language.index()))
            .collect();
        Ok(Self {
            languages: languages.clone(),
            routes: Some(routes),
            first_segments,
            fixed,
        })
    }

    /// The route that takes `path` in the language of `index` when `path` is one of the
    /// fixed paths (see the field): the one the routes tried in turn would find.
    fn fixed(&self, routes: &[AppRoute], index: usize, path: &str) -> Option<usize> {
        let found = *self.fixed.get(index)?.get(path)?;
        debug_assert!(routes[found].params(index, path).is_some());
        Some(found)
    }

    /// No route at all: any path may be a page, no first segment is a route's.
    #[cfg(test)]
    pub fn none(languages: Languages) -> Self {
        Self {
            languages,
            routes: None,
            first_segments: HashSet::new(),
            fixed: Vec::new(),
        }
    }

    /// The same first segments, for a bundle whose routes the manifest does not know:
    /// every path may be one of its pages.
    pub fn of_another_bundle(self) -> Self {
        Self {
            routes: None,
            ..self
        }
    }

    /// The languages whose patterns it holds: its site's.
    pub fn languages(&self) -> &Languages {
        &self.languages
    }

    pub fn routes(&self, segment: &str) -> bool {
        self.first_segments.contains(segment)
    }

    /// What `path` (without its prefix) is in `language`: a page of one of its routes there,
    /// a page in another language's words, or none. Its patterns are matched as the app's
    /// router matches them: segment by segment, a parameter taking any non-empty segment
    /// that can name something (`url_path`) and is of its route's form, if it declares one
    /// (`forms`).
    pub fn find(&self, language: Language, path: &str) -> Found {
        let Some(routes) = &self.routes else {
            return Found::Unknown;
        };
        if let Some(found) = self.fixed(routes, language.index(), path) {
            return Found::Here {
                loads: routes[found].loads,
            };
        }
        if let Some(route) = routes
            .iter()
            .find(|route| route.params(language.index(), path).is_some())
        {
            return Found::Here { loads: route.loads };
        }
        match self.read_in_another(routes, language, path) {
            Some(_) => Found::Elsewhere,
            None => Found::Nowhere,
        }
    }

    /// The page `path` (without a prefix) names, asked in `asked_in`: the page of the
    /// first route that takes it in `first`'s words, else in another language's (the
    /// first route, then the first language, that takes it), at its path in each language
    /// (the route's pattern there, its parameters decoded and written again as the app
    /// writes them); else a page of no route, at `path` in every language.
    pub fn page(&self, asked_in: Option<Language>, first: Language, path: &str) -> PageIdentity {
        let read = self.routes.as_ref().and_then(|routes| {
            if let Some(found) = self.fixed(routes, first.index(), path) {
                return Some((&routes[found], Vec::new()));
            }
            routes
                .iter()
                .find_map(|route| Some((route, route.params(first.index(), path)?)))
                .or_else(|| self.read_in_another(routes, first, path))
        });
        let Some((route, params)) = read else {
            return PageIdentity::at(asked_in, path);
        };
        if let (Some(paths), true) = (&route.paths, params.is_empty()) {
            return PageIdentity::of_route(
                asked_in,
                route.name.clone(),
                BTreeMap::new(),
                paths.clone(),
            );
        }
        // Each parameter decoded, and written again as the app writes it: its paths are
        // the app's links to it, whatever escapes the request came with.
        let decoded: Vec<(&str, String)> = params
            .iter()
            .map(|(name, segment)| (*name, decoded(segment).into_owned()))
            .collect();
        let written: Vec<(&str, Cow<str>)> = decoded
            .iter()
            .map(|(name, value)| (*name, component(value)))
            .collect();
        let segment = |name: &str| {
            written
                .iter()
                .find(|(param, _)| *param == name)
                .map_or("", |(_, segment)| &**segment)
        };
        let paths = route
            .patterns
            .iter()
            .map(|pattern| filled(pattern, segment).into_boxed_str())
            .collect();
        let decoded = decoded
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect();
        PageIdentity::of_route(asked_in, route.name.clone(), decoded, paths)
    }

    /// The first route, then the first language other than `language`, that takes `path`.
    fn read_in_another<'a, 'p>(
        &self,
        routes: &'a [AppRoute],
        language: Language,
        path: &'p str,
    ) -> Option<(&'a AppRoute, Vec<(&'a str, &'p str)>)> {
        self.languages
            .all()
            .filter(|other| *other != language)
            .find_map(|other| {
                routes
                    .iter()
                    .find_map(|route| Some((route, route.params(other.index(), path)?)))
            })
    }
}

impl AppRoute {
    /// The parameters `path` gives this route in the language of `patterns[index]`, each
    /// (name, segment as the path wrote it) in the order of the pattern; none when the
    /// route does not take it.
    fn params<'a, 'p>(&'a self, index: usize, path: &'p str) -> Option<Vec<(&'a str, &'p str)>> {
        let pattern = &self.patterns[index];
        let (parts, segments) = (pattern.split('/'), path.split('/'));
        if parts.clone().count() != segments.clone().count() {
            return None;
        }
        let mut params = Vec::new();
        for (part, segment) in parts.zip(segments) {
            match part.strip_prefix(':') {
                Some(name)
                    if !segment.is_empty()
                        && decodes(segment)
                        && segment_problem(segment).is_none()
                        && self.forms.take(name, &decoded(segment)) =>
                {
                    params.push((name, segment));
                }
                None if part == segment => {}
                _ => return None,
            }
        }
        Some(params)
    }
}

/// A segment that decodes (`url_path::decodes`), decoded.
fn decoded(segment: &str) -> Cow<'_, str> {
    match segment.contains('%') {
        false => segment.into(),
        true => String::from_utf8(percent_decoded(segment))
            .expect("a segment that decodes")
            .into(),
    }
}

impl Found {
    /// Whether the page may wait for data: a page of a route with a loader, or any page of
    /// another bundle; not the not-found page, nor a page in another language's words (it
    /// is sent on to its own path).
    pub fn may_load(self) -> bool {
        match self {
            Found::Here { loads } => loads,
            Found::Elsewhere | Found::Nowhere => false,
            Found::Unknown => true,
        }
    }
}

/// `pattern` (`/langues/:code`) with each parameter's part written as `value` gives it.
/// Whether a route's pattern names a parameter (`:code`).
fn has_parameter(pattern: &str) -> bool {
    pattern.split('/').any(|part| part.starts_with(':'))
}

/// In the language of `index`, each route's pattern that names no parameter and that no
/// route before it takes (the routes are tried in order, and one before may take it with
/// a parameter), with the route's place.
fn fixed_paths(routes: &[AppRoute], index: usize) -> HashMap<Box<str>, usize> {
    let mut fixed = HashMap::new();
    for (place, route) in routes.iter().enumerate() {
        let pattern = route.patterns[index].as_str();
        let taken_before = routes[..place]
            .iter()
            .any(|before| before.params(index, pattern).is_some());
        if !has_parameter(pattern) && !taken_before {
            fixed.entry(pattern.into()).or_insert(place);
        }
    }
    fixed
}

pub fn filled<'v>(pattern: &str, mut value: impl FnMut(&str) -> &'v str) -> String {
    let mut path = String::with_capacity(pattern.len());
    for (i, part) in pattern.split('/').enumerate() {
        if i > 0 {
            path.push('/');
        }
        match part.strip_prefix(':') {
            Some(name) => path.push_str(value(name)),
            None => path.push_str(part),
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{EMBEDDED, declared_everywhere};

    fn lang(code: &str) -> Language {
        crate::lang::demo().by_code(code).unwrap()
    }

    /// `/`, `/status` the same in every language, and `/langues/:code` or `/languages/:code`
    /// (a language tag).
    fn translated() -> AppRoutes {
        let route = |name: &str, fr: &str, en: &str| DeclaredRoute {
            name: name.into(),
            paths: [("fr".to_string(), fr.to_string()), ("en".into(), en.into())].into(),
            params: match name {
                "languages" => [(
                    "code".into(),
                    r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$".into(),
                )]
                .into(),
                _ => Default::default(),
            },
            loads: name != "home",
        };
        AppRoutes::new(
            &crate::lang::demo(),
            &[
                route("home", "/", "/"),
                route("status", "/etat", "/status"),
                route("languages", "/langues/:code", "/languages/:code"),
            ],
        )
        .unwrap()
    }

    /// A path that is a route's whole pattern is read with one look-up, and still as the
    /// routes tried in order read it: a route before it that takes it with a parameter is
    /// the one that has it.
    #[test]
    fn a_fixed_path_goes_to_the_first_route_that_takes_it() {
        let route = |name: &str, fr: &str, en: &str, code: &str| DeclaredRoute {
            name: name.into(),
            paths: [("fr".to_string(), fr.to_string()), ("en".into(), en.into())].into(),
            params: [("code".to_string(), code.to_string())].into(),
            loads: true,
        };
        let routes = AppRoutes::new(
            &crate::lang::demo(),
            &[
                // Takes `/monde` and `/carte` as a code of five letters, in French only.
                route("code", "/:code", "/code/:code", "^[a-z]{5}$"),
                route("world", "/monde", "/world", ""),
                route("map", "/carte", "/map", ""),
                route("about", "/apropos", "/about", ""),
            ],
        )
        .unwrap();
        let (fr, en) = (lang("fr"), lang("en"));
        assert_eq!(routes.page(Some(fr), fr, "/monde").route(), Some("code"));
        assert_eq!(routes.page(Some(fr), fr, "/apropos").route(), Some("about"));
        assert_eq!(routes.page(Some(en), en, "/world").route(), Some("world"));
        assert_eq!(routes.page(Some(en), en, "/map").route(), Some("map"));
        let about = routes.page(Some(en), en, "/about");
        assert_eq!(
            (about.path_in(fr), about.path_in(en)),
            ("/apropos", "/about")
        );
        assert!(routes.fixed[fr.index()].contains_key("/apropos"));
        assert!(!routes.fixed[fr.index()].contains_key("/monde"));
        assert!(routes.fixed[en.index()].contains_key("/world"));
    }

    /// The cases the app's router is held to as well (`app/data/route-cases.json`): what a
    /// path without its prefix is in a language, by the app's own routes (the manifest's):
    /// its page here (the route and its parameters, decoded, as the router gives them), a
    /// page in another language's words (which), or none.
    #[test]
    fn the_host_and_the_app_read_the_same_paths_as_the_same_pages() {
        #[derive(serde::Deserialize)]
        struct Case {
            language: String,
            path: String,
            found: String,
            route: Option<String>,
            params: Option<BTreeMap<String, String>>,
        }
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../app/data/route-cases.json")).unwrap();
        assert!(cases.len() >= 30);
        let routes = AppRoutes::new(&crate::lang::demo(), &EMBEDDED.routes).unwrap();
        for case in cases {
            let language = lang(&case.language);
            let page = routes.page(Some(language), language, &case.path);
            let found = match routes.find(language, &case.path) {
                Found::Here { .. } => ("here", page.route(), Some(page.params().clone())),
                Found::Elsewhere => ("elsewhere", page.route(), None),
                Found::Nowhere => ("nowhere", None, None),
                Found::Unknown => ("unknown", None, None),
            };
            assert_eq!(
                found,
                (case.found.as_str(), case.route.as_deref(), case.params),
                "{} in {}",
                case.path,
                case.language
            );
        }
    }

    /// A parameter without a form takes any segment that names something, as the app's
    /// router does (app/data/params.test.ts reads the same cases).
    #[test]
    fn a_segment_that_names_nothing_is_no_page_of_a_route_without_a_form() {
        let segments: Vec<String> =
            serde_json::from_str(include_str!("../../app/data/unnameable-segments.json")).unwrap();
        let routes =
            AppRoutes::new(&crate::lang::demo(), &declared_everywhere(&["/x/:id"])).unwrap();
        for segment in segments {
            let path = format!("/x/{segment}");
            assert_eq!(routes.find(lang("fr"), &path), Found::Nowhere, "{path}");
        }
        // A parameter written again as the app writes it may be longer than a path may be:
        // such a page names no links.
        let long = format!("/x/{}", ":".repeat(2000));
        let page = routes.page(None, lang("fr"), &long);
        assert_eq!(page.path_in(lang("en")).len(), 3 + 6000);
        assert!(!page.fits());
        assert!(routes.page(None, lang("fr"), "/x/a:b").fits());
        for (segment, value) in [
            ("caf%C3%A9", "café"),
            ("a;b", "a;b"),
            ("%E2%84%AB", "\u{212B}"),
        ] {
            let path = format!("/x/{segment}");
            let page = routes.page(None, lang("fr"), &path);
            assert_eq!(page.params()["id"], value, "{path}");
        }
    }

    #[test]
    fn a_route_without_a_path_in_a_language_is_refused() {
        let lacking = DeclaredRoute {
            name: "status".into(),
            paths: [("fr".to_string(), "/etat".to_string())].into(),
            params: Default::default(),
            loads: true,
        };
        let error = AppRoutes::new(&crate::lang::demo(), &[lacking]).unwrap_err();
        assert!(error.contains("\"status\" has no path in en"), "{error}");
    }

    #[test]
    fn a_path_is_matched_as_the_apps_router_matches_it() {
        let routes = AppRoutes::same_in_every_language(&["/", "/status", "/languages/:code"]);
        for path in ["/", "/status", "/languages/en", "/languages/%C3%A9"] {
            assert!(
                matches!(routes.find(lang("fr"), path), Found::Here { .. }),
                "{path}"
            );
        }
        for path in [
            "",
            "/status/",
            "/languages/..",
            "/languages/%2e%2E",
            "/languages/en%2f",
            "/nowhere",
            "/languages/",
            "/languages/en/x",
            "/languages/%ff",
            "/languages/%zz",
            "/languages/%e",
            "//",
        ] {
            assert!(
                matches!(routes.find(lang("fr"), path), Found::Nowhere),
                "{path}"
            );
        }
        let another = routes.of_another_bundle();
        assert!(matches!(
            another.find(lang("fr"), "/nowhere"),
            Found::Unknown
        ));
    }

    #[test]
    fn a_path_in_another_languages_words_is_that_page_at_its_own_path() {
        let routes = translated();
        let (fr, en) = (lang("fr"), lang("en"));
        assert_eq!(routes.find(fr, "/languages/pt-BR"), Found::Elsewhere);
        let page = routes.page(Some(fr), fr, "/languages/pt-BR");
        assert_eq!(page.route(), Some("languages"));
        assert_eq!(page.path_in(fr), "/langues/pt-BR");
        assert_eq!(page.path_in(en), "/languages/pt-BR");
        assert_eq!(routes.find(en, "/etat"), Found::Elsewhere);
        assert_eq!(routes.page(Some(en), en, "/etat").path_in(en), "/status");
        // Its parameter decoded, and written again as the app writes it (encodeURIComponent).
        assert_eq!(
            routes.find(fr, "/langues/%C3%A9"),
            Found::Nowhere,
            "the route's form takes language tags only"
        );
        let page = routes.page(Some(fr), fr, "/langues/%65n-C%41");
        assert_eq!(
            page,
            PageIdentity::of_route(
                Some(fr),
                "languages".into(),
                [("code".to_string(), "en-CA".to_string())].into(),
                [Box::from("/langues/en-CA"), Box::from("/languages/en-CA")].into(),
            )
        );
        assert_eq!(routes.find(fr, "/"), Found::Here { loads: false });
        assert!(matches!(routes.find(en, "/status"), Found::Here { .. }));
        assert!(matches!(routes.find(fr, "/statut"), Found::Nowhere));
        assert_eq!(
            routes.page(None, fr, "/statut"),
            PageIdentity::at(None, "/statut")
        );
        assert!(routes.routes("etat") && routes.routes("status") && routes.routes("langues"));
        let found = routes.page(None, en, "/langues/fr");
        assert_eq!(found.path_in(en), "/languages/fr");
    }
}
