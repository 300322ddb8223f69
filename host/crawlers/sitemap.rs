//! `/sitemap.xml`: every indexable page the app declares, in every language at its path
//! there, each with its alternates, as the pages' own links name them.

use std::collections::BTreeMap;

use crate::lang::Language;
use crate::links::page_links;
use crate::origin::Origin;

/// One `<url>` per page and language, each naming every language's version and
/// x-default, as the pages' own alternates do. `indexable`: each page's path in every
/// language, by code (the build writes them all; a page lacking one is left out).
pub(super) fn sitemap(
    origin: &Origin,
    indexable: &[BTreeMap<String, String>],
    built_at: &str,
) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
         xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    let complete = indexable
        .iter()
        .filter(|page| Language::all().all(|language| page.contains_key(language.code())));
    for page in complete {
        for language in Language::all() {
            let links = page_links(origin, language, |language| &page[language.code()]);
            xml.push_str("  <url>\n");
            xml.push_str(&format!(
                "    <loc>{}</loc>\n",
                escape_xml(links.canonical())
            ));
            xml.push_str(&format!(
                "    <lastmod>{}</lastmod>\n",
                escape_xml(built_at)
            ));
            for (hreflang, href) in links.alternates() {
                xml.push_str(&format!(
                    "    <xhtml:link rel=\"alternate\" hreflang=\"{hreflang}\" href=\"{}\"/>\n",
                    escape_xml(href)
                ));
            }
            xml.push_str("  </url>\n");
        }
    }
    xml.push_str("</urlset>\n");
    xml
}

fn escape_xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn everywhere(path: &str) -> BTreeMap<String, String> {
        Language::all()
            .map(|language| (language.code().to_owned(), path.to_owned()))
            .collect()
    }

    #[test]
    fn the_sitemap_names_each_page_in_each_language_with_its_alternates() {
        let origin = Origin::parse("https://www.example.org").unwrap();
        let xml = sitemap(
            &origin,
            &[everywhere("/"), everywhere("/a&b")],
            "2026-11-22T00:00:00.000Z",
        );
        assert_eq!(xml.matches("<url>").count(), 2 * Language::count());
        assert!(xml.contains("<loc>https://www.example.org/fr/a&amp;b</loc>"));
        assert!(xml.contains(
            r#"<xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.org/"/>"#
        ));
        assert!(xml.contains("<lastmod>2026-11-22T00:00:00.000Z</lastmod>"));
    }

    #[test]
    fn each_language_is_listed_at_its_own_path() {
        let origin = Origin::parse("https://www.example.org").unwrap();
        let mut page = everywhere("/languages/en");
        page.insert("fr".into(), "/langues/en".into());
        let mut lacking = everywhere("/x");
        lacking.remove("en");
        let xml = sitemap(&origin, &[page, lacking], "2026");
        assert_eq!(xml.matches("<url>").count(), Language::count());
        assert!(xml.contains("<loc>https://www.example.org/fr/langues/en</loc>"));
        assert!(xml.contains("<loc>https://www.example.org/en/languages/en</loc>"));
        assert!(!xml.contains("/fr/languages/en") && !xml.contains("/en/langues/en"));
        assert_eq!(
            xml.matches(r#"hreflang="fr" href="https://www.example.org/fr/langues/en"/>"#)
                .count(),
            Language::count()
        );
    }
}
