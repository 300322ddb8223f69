//! What a purge can select: every answer a shared cache may keep (`Cache-Control: public`)
//! names its build and its family of paths, space-separated in `Surrogate-Key` (Fastly,
//! Varnish's xkey) and comma-separated in `Cache-Tag` (Cloudflare). The keys:
//!
//! - `build-ID`: everything of one build (its pages, its assets, its crawler files);
//! - `pages`, `assets`, `crawlers`, `api`: one family, whatever the build;
//! - `pages-build-ID`, `assets-build-ID`, `crawlers-build-ID`: one family of one build
//!   (after a deploy, purge the previous build's pages: `pages-build-OLD`);
//! - `lang-fr`: the pages of one language; `route-status`: one route's pages, in every
//!   language and at its path in each (`route-languages` for `/fr/langues/en` and
//!   `/en/languages/en`; `route-other` for paths the app does not route), as the page's
//!   identity names its route (a route named `languageDetail` is `route-language-detail`);
//! - `assets-previous`: the assets served from `--previous-assets` (other builds'), each
//!   also naming every build whose list in that folder holds it (`build-OLD assets
//!   assets-build-OLD`), so a purge of that build reaches them on every replica.
//!
//! ID is a digest of the build's manifest and server bundle, made once at start-up; every
//! header value is made then too, one per family, so an answer only picks its own.
//!
//! After its family's keys, an answer names the data it holds (`data_keys`): a page, the
//! keys its loader's answers gave (a response extension); an `/api` answer, those its own
//! `Surrogate-Key` gives (the built-in API's, or the upstream's), read as strictly.
//!
//! Every key header an answer leaves with is the host's: whatever an upstream or a handler
//! wrote in `Surrogate-Key`, `Cache-Tag` or `xkey` is taken off, then an answer a shared
//! cache may keep gets both of the host's headers, the same keys in each, and any other
//! answer none (`xkey` is the VCL's to set, from `Surrogate-Key`: `deploy/varnish.vcl`).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;
use sha2::{Digest, Sha256};

use crate::data_keys::DataKeys;
use crate::lang::Languages;
use crate::page_identity::{PageIdentity, is_route_name};

pub const SURROGATE_KEY: HeaderName = HeaderName::from_static("surrogate-key");
pub const CACHE_TAG: HeaderName = HeaderName::from_static("cache-tag");
/// Varnish's xkey module's own header: a cache's, never an answer's.
const XKEY: HeaderName = HeaderName::from_static("xkey");

/// The two headers of one family. A handler whose answer is of another family than its
/// path's leaves its `Keys` on the response (an earlier build's asset).
#[derive(Clone, Debug)]
pub struct Keys {
    surrogate_key: HeaderValue,
    cache_tag: HeaderValue,
    /// The answer's own `Surrogate-Key` names its data (`/api`'s).
    answer_names_its_data: bool,
}

impl Keys {
    pub fn of(keys: &[String]) -> Self {
        let value = |separator: &str| {
            HeaderValue::try_from(keys.join(separator)).expect("keys are [a-z0-9-]")
        };
        Self {
            surrogate_key: value(" "),
            cache_tag: value(","),
            answer_names_its_data: false,
        }
    }

    /// An asset of other builds (`--previous-assets`): theirs, as their own replicas name
    /// their assets, and `assets-previous`.
    pub fn of_earlier_asset(builds: &[String]) -> Self {
        let mut keys: Vec<String> = builds.iter().map(|id| format!("build-{id}")).collect();
        keys.push("assets".into());
        keys.extend(builds.iter().map(|id| format!("assets-build-{id}")));
        keys.push("assets-previous".into());
        Self::of(&keys)
    }

    /// Sets both headers to these keys then `data`'s.
    fn write_with(&self, response: &mut Response, data: &DataKeys) {
        let headers = response.headers_mut();
        if data.is_empty() {
            headers.insert(SURROGATE_KEY, self.surrogate_key.clone());
            headers.insert(CACHE_TAG, self.cache_tag.clone());
            return;
        }
        let value = |family: &HeaderValue, separator: &str| {
            let mut value = family.as_bytes().to_vec();
            value.extend_from_slice(separator.as_bytes());
            value.extend_from_slice(data.joined(separator).as_bytes());
            HeaderValue::from_bytes(&value).expect("data keys are [a-z0-9._-]")
        };
        headers.insert(SURROGATE_KEY, value(&self.surrogate_key, " "));
        headers.insert(CACHE_TAG, value(&self.cache_tag, ","));
    }

    /// Whether `key` is one of these.
    pub fn names(&self, key: &str) -> bool {
        self.surrogate_key
            .as_bytes()
            .split(|b| *b == b' ')
            .any(|named| named == key.as_bytes())
    }
}

/// Whether `Cache-Control` lets a shared cache keep the answer: `public` among its
/// directives, and none that forbids it (`private`, `no-store`).
fn is_public(cache_control: Option<&HeaderValue>) -> bool {
    let Some(value) = cache_control.and_then(|value| value.to_str().ok()) else {
        return false;
    };
    let directives = || {
        value
            .split(',')
            .map(|directive| directive.split('=').next().unwrap_or_default().trim())
    };
    directives().any(|name| name.eq_ignore_ascii_case("public"))
        && !directives().any(|name| {
            name.eq_ignore_ascii_case("private") || name.eq_ignore_ascii_case("no-store")
        })
}

/// A short digest naming one build: its manifest and its server bundle.
pub fn build_id(manifest: &[u8], bundle: &[u8]) -> String {
    let mut digest = Sha256::new();
    digest.update((manifest.len() as u64).to_le_bytes());
    digest.update(manifest);
    digest.update(bundle);
    digest.finalize()[..6]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `id` can be a build's ID in a key (as [`build_id`] makes them, or read from a
/// folder's list).
pub fn is_build_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// Every family's keys, made at start-up.
pub struct PurgeKeys {
    build: String,
    assets: Keys,
    crawlers: Keys,
    api: Keys,
    /// Per language slot (0: no language prefix, then each language's index + 1), per
    /// route slot (0: other, then each route of the app, in order).
    pages: Vec<Vec<Keys>>,
    routes: HashMap<Arc<str>, usize>,
}

/// A route's key: `route-` and its name in small letters, a word per capital
/// (`languageDetail` → `route-language-detail`).
fn route_key(name: &str) -> String {
    let mut key = String::from("route-");
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            key.push('-');
        }
        key.push(c.to_ascii_lowercase());
    }
    key
}

impl PurgeKeys {
    /// `route_names`: the app's routes (the manifest's); a name that cannot be a key's is
    /// left out, and its pages are `route-other`.
    pub fn new(languages: &Languages, build: &str, route_names: &[String]) -> Self {
        let mut route_keys = vec!["route-other".to_string()];
        let mut routes = HashMap::new();
        for name in route_names.iter().filter(|name| is_route_name(name)) {
            routes.insert(Arc::from(name.as_str()), route_keys.len());
            route_keys.push(route_key(name));
        }
        let family = |name: &str| {
            Keys::of(&[
                format!("build-{build}"),
                name.to_string(),
                format!("{name}-build-{build}"),
            ])
        };
        let language_slots = std::iter::once(None).chain(
            languages
                .all()
                .map(|language| Some(language.segment().to_owned())),
        );
        let pages = language_slots
            .map(|language| {
                route_keys
                    .iter()
                    .map(|route| {
                        let mut keys = vec![
                            format!("build-{build}"),
                            "pages".to_string(),
                            format!("pages-build-{build}"),
                        ];
                        keys.extend(language.as_ref().map(|code| format!("lang-{code}")));
                        keys.push(route.clone());
                        Keys::of(&keys)
                    })
                    .collect()
            })
            .collect();
        Self {
            build: build.to_string(),
            assets: family("assets"),
            crawlers: family("crawlers"),
            api: Keys {
                answer_names_its_data: true,
                ..Keys::of(&["api".to_string()])
            },
            pages,
            routes,
        }
    }

    pub fn build(&self) -> &str {
        &self.build
    }

    /// The keys of the answers to `path` that are no page's (a page's say what it is:
    /// [`PurgeKeys::for_page`]); any other answer is a page's that cannot say: no language,
    /// `route-other`.
    pub fn for_path(&self, path: &str) -> &Keys {
        let rest = path.trim_start_matches('/');
        let (first, after) = rest.split_once('/').unwrap_or((rest, ""));
        match first {
            "assets" if !after.is_empty() => &self.assets,
            "api" => &self.api,
            "robots.txt" | "sitemap.xml" if after.is_empty() && !path.ends_with('/') => {
                &self.crawlers
            }
            part if is_sitemap_part(part) && after.is_empty() && !path.ends_with('/') => {
                &self.crawlers
            }
            _ => &self.pages[0][0],
        }
    }

    /// The keys of a page: the language it is asked in's (none for an unprefixed path),
    /// and its route's (`route-other` for a path the app does not route).
    pub fn for_page(&self, page: &PageIdentity) -> &Keys {
        let language_slot = page.language().map_or(0, |language| language.index() + 1);
        let route_slot = page
            .route()
            .and_then(|route| self.routes.get(route))
            .copied()
            .unwrap_or(0);
        &self.pages[language_slot][route_slot]
    }
}

/// `sitemap-7.xml`: a part of the sitemap, when it is an index (`crate::crawlers`).
fn is_sitemap_part(name: &str) -> bool {
    name.strip_prefix("sitemap-")
        .and_then(|rest| rest.strip_suffix(".xml"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// What naming an answer's purge keys needs from its request (`every_answer`).
pub struct Naming<'a> {
    path_keys: &'a Keys,
    /// The path of an API answer, which names its own data.
    api_path: Option<String>,
}

impl PurgeKeys {
    /// What naming the answer to `request` needs from it.
    pub fn begin(&self, request: &Request) -> Naming<'_> {
        let path_keys = self.for_path(request.uri().path());
        let api_path = path_keys
            .answer_names_its_data
            .then(|| request.uri().path().to_owned());
        Naming {
            path_keys,
            api_path,
        }
    }

    /// Names the purge keys of an answer a shared cache may keep: its family's, then its
    /// data's; any other answer names none. A page's family is what it says it is (its
    /// [`PageIdentity`], a response extension the page handler sets); an answer that left
    /// its own [`Keys`] is of theirs.
    pub fn end(&self, naming: Naming<'_>, response: &mut Response) {
        let page_data = response.extensions_mut().remove::<DataKeys>();
        let page = response.extensions_mut().remove::<Arc<PageIdentity>>();
        let own = response.extensions_mut().remove::<Keys>();
        let public = is_public(response.headers().get(header::CACHE_CONTROL));
        let data = match public {
            true => page_data.or_else(|| {
                naming
                    .api_path
                    .map(|path| DataKeys::of_answer(response.headers(), &path))
            }),
            false => None,
        };
        let headers = response.headers_mut();
        for name in [SURROGATE_KEY, CACHE_TAG, XKEY] {
            headers.remove(name);
        }
        if !public {
            return;
        }
        let family = match (&own, &page) {
            (Some(own), _) => own,
            (None, Some(page)) => self.for_page(page),
            (None, None) => naming.path_keys,
        };
        family.write_with(response, &data.unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn purge_keys() -> PurgeKeys {
        let names = ["home", "status", "languageDetail", "Not A Key"].map(String::from);
        PurgeKeys::new(&crate::lang::demo(), "ab12", &names)
    }

    fn header(keys: &Keys) -> String {
        keys.surrogate_key.to_str().unwrap().to_string()
    }

    fn keys(path: &str) -> String {
        header(purge_keys().for_path(path))
    }

    fn page(language: Option<&str>, route: Option<&str>) -> String {
        let language = language.map(|code| crate::lang::demo().by_code(code).unwrap());
        let page = PageIdentity::everywhere(route, "/").asked_in(language);
        header(purge_keys().for_page(&page))
    }

    #[test]
    fn each_answer_names_its_build_and_its_family() {
        assert_eq!(
            page(Some("fr"), Some("status")),
            "build-ab12 pages pages-build-ab12 lang-fr route-status"
        );
        assert_eq!(
            page(Some("en"), Some("home")),
            "build-ab12 pages pages-build-ab12 lang-en route-home"
        );
        assert_eq!(
            page(Some("en"), None),
            "build-ab12 pages pages-build-ab12 lang-en route-other"
        );
        assert_eq!(
            page(None, Some("status")),
            "build-ab12 pages pages-build-ab12 route-status"
        );
        assert_eq!(
            page(Some("fr"), Some("languageDetail")),
            "build-ab12 pages pages-build-ab12 lang-fr route-language-detail"
        );
        assert_eq!(
            keys("/assets/client-X.js"),
            "build-ab12 assets assets-build-ab12"
        );
        assert_eq!(
            keys("/sitemap.xml"),
            "build-ab12 crawlers crawlers-build-ab12"
        );
        assert_eq!(
            keys("/sitemap-12.xml"),
            "build-ab12 crawlers crawlers-build-ab12"
        );
        assert!(keys("/sitemap-x.xml").contains("route-other"));
        assert_eq!(keys("/api/status"), "api");
        // A page that cannot say what it is: no language, "other"; never read from its path.
        assert_eq!(
            keys("/fr/status"),
            "build-ab12 pages pages-build-ab12 route-other"
        );
        // A route whose name cannot be a key, or that the app does not have, is "other",
        // never written as it came.
        assert!(page(Some("fr"), Some("Not A Key")).ends_with("route-other"));
        assert!(page(Some("fr"), Some("nowhere")).ends_with("route-other"));
    }

    /// Every key the host makes is one no answer's data may name (`data_keys`), so that a
    /// purge of it selects what it says.
    #[test]
    fn no_data_key_can_be_one_of_the_hosts_keys() {
        let purge = purge_keys();
        let mut made: Vec<&Keys> = vec![&purge.assets, &purge.crawlers, &purge.api];
        made.extend(purge.pages.iter().flatten());
        let earlier = Keys::of_earlier_asset(&["aa11".into()]);
        made.push(&earlier);
        for keys in made {
            for key in keys.surrogate_key.to_str().unwrap().split(' ') {
                assert!(crate::data_keys::is_the_hosts(key), "{key}");
                assert!(keys.names(key), "{key}");
            }
        }
        let french =
            PageIdentity::everywhere(Some("home"), "/").asked_in(crate::lang::demo().by_code("fr"));
        assert!(!purge.for_page(&french).names("lang-en"));
        assert!(!purge.for_page(&french).names("lang"));
    }

    /// An answer as a handler left it, then named by `end` for a request to `path`.
    fn named(
        path: &str,
        cache_control: &str,
        headers: &[(&str, &str)],
        own: Option<Keys>,
    ) -> Response {
        let purge = purge_keys();
        let request = Request::builder()
            .uri(path)
            .body(axum::body::Body::empty())
            .unwrap();
        let naming = purge.begin(&request);
        let mut response = Response::new(axum::body::Body::empty());
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_str(cache_control).unwrap(),
        );
        for (name, value) in headers {
            response.headers_mut().append(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        if let Some(own) = own {
            response.extensions_mut().insert(own);
        }
        purge.end(naming, &mut response);
        response
    }

    fn all(response: &Response, name: &str) -> Vec<String> {
        response
            .headers()
            .get_all(name)
            .iter()
            .map(|value| value.to_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn every_key_header_an_answer_leaves_with_is_the_hosts() {
        let upstream = [
            ("surrogate-key", "user-7 build-evil"),
            ("cache-tag", "lang-en,pages"),
            ("xkey", "build-evil lang-en pages"),
        ];
        let public = named("/api/users/7", "public, max-age=60", &upstream, None);
        assert_eq!(all(&public, "surrogate-key"), ["api user-7"]);
        assert_eq!(all(&public, "cache-tag"), ["api,user-7"]);
        assert!(all(&public, "xkey").is_empty(), "the cache's header");
        for cache_control in [
            "private",
            "no-store",
            "public, no-store",
            "max-age=60",
            "private, public",
        ] {
            let kept = named("/api/users/7", cache_control, &upstream, None);
            for name in ["surrogate-key", "cache-tag", "xkey"] {
                assert!(all(&kept, name).is_empty(), "{cache_control}: {name}");
            }
        }
        let status = named(
            "/api/status",
            "no-store",
            &[("surrogate-key", "status")],
            None,
        );
        assert!(all(&status, "surrogate-key").is_empty());
        let page = named(
            "/fr/",
            "public, max-age=60",
            &[("xkey", "x"), ("cache-tag", "y")],
            None,
        );
        assert_eq!(
            all(&page, "surrogate-key"),
            ["build-ab12 pages pages-build-ab12 route-other"]
        );
        assert_eq!(
            all(&page, "cache-tag"),
            ["build-ab12,pages,pages-build-ab12,route-other"]
        );
        assert!(all(&page, "xkey").is_empty());
        let earlier = named(
            "/assets/x.js",
            "public, max-age=31536000, immutable",
            &[("surrogate-key", "forged")],
            Some(Keys::of_earlier_asset(&["aa11".into()])),
        );
        assert_eq!(
            all(&earlier, "surrogate-key"),
            ["build-aa11 assets assets-build-aa11 assets-previous"]
        );
    }

    #[test]
    fn an_earlier_builds_asset_names_every_build_that_holds_it() {
        let header = |keys: Keys| keys.surrogate_key.to_str().unwrap().to_string();
        assert_eq!(
            header(Keys::of_earlier_asset(&["aa11".into()])),
            "build-aa11 assets assets-build-aa11 assets-previous"
        );
        assert_eq!(
            header(Keys::of_earlier_asset(&["aa11".into(), "bb22".into()])),
            "build-aa11 build-bb22 assets assets-build-aa11 assets-build-bb22 assets-previous"
        );
        assert_eq!(
            header(Keys::of_earlier_asset(&[])),
            "assets assets-previous"
        );
        assert!(is_build_id(&build_id(b"{}", b"bundle")));
        for not_an_id in ["", "AB12", "ab 12", "ab,12", "../x", &"a".repeat(65)] {
            assert!(!is_build_id(not_an_id), "{not_an_id:?}");
        }
    }

    #[test]
    fn a_build_is_named_by_its_manifest_and_its_bundle() {
        let id = build_id(b"{}", b"bundle");
        assert_eq!(id.len(), 12);
        assert_eq!(id, build_id(b"{}", b"bundle"));
        assert_ne!(id, build_id(b"{}", b"bundle2"));
        assert_ne!(id, build_id(b"{} ", b"bundle"));
    }
}
