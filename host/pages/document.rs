//! The HTML document around the rendered markup: language signals (`<html lang>`, and
//! `dir="rtl"` for a language written right to left; the content-language meta), what crawlers read (the description, the canonical URL and
//! each language's version, absolute, Open Graph), the title, the preloads of the active
//! language's chunks, the boot state, and the one inline script that starts the app.
//!
//! A document holds no per-response byte: the same page is the same bytes for every
//! visitor, so a shared cache may keep it. Its scripts run under a policy computed from
//! it (`security::page_policy`): the inline starter is allowed by its hash, and
//! 'strict-dynamic' allows the module scripts it starts, and theirs; the boot state is a
//! JSON data block, which runs nothing. Everything per build is computed once, when the
//! build is read.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use askama::Template;
use axum::http::{HeaderValue, StatusCode};

use super::escape::json_for_script;
use super::nonce::Nonce;
use crate::assets::PREFIX;
use crate::data_keys::DataKeys;
use crate::lang::{Direction, Language, Languages};
use crate::links::PageLinks;
use crate::manifest::Manifest;
use crate::page_identity::PageIdentity;
use crate::render::{BootState, Rendered};
use crate::security;

/// The asset URLs a document names, from the manifest, ready per language.
pub struct DocumentAssets {
    /// The inline script that starts the app's module scripts (the entry, and in
    /// development the reload client), escaped for the inside of `<script>`.
    starter: String,
    /// The policy of every document of this build: it names the starter's hash.
    policy: HeaderValue,
    /// The same for a streamed document, but for its nonce.
    streamed_policy: security::NoncedPolicy,
    icon: String,
    styles: Vec<String>,
    /// By [`Language::index`]: the chunks the entry imports, then the language's own, for
    /// a page of no route (the not-found page) and, by route name, for each route's pages
    /// (its screen's chunks and its messages' too).
    preloads: Vec<Preloads>,
    /// By [`Language::index`]: its Open Graph locale, and the other languages'.
    og_locales: Vec<(String, Vec<String>)>,
    /// By [`Language::index`]: its text runs right to left.
    rtl: Vec<bool>,
}

impl DocumentAssets {
    pub fn from_manifest(languages: &Languages, manifest: &Manifest) -> Self {
        let url = |name: &String| format!("{PREFIX}{name}");
        let preloads = languages
            .all()
            .map(|language| Preloads::of(manifest, language))
            .collect();
        let og_locales = languages
            .all()
            .map(|language| {
                let others = languages
                    .all()
                    .filter(|other| *other != language)
                    .map(|other| languages.info(other).og_locale())
                    .collect();
                (languages.info(language).og_locale(), others)
            })
            .collect();
        let scripts: Vec<String> = std::iter::once(&manifest.entry)
            .chain(&manifest.dev_client)
            .map(url)
            .collect();
        let starter = starter(&scripts);
        Self {
            policy: security::page_policy(&[starter.as_str()]),
            streamed_policy: security::NoncedPolicy::new(&[starter.as_str()]),
            starter,
            icon: url(&manifest.icon),
            styles: manifest.css.iter().map(url).collect(),
            preloads,
            og_locales,
            rtl: languages
                .all()
                .map(|language| languages.info(language).direction() == Direction::Rtl)
                .collect(),
        }
    }

    /// The Content-Security-Policy of this build's documents.
    pub fn policy(&self) -> &HeaderValue {
        &self.policy
    }

    /// The policy of a streamed document: React's inline scripts carry `nonce`.
    pub fn streamed_policy(&self, nonce: &str) -> HeaderValue {
        self.streamed_policy.with(nonce)
    }

    pub fn styles(&self) -> &[String] {
        &self.styles
    }

    /// The URL of the module of `route`'s own messages in `language`, when the build gives
    /// it one: the boot state names it, for the browser to import with no index.
    pub fn page_messages(&self, language: Language, route: &str) -> Option<Arc<str>> {
        self.preloads[language.index()].messages.get(route).cloned()
    }

    fn preloads(&self, language: Language, route: Option<&str>) -> &[String] {
        let preloads = &self.preloads[language.index()];
        route
            .and_then(|route| preloads.routes.get(route))
            .unwrap_or(&preloads.no_route)
    }
}

/// What a page in one language has the browser fetch before it runs: the first load's
/// chunks, the language's module, and for a page of a route its screen's chunks and its
/// own messages.
struct Preloads {
    no_route: Vec<String>,
    routes: HashMap<String, Vec<String>>,
    /// By route name: the module of its own messages (the first of its chunks).
    messages: HashMap<String, Arc<str>>,
}

impl Preloads {
    fn of(manifest: &Manifest, language: Language) -> Self {
        let url = |name: &String| format!("{PREFIX}{name}");
        let own = manifest.language_chunks.get(language.code());
        let no_route: Vec<String> = manifest
            .preload
            .iter()
            .chain(own.into_iter().flatten())
            .map(url)
            .collect();
        let messages = manifest.message_chunks.get(language.code());
        let routes = manifest
            .route_chunks
            .iter()
            .map(|(route, screen)| {
                let route_messages = messages.and_then(|messages| messages.get(route));
                let files = no_route
                    .iter()
                    .cloned()
                    .chain(
                        screen
                            .iter()
                            .chain(route_messages.into_iter().flatten())
                            .map(url),
                    )
                    .collect();
                (route.clone(), files)
            })
            .collect();
        let messages = messages
            .into_iter()
            .flatten()
            .filter_map(|(route, chunks)| Some((route.clone(), url(chunks.first()?).into())))
            .collect();
        Self {
            no_route,
            routes,
            messages,
        }
    }
}

#[derive(Template)]
#[template(path = "page.html", config = "host/askama.toml")]
struct Document<'a> {
    lang: &'a str,
    /// The language is written right to left (left to right is HTML's default).
    rtl: bool,
    title: &'a str,
    description: &'a str,
    links: Option<&'a PageLinks>,
    og_locale: &'a str,
    og_alternates: &'a [String],
    styles: &'a [String],
    preloads: &'a [String],
    starter: &'a str,
    icon: &'a str,
    markup: &'a str,
    boot: &'a str,
    /// Development: the render's failure, for the overlay (JSON, escaped).
    dev_problem: Option<String>,
}

/// What a document shows: the title, description and markup the bundle rendered (no markup
/// for a page the browser renders itself), and, unless it is a 404, its links.
#[derive(Clone, Copy)]
pub struct Content<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub markup: &'a str,
    pub links: Option<&'a PageLinks>,
    /// What the page is: its route says what its preloads are.
    pub page: &'a PageIdentity,
    /// Development: why the render failed, as JSON for the overlay.
    pub dev_problem: Option<&'a str>,
}

/// A whole document, written: its status, its text, its links (a page found names them),
/// and the policy its scripts run under. A page rendered whole is one, and so is the
/// client-rendered page.
pub struct WholeDocument {
    pub status: StatusCode,
    pub document: String,
    pub links: Option<PageLinks>,
    pub policy: HeaderValue,
    /// What the page is, as it is asked (kept with it, for its purge keys).
    pub page: Arc<PageIdentity>,
    /// What its data named for a purge (none, for a page without data).
    pub data_keys: DataKeys,
}

/// Step 5: the document of a page rendered whole; its boot state carries the loader's
/// data, for the browser to hydrate with.
/// `status` and `links`: as the request and the render decide them (`Asked`).
pub fn whole(
    assets: &DocumentAssets,
    (status, links): (StatusCode, Option<PageLinks>),
    page: &Arc<PageIdentity>,
    boot: BootState,
    mut rendered: Rendered,
) -> Result<WholeDocument, askama::Error> {
    let page = page.clone();
    let boot = BootState {
        data: rendered.data.take(),
        ..boot
    };
    let content = Content {
        title: &rendered.title,
        description: &rendered.description,
        markup: &rendered.html,
        links: links.as_ref(),
        page: &page,
        dev_problem: None,
    };
    Ok(WholeDocument {
        status,
        document: write(assets, &boot, &content)?,
        links,
        policy: assets.policy().clone(),
        page,
        data_keys: DataKeys::default(),
    })
}

/// The whole document. With empty markup it is the client-rendered page: the browser
/// renders the screen from the same boot state.
pub fn write(
    assets: &DocumentAssets,
    boot: &BootState,
    content: &Content<'_>,
) -> Result<String, askama::Error> {
    let boot_json = serde_json::to_string(boot).expect("serialisable boot state");
    render(assets, boot.language, &json_for_script(&boot_json), content)
}

/// The document in `language`, with `boot` (JSON, escaped) as its boot state.
fn render(
    assets: &DocumentAssets,
    language: Language,
    boot: &str,
    content: &Content<'_>,
) -> Result<String, askama::Error> {
    let (og_locale, og_alternates) = &assets.og_locales[language.index()];
    Document {
        lang: language.code(),
        rtl: assets.rtl[language.index()],
        title: content.title,
        description: content.description,
        links: content.links,
        og_locale,
        og_alternates: if content.links.is_some() {
            og_alternates
        } else {
            &[]
        },
        styles: &assets.styles,
        preloads: assets.preloads(language, content.page.route()),
        starter: &assets.starter,
        icon: &assets.icon,
        markup: content.markup,
        boot,
        dev_problem: content.dev_problem.map(json_for_script),
    }
    .render()
}

/// The script that starts `scripts` as module scripts. Inserted by a script the policy
/// trusts, they are trusted in turn ('strict-dynamic'); module scripts run once the
/// document is parsed (`app/client.tsx` waits for it).
fn starter(scripts: &[String]) -> String {
    let starts: String = scripts
        .iter()
        .map(|src| {
            let src = serde_json::to_string(src).expect("a string");
            format!(
                "document.head.append(Object.assign(document.createElement(\"script\"),{{type:\"module\",src:{src}}}));"
            )
        })
        .collect();
    json_for_script(&starts)
}

/// Where a streamed document's markup and boot state go: values drawn at start-up, so
/// that nothing a page shows can be mistaken for them.
static MARKUP_SLOT: LazyLock<String> = LazyLock::new(|| format!("\u{1}{}\u{1}", Nonce::random()));
static BOOT_SLOT: LazyLock<String> = LazyLock::new(|| format!("\u{1}{}\u{1}", Nonce::random()));

/// A streamed document around its markup: written once, when the stream starts; its boot
/// state goes in when the data has come. (`content.markup` and `boot.data` are not used.)
pub struct Frame {
    pub before_markup: String,
    after_markup: String,
}

impl Frame {
    pub fn new(
        assets: &DocumentAssets,
        boot: &BootState,
        content: &Content<'_>,
    ) -> Result<Self, askama::Error> {
        let whole = render(
            assets,
            boot.language,
            &BOOT_SLOT,
            &Content {
                markup: &MARKUP_SLOT,
                ..*content
            },
        )?;
        let (before, after) = whole
            .split_once(MARKUP_SLOT.as_str())
            .expect("the template writes the markup");
        Ok(Self {
            before_markup: before.to_string(),
            after_markup: after.to_string(),
        })
    }

    /// The rest of the document, with `boot` (and its data).
    pub fn after_markup(&self, boot: &BootState) -> String {
        let boot_json = serde_json::to_string(boot).expect("serialisable boot state");
        self.after_markup
            .replacen(BOOT_SLOT.as_str(), &json_for_script(&boot_json), 1)
    }
}

/// The rest of a streamed document, with its development problem to show: written anew,
/// as the frame has no room for it.
pub fn after_markup_with_problem(
    assets: &DocumentAssets,
    boot: &BootState,
    content: &Content<'_>,
) -> Result<String, askama::Error> {
    let whole = write(
        assets,
        boot,
        &Content {
            markup: &MARKUP_SLOT,
            ..*content
        },
    )?;
    let (_, after) = whole
        .split_once(MARKUP_SLOT.as_str())
        .expect("the template writes the markup");
    Ok(after.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_starts_each_module_script_and_cannot_close_its_element() {
        let starter = starter(&["/assets/client-AB.js".into(), "/assets/</script>.js".into()]);
        assert_eq!(
            starter
                .matches("document.createElement(\"script\")")
                .count(),
            2
        );
        assert!(starter.contains(r#"{type:"module",src:"/assets/client-AB.js"}"#));
        assert!(!starter.contains("</script"), "{starter}");
    }
}
