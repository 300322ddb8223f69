//! The build's contract with the host: `manifest.json`, which `app/bundle.mjs` writes from
//! esbuild's metafile and the app's own declarations (its languages, its routes with their
//! path in every language, its indexable pages by their parameters, the host's texts) and
//! which the host reads strictly: a field renamed or missing on either side fails every
//! start, and every test, at once. The release binary embeds the manifest of its build
//! (see `build.rs`); development mode reads each new build's from disk.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, LazyLock};

use serde::Deserialize;

use crate::lang::{Language, Languages};
use crate::page_identity::PageIdentity;
use crate::texts::HostTexts;
use crate::url_path::{component, decodes, percent_decoded, segment_problem};
use forms::Forms;

mod forms;
#[cfg(test)]
mod test_routes;
#[cfg(test)]
pub use test_routes::{app_page, declared_everywhere};

/// What the build says the host needs (written by `app/bundle.mjs`, `writeManifest`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Manifest {
    /// The client entry module.
    pub entry: String,
    pub css: Vec<String>,
    /// Chunks the entry imports statically.
    pub preload: Vec<String>,
    /// Per language code: the chunks of its module (its date locale and the first load's messages).
    pub language_chunks: HashMap<String, Vec<String>>,
    /// Per route name: the chunks of its screen beyond the first load (none for an eager one).
    pub route_chunks: HashMap<String, Vec<String>>,
    /// Per language code, then route name: the chunks of the route's own messages, its
    /// module first.
    pub message_chunks: HashMap<String, HashMap<String, Vec<String>>>,
    pub icon: String,
    /// When the app was built (RFC 3339): the sitemap's `lastmod`.
    pub built_at: String,
    /// The stamp of the contract the build was made with (`render::contract_stamp`).
    pub contract: String,
    /// Every route the app declares, in order: its name and its pattern in every language.
    pub routes: Vec<DeclaredRoute>,
    /// The pages the app declares indexable, route by route: each page once, by its
    /// parameters (the sitemap fills the route's pattern in every language with them).
    pub sitemap: Vec<SitemapRoute>,
    /// The crawler user agents (isbot's list).
    pub crawlers: CrawlerList,
    /// The texts the host writes itself, by language code (the tables' `host.` keys).
    pub host_texts: HashMap<String, HostTexts>,
    /// `languages.json`, as the build read it.
    pub declared: serde_json::Value,
    /// Development builds: the script that reloads the page and shows problems. Written
    /// by every build (`null` but in development), so that a rename cannot pass unseen.
    #[serde(deserialize_with = "Option::deserialize")]
    pub dev_client: Option<String>,
}

/// isbot's crawler user agents, as `app/bundling/crawlers.mjs` made them ready for the
/// host's engines: the host compiles them as they are.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrawlerList {
    /// The patterns without lookarounds, in the syntax of the `regex` crate.
    pub plain: Vec<String>,
    pub lookarounds: Vec<LookaroundPattern>,
    /// User agents, each with isbot's own verdict.
    pub samples: Vec<(String, bool)>,
}

/// A pattern with lookarounds (for fancy-regex), and the same without them (for `regex`),
/// which matches wherever it does, and more.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LookaroundPattern {
    pub pattern: String,
    pub relaxed: String,
}

/// A route as the build declares it: its name (`app/routes.ts`), its pattern in every
/// language (`/langues/:code` in French, `/languages/:code` in English), the form of each
/// parameter that declares one (`forms`), and whether its page waits for data (a loader).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeclaredRoute {
    pub name: String,
    pub paths: BTreeMap<String, String>,
    pub params: BTreeMap<String, String>,
    pub loads: bool,
}

/// The pages of a route the sitemap lists (`pagesOf`, app/data/routeCheck.ts): each its
/// parameters' segments as its paths write them, in the order of the default language's
/// pattern, joined by `/` (`""` for a route without parameters, `fr/FR` for
/// `/langue/:language/region/:territory`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SitemapRoute {
    pub route: String,
    pub pages: Vec<String>,
}

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
}

#[derive(Debug, Clone)]
struct AppRoute {
    name: Arc<str>,
    /// By [`Language::index`].
    patterns: Vec<String>,
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
                let patterns = languages
                    .all()
                    .map(|language| {
                        route.paths.get(language.code()).cloned().ok_or_else(|| {
                            format!(
                                "the manifest's route {:?} has no path in {}",
                                route.name,
                                language.code()
                            )
                        })
                    })
                    .collect::<Result<_, _>>()?;
                Ok(AppRoute {
                    name: route.name.as_str().into(),
                    patterns,
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
        Ok(Self {
            languages: languages.clone(),
            routes: Some(routes),
            first_segments,
        })
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
            routes
                .iter()
                .find_map(|route| Some((route, route.params(first.index(), path)?)))
                .or_else(|| self.read_in_another(routes, first, path))
        });
        let Some((route, params)) = read else {
            return PageIdentity::at(asked_in, &self.languages, path);
        };
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
        let paths = self
            .languages
            .all()
            .map(|language| {
                let pattern = &route.patterns[language.index()];
                (language.code().to_owned(), filled(pattern, segment))
            })
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

include!(concat!(env!("OUT_DIR"), "/manifest.rs"));

/// The manifest of the build this binary embeds.
pub static EMBEDDED: LazyLock<Manifest> =
    LazyLock::new(|| serde_json::from_str(MANIFEST).expect("build.rs embeds a valid manifest"));

impl Manifest {
    /// A manifest the development loop wrote.
    pub fn read(path: &std::path::Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            serde_json::from_str(include_str!("../app/data/route-cases.json")).unwrap();
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

    #[test]
    fn the_embedded_manifest_is_read_strictly_and_names_the_apps_routes() {
        let routes = AppRoutes::new(&crate::lang::demo(), &EMBEDDED.routes).unwrap();
        for route in &EMBEDDED.routes {
            for (code, pattern) in &route.paths {
                let first = pattern.split('/').nth(1).unwrap_or_default();
                assert!(first.is_empty() || routes.routes(first), "{code} {pattern}");
            }
        }
        assert!(!routes.routes("de"));
        // Each listed page, its route's pattern filled in every language, is its page there.
        for listed in &EMBEDDED.sitemap {
            let route = EMBEDDED
                .routes
                .iter()
                .find(|r| r.name == listed.route)
                .unwrap();
            for page in &listed.pages {
                let mut segments = page.split('/');
                let names: Vec<&str> = route.paths["fr"]
                    .split('/')
                    .filter_map(|part| part.strip_prefix(':'))
                    .collect();
                let values: Vec<(&str, &str)> = names
                    .iter()
                    .map(|name| (*name, segments.next().unwrap_or("")))
                    .collect();
                for language in crate::lang::demo().all() {
                    let path = filled(&route.paths[language.code()], |name| {
                        values
                            .iter()
                            .find(|(n, _)| *n == name)
                            .map_or("", |(_, v)| v)
                    });
                    assert!(
                        matches!(routes.find(language, &path), Found::Here { .. }),
                        "{path}"
                    );
                    let found = routes.page(Some(language), language, &path);
                    assert_eq!(found.route(), Some(&*listed.route), "{path}");
                }
            }
        }
    }

    /// A parameter without a form takes any segment that names something, as the app's
    /// router does (app/data/params.test.ts reads the same cases).
    #[test]
    fn a_segment_that_names_nothing_is_no_page_of_a_route_without_a_form() {
        let segments: Vec<String> =
            serde_json::from_str(include_str!("../app/data/unnameable-segments.json")).unwrap();
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
                [
                    ("fr".to_string(), "/langues/en-CA".to_string()),
                    ("en".to_string(), "/languages/en-CA".to_string())
                ]
                .into(),
            )
        );
        assert_eq!(routes.find(fr, "/"), Found::Here { loads: false });
        assert!(matches!(routes.find(en, "/status"), Found::Here { .. }));
        assert!(matches!(routes.find(fr, "/statut"), Found::Nowhere));
        assert_eq!(
            routes.page(None, fr, "/statut"),
            PageIdentity::at(None, &crate::lang::demo(), "/statut")
        );
        assert!(routes.routes("etat") && routes.routes("status") && routes.routes("langues"));
        let found = routes.page(None, en, "/langues/fr");
        assert_eq!(found.path_in(en), "/languages/fr");
    }

    #[test]
    fn a_field_renamed_by_the_build_is_refused() {
        for (field, renamed) in [
            ("sitemap", "siteMap"),
            ("routes", "routePatterns"),
            ("devClient", "devScript"),
        ] {
            let mut value: serde_json::Value = serde_json::from_str(MANIFEST).unwrap();
            let object = value.as_object_mut().unwrap();
            let kept = object.remove(field).unwrap();
            object.insert(renamed.into(), kept);
            let error = serde_json::from_value::<Manifest>(value).unwrap_err();
            assert!(error.to_string().contains(renamed), "{error}");
            let mut value: serde_json::Value = serde_json::from_str(MANIFEST).unwrap();
            value.as_object_mut().unwrap().remove(field);
            let error = serde_json::from_value::<Manifest>(value).unwrap_err();
            assert!(error.to_string().contains("missing field"), "{error}");
        }
    }
}
