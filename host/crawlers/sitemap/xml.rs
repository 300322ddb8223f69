//! The sitemap's XML, as sitemaps.org writes it, with Google's cross-language alternates
//! (`xhtml:link`): a `<url>` names a page in one language, its build time, and every
//! language's version with x-default, as the page's own links do (`crate::links`); an
//! index names each part.

use crate::lang::Language;
use crate::links::page_links;
use crate::origin::Origin;
use crate::placement::Placement;

pub(super) const URLSET_OPEN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
    <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
    xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
pub(super) const URLSET_CLOSE: &str = "</urlset>\n";

/// One `<url>`: the page whose path in each language `paths` gives (by
/// [`Language::index`]), in `language`.
pub(super) fn write_url(
    out: &mut String,
    placement: &Placement,
    language: Language,
    paths: &[String],
    built_at: &str,
) {
    let links = page_links(placement, language, |language| &paths[language.index()]);
    out.push_str("  <url>\n    <loc>");
    escape_into(out, links.canonical());
    out.push_str("</loc>\n    <lastmod>");
    escape_into(out, built_at);
    out.push_str("</lastmod>\n");
    for (hreflang, href) in links.alternates() {
        out.push_str("    <xhtml:link rel=\"alternate\" hreflang=\"");
        out.push_str(hreflang.as_str());
        out.push_str("\" href=\"");
        escape_into(out, href);
        out.push_str("\"/>\n");
    }
    out.push_str("  </url>\n");
}

/// The index of `parts` parts: `/sitemap-1.xml` to `/sitemap-N.xml`.
pub(super) fn index(origin: &Origin, parts: usize, built_at: &str) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for part in 1..=parts {
        xml.push_str("  <sitemap>\n    <loc>");
        escape_into(&mut xml, &origin.url(&part_path(part)));
        xml.push_str("</loc>\n    <lastmod>");
        escape_into(&mut xml, built_at);
        xml.push_str("</lastmod>\n  </sitemap>\n");
    }
    xml.push_str("</sitemapindex>\n");
    xml
}

/// Where part `part` (from 1) is served.
pub(in crate::crawlers) fn part_path(part: usize) -> String {
    format!("/sitemap-{part}.xml")
}

/// `text` as XML text or a quoted attribute's value.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// How long `text` is once escaped.
pub(super) fn escaped_len(text: &str) -> usize {
    text.len()
        + text
            .bytes()
            .map(|b| match b {
                b'&' => 4,
                b'<' | b'>' => 3,
                b'"' => 5,
                _ => 0,
            })
            .sum::<usize>()
}
