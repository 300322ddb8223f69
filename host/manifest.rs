//! The build's contract with the host: `manifest.json`, which `app/bundle.mjs` writes from
//! esbuild's metafile and the app's own declarations (its languages, its routes with their
//! path in every language, its indexable pages by their parameters, the host's texts) and
//! which the host reads strictly: a field renamed or missing on either side fails every
//! start, and every test, at once. The release binary embeds the manifest of its build
//! (see `build.rs`); development mode reads each new build's from disk.

use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use serde::Deserialize;

use crate::texts::HostTexts;

mod forms;
mod route_table;
pub use route_table::{AppRoutes, Found, filled};
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

impl DeclaredRoute {
    /// Its pattern in each of `languages`, by [`crate::lang::Language::index`]; fails when
    /// it has none in one of them.
    pub fn patterns(&self, languages: &crate::lang::Languages) -> Result<Vec<String>, String> {
        languages
            .all()
            .map(|language| {
                self.paths.get(language.code()).cloned().ok_or_else(|| {
                    format!(
                        "the manifest's route {:?} has no path in {}",
                        self.name,
                        language.code()
                    )
                })
            })
            .collect()
    }
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
