//! The build's contract with the host: `manifest.json`, which `app/bundle.mjs` writes from
//! esbuild's metafile and the app's own declarations (its languages, routes, indexable
//! pages) and which the host reads strictly: a field renamed or missing on either side
//! fails every start, and every test, at once. The release binary embeds the manifest of
//! its build (see `build.rs`); development mode reads each new build's from disk.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use serde::Deserialize;

/// What the build says the host needs (written by `app/bundle.mjs`, `writeManifest`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Manifest {
    /// The client entry module.
    pub entry: String,
    pub css: Vec<String>,
    /// Chunks the entry imports statically.
    pub preload: Vec<String>,
    /// Per language code: the chunks of its translation table and date locale.
    pub language_chunks: HashMap<String, Vec<String>>,
    pub icon: String,
    /// When the app was built (RFC 3339): the sitemap's `lastmod`.
    pub built_at: String,
    /// The paths the app declares indexable.
    pub sitemap: Vec<String>,
    /// The first path segment of every route the app declares (`status` for `/status`).
    pub route_segments: Vec<String>,
    /// The crawler user agents (isbot's list).
    pub crawlers: CrawlerList,
    /// `languages.json`, as the build read it.
    pub declared: serde_json::Value,
    /// Development builds: the script that reloads the page and shows problems. Written
    /// by every build (`null` but in development), so that a rename cannot pass unseen.
    #[serde(deserialize_with = "Option::deserialize")]
    pub dev_client: Option<String>,
}

/// isbot's crawler user agents, as `app/bundling/crawlers.mjs` made them ready for the
/// host's engines: the host compiles them as they are.
#[derive(Debug, Deserialize)]
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
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LookaroundPattern {
    pub pattern: String,
    pub relaxed: String,
}

/// The first path segments the app routes: a path starting with one is the app's, never a
/// language prefix, however much it looks like a language tag (`/faq`, `/cgu`).
#[derive(Debug, Clone, Default)]
pub struct AppRoutes {
    first_segments: HashSet<String>,
}

impl AppRoutes {
    pub fn new(first_segments: &[String]) -> Self {
        Self {
            first_segments: first_segments.iter().cloned().collect(),
        }
    }

    pub fn routes(&self, segment: &str) -> bool {
        self.first_segments.contains(segment)
    }
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
        assert!(EMBEDDED.route_segments.iter().any(|s| s == "status"));
        let routes = AppRoutes::new(&EMBEDDED.route_segments);
        assert!(routes.routes("status") && !routes.routes("de"));
    }

    #[test]
    fn a_field_renamed_by_the_build_is_refused() {
        for (field, renamed) in [("sitemap", "siteMap"), ("devClient", "devScript")] {
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
