//! The HTML document around the rendered markup: language signals (`<html lang>`, the
//! content-language meta and header, hreflang alternates), the title, the preloads of the
//! active language's chunks and the boot state. Everything per build is computed once.

use std::collections::HashMap;

use askama::Template;
use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::assets::{MANIFEST_PARSED, PREFIX};
use crate::escape::json_for_script;
use crate::lang::Language;
use crate::nonce::Nonce;
use crate::render::Rendered;
use crate::security::page_policy;

/// The asset URLs a document names, from the manifest, ready per language.
pub struct DocumentAssets {
    entry: String,
    icon: String,
    styles: Vec<String>,
    preloads: HashMap<&'static str, Vec<String>>,
}

impl DocumentAssets {
    pub fn from_manifest() -> Self {
        let manifest = &*MANIFEST_PARSED;
        let url = |name: &String| format!("{PREFIX}{name}");
        let preloads = Language::all()
            .map(|language| {
                let own = manifest
                    .languages
                    .get(language.code())
                    .into_iter()
                    .flatten();
                (
                    language.code(),
                    manifest.preload.iter().chain(own).map(url).collect(),
                )
            })
            .collect();
        Self {
            entry: url(&manifest.entry),
            icon: url(&manifest.icon),
            styles: manifest.css.iter().map(url).collect(),
            preloads,
        }
    }

    fn preloads(&self, language: &str) -> &[String] {
        self.preloads.get(language).map_or(&[], Vec::as_slice)
    }
}

pub struct Alternate {
    hreflang: &'static str,
    href: String,
}

/// `<link rel="alternate">` for each language's URL of the page, and x-default (unprefixed).
pub fn alternates(rest: &str) -> Vec<Alternate> {
    let mut links: Vec<Alternate> = Language::all()
        .map(|language| Alternate {
            hreflang: language.code(),
            href: format!("/{}{rest}", language.code()),
        })
        .collect();
    links.push(Alternate {
        hreflang: "x-default",
        href: rest.to_string(),
    });
    links
}

#[derive(Template)]
#[template(path = "page.html", config = "host/askama.toml")]
struct Document<'a> {
    lang: &'a str,
    title: &'a str,
    alternates: &'a [Alternate],
    assets: &'a DocumentAssets,
    markup: &'a str,
    boot: &'a str,
    nonce: &'a str,
}

/// The whole document of a rendered screen; `nonce` goes on every script and preload.
pub fn document(
    assets: &DocumentAssets,
    language: Language,
    rendered: &Rendered,
    alternates: &[Alternate],
    nonce: &Nonce,
) -> Result<String, askama::Error> {
    let boot = json_for_script(rendered.boot.get());
    Document {
        lang: language.code(),
        title: &rendered.title,
        alternates,
        assets,
        markup: &rendered.html,
        boot: &boot,
        nonce: nonce.as_str(),
    }
    .render()
}

/// A document with no rendered markup: the browser renders the screen itself. Sent when
/// the server render failed, timed out or could not be queued, so the visitor still gets
/// a working page with the language signals; the boot state has `app/boot.ts`'s shape.
pub fn shell(
    assets: &DocumentAssets,
    language: Language,
    title: &str,
    path: &str,
    time_zone: &str,
    nonce: &Nonce,
) -> Result<String, askama::Error> {
    let boot =
        serde_json::json!({ "language": language.code(), "path": path, "timeZone": time_zone })
            .to_string();
    Document {
        lang: language.code(),
        title,
        alternates: &[],
        assets,
        markup: "",
        boot: &json_for_script(&boot),
        nonce: nonce.as_str(),
    }
    .render()
}

/// The headers a page answers with, besides its body's.
pub struct PageHeaders {
    pub language: Language,
    pub cache_control: &'static str,
    /// Request headers the page depends on, besides `Accept-Encoding`.
    pub vary_cookie: bool,
}

/// `body` as is; or, when `encoded` is given, already compressed in that encoding. The
/// policy allows the scripts that carry `nonce`, and those they load.
pub fn respond(
    status: StatusCode,
    body: Bytes,
    encoded: Option<&'static str>,
    page: PageHeaders,
    nonce: &Nonce,
) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, page_policy(nonce));
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
        let vary = if page.vary_cookie {
            "accept-encoding, cookie"
        } else {
            "accept-encoding"
        };
        headers.insert(header::VARY, HeaderValue::from_static(vary));
    } else if page.vary_cookie {
        headers.insert(header::VARY, HeaderValue::from_static("cookie"));
    }
    response
}
