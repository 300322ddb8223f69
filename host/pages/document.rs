//! The HTML document around the rendered markup: language signals (`<html lang>`, the
//! content-language meta), what crawlers read (the description, the canonical URL and
//! each language's version, absolute, also as a `Link` header, Open Graph), the title, the
//! preloads of the active language's chunks and the boot state; and the headers a page
//! answers with. Everything per build is computed once, at start-up.

use askama::Template;
use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::escape::json_for_script;
use super::nonce::Nonce;
use crate::assets::PREFIX;
use crate::lang::Language;
use crate::links::PageLinks;
use crate::manifest::Manifest;
use crate::render::BootState;
use crate::security::page_policy;

/// The asset URLs a document names, from the manifest, ready per language.
pub struct DocumentAssets {
    entry: String,
    icon: String,
    styles: Vec<String>,
    /// By [`Language::index`]: the chunks the entry imports, then the language's own.
    preloads: Vec<Vec<String>>,
    /// By [`Language::index`]: its Open Graph locale, and the other languages'.
    og_locales: Vec<(String, Vec<String>)>,
    /// Development: the script that reloads the page and shows problems.
    dev_client: Option<String>,
}

impl DocumentAssets {
    pub fn from_manifest(manifest: &Manifest) -> Self {
        let url = |name: &String| format!("{PREFIX}{name}");
        let preloads = Language::all()
            .map(|language| {
                let own = manifest
                    .language_chunks
                    .get(language.code())
                    .into_iter()
                    .flatten();
                manifest.preload.iter().chain(own).map(url).collect()
            })
            .collect();
        let og_locales = Language::all()
            .map(|language| {
                let others = Language::all()
                    .filter(|other| *other != language)
                    .map(Language::og_locale)
                    .collect();
                (language.og_locale(), others)
            })
            .collect();
        Self {
            entry: url(&manifest.entry),
            icon: url(&manifest.icon),
            styles: manifest.css.iter().map(url).collect(),
            preloads,
            og_locales,
            dev_client: manifest.dev_client.as_ref().map(url),
        }
    }

    pub fn styles(&self) -> &[String] {
        &self.styles
    }

    fn preloads(&self, language: Language) -> &[String] {
        &self.preloads[language.index()]
    }
}

#[derive(Template)]
#[template(path = "page.html", config = "host/askama.toml")]
struct Document<'a> {
    lang: &'a str,
    title: &'a str,
    description: &'a str,
    links: Option<&'a PageLinks>,
    og_locale: &'a str,
    og_alternates: &'a [String],
    styles: &'a [String],
    preloads: &'a [String],
    entry: &'a str,
    icon: &'a str,
    markup: &'a str,
    boot: &'a str,
    nonce: &'a str,
    dev_client: Option<&'a str>,
    /// Development: the render's failure, for the overlay (JSON, escaped).
    dev_problem: Option<String>,
}

/// What a document shows: the title, description and markup the bundle rendered (no markup
/// for a page the browser renders itself), and, unless it is a 404, its links.
pub struct Content<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub markup: &'a str,
    pub links: Option<&'a PageLinks>,
    /// Development: why the render failed, as JSON for the overlay.
    pub dev_problem: Option<String>,
}

/// The whole document; `nonce` goes on every script and preload. With empty markup it is
/// the client-rendered page: the browser renders the screen from the same boot state.
pub fn write(
    assets: &DocumentAssets,
    boot: &BootState,
    content: &Content<'_>,
    nonce: &Nonce,
) -> Result<String, askama::Error> {
    let boot_json = serde_json::to_string(boot).expect("serialisable boot state");
    let (og_locale, og_alternates) = &assets.og_locales[boot.language.index()];
    Document {
        lang: boot.language.code(),
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
        preloads: assets.preloads(boot.language),
        entry: &assets.entry,
        icon: &assets.icon,
        markup: content.markup,
        boot: &json_for_script(&boot_json),
        nonce: nonce.as_str(),
        dev_client: assets.dev_client.as_deref(),
        dev_problem: content.dev_problem.as_deref().map(json_for_script),
    }
    .render()
}

/// The headers a page answers with, besides its body's.
pub struct PageHeaders {
    pub language: Language,
    pub cache_control: &'static str,
    /// Request headers the page depends on, besides `Accept-Encoding`: `Cookie` or none.
    pub vary_cookie: bool,
    /// The alternates, for a page that names them.
    pub link: Option<HeaderValue>,
}

/// `body` as is; or, when `encoded` is given, already compressed in that coding. The
/// policy allows the scripts that carry `nonce`, and those they load. The language rides
/// along as a response extension, for the request counts.
pub fn respond(
    status: StatusCode,
    body: Bytes,
    encoded: Option<&'static str>,
    page: PageHeaders,
    nonce: &Nonce,
) -> Response {
    let mut response = (status, body).into_response();
    response.extensions_mut().insert(page.language);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, page_policy(nonce.as_str()));
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_LANGUAGE,
        HeaderValue::from_static(page.language.code()),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(page.cache_control),
    );
    if let Some(encoding) = encoded {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    if let Some(link) = page.link {
        headers.insert(header::LINK, link);
    }
    // Every page is chosen by its coding, whether or not this one is compressed.
    let vary = if page.vary_cookie {
        "accept-encoding, cookie"
    } else {
        "accept-encoding"
    };
    headers.insert(header::VARY, HeaderValue::from_static(vary));
    response
}
