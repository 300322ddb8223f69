//! The build's contract with the host: `manifest.json`, which `app/bundle.mjs` writes from
//! esbuild's metafile and the app's own declarations (its languages, routes, indexable
//! pages, the host's texts) and which the host reads strictly: a field renamed or missing
//! on either side fails every start, and every test, at once. The release binary embeds
//! the manifest of its build (see `build.rs`); development mode reads each new build's
//! from disk.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use serde::Deserialize;

use crate::texts::HostTexts;

/// What the build says the host needs (written by `app/bundle.mjs`, `writeManifest`).
#[derive(Debug, Clone, Deserialize)]
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
    /// Every route's pattern, as the app declares it (`/languages/:code`).
    pub route_patterns: Vec<String>,
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

/// The routes the app declares, by pattern (`/`, `/languages/:code`). A path starting with
/// one's first segment is the app's, never a language prefix, however much it looks like a
/// language tag (`/faq`, `/cgu`).
#[derive(Debug, Clone, Default)]
pub struct AppRoutes {
    /// `None`: a bundle other than the build's renders the pages (`--server-bundle`), and
    /// the manifest cannot say which paths it takes.
    patterns: Option<Vec<String>>,
    first_segments: HashSet<String>,
}

impl AppRoutes {
    pub fn new(patterns: &[String]) -> Self {
        let first_segments = patterns
            .iter()
            .filter_map(|pattern| pattern.split('/').nth(1))
            .filter(|first| !first.is_empty() && !first.starts_with(':'))
            .map(str::to_owned)
            .collect();
        Self {
            patterns: Some(patterns.to_vec()),
            first_segments,
        }
    }

    /// The same first segments, for a bundle whose routes the manifest does not know:
    /// every path may be one of its pages.
    pub fn of_another_bundle(self) -> Self {
        Self {
            patterns: None,
            ..self
        }
    }

    pub fn routes(&self, segment: &str) -> bool {
        self.first_segments.contains(segment)
    }

    /// Whether some route's pattern takes `path` (without its language prefix), as the
    /// app's router matches (app/data/route.ts, `matchRoute`): segment by segment, a
    /// parameter taking any non-empty segment that decodes. The app may still find no
    /// page there (its loader's 404); a path no pattern takes is certainly none.
    pub fn match_any(&self, path: &str) -> bool {
        let Some(patterns) = &self.patterns else {
            return true;
        };
        patterns.iter().any(|pattern| {
            let parts = pattern.split('/');
            let segments = path.split('/');
            parts.clone().count() == segments.clone().count()
                && parts
                    .zip(segments)
                    .all(|(part, segment)| match part.strip_prefix(':') {
                        Some(_) => !segment.is_empty() && decodes(segment),
                        None => part == segment,
                    })
        })
    }
}

/// Whether a path segment's percent-encoding decodes to UTF-8, as `decodeURIComponent`
/// requires.
fn decodes(segment: &str) -> bool {
    let bytes = segment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok());
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(byte) => decoded.push(byte),
                None => return false,
            }
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(decoded).is_ok()
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
        let routes = AppRoutes::new(&EMBEDDED.route_patterns);
        assert!(routes.routes("status") && !routes.routes("de"));
    }

    #[test]
    fn a_path_is_matched_as_the_apps_router_matches_it() {
        let routes = AppRoutes::new(&["/".into(), "/status".into(), "/languages/:code".into()]);
        for path in [
            "/",
            "/status",
            "/languages/en",
            "/languages/%C3%A9",
            "/languages/..",
        ] {
            assert!(routes.match_any(path), "{path}");
        }
        for path in [
            "",
            "/status/",
            "/nowhere",
            "/languages/",
            "/languages/en/x",
            "/languages/%ff",
            "/languages/%zz",
            "/languages/%e",
            "//",
        ] {
            assert!(!routes.match_any(path), "{path}");
        }
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
