use std::collections::BTreeMap;
use std::io::Read as _;
use std::sync::Arc;

use super::*;

const ORIGIN: &str = "https://www.example.org";
const BUILT: &str = "2026-11-22T00:00:00.000Z";

fn origin() -> Origin {
    Origin::parse(ORIGIN).unwrap()
}

/// Every language under its prefix on [`ORIGIN`].
fn placement() -> Placement {
    Placement::prefixed(crate::lang::demo(), origin())
}

/// A route whose pattern is `fr` in French and `other` in every other language.
fn route(name: &str, fr: &str, other: &str) -> DeclaredRoute {
    DeclaredRoute {
        name: name.into(),
        paths: crate::lang::demo()
            .all()
            .map(|language| {
                let pattern = if language.code() == "fr" { fr } else { other };
                (language.code().to_owned(), pattern.to_owned())
            })
            .collect::<BTreeMap<_, _>>(),
        params: BTreeMap::new(),
        loads: false,
    }
}

fn listed(route: &str, pages: &[&str]) -> SitemapRoute {
    SitemapRoute {
        route: route.into(),
        pages: pages.iter().map(|page| page.to_string()).collect(),
    }
}

fn declared() -> Vec<DeclaredRoute> {
    vec![
        route("home", "/", "/"),
        route("odd", "/a&b", "/a&b"),
        route("languages", "/langues/:code", "/languages/:code"),
        route(
            "locale",
            "/langue/:language/region/:territory",
            "/region/:territory/language/:language",
        ),
    ]
}

/// Part `part` (from 0), as sent without gzip.
fn part(sitemap: &Arc<Sitemap>, part: usize) -> String {
    let bytes: Vec<u8> = Chunks::new(sitemap.clone(), part, false)
        .flatten()
        .collect();
    String::from_utf8(bytes).unwrap()
}

#[test]
fn the_sitemap_names_each_page_in_each_language_with_its_alternates() {
    let listed = [listed("home", &[""]), listed("odd", &[""])];
    let sitemap =
        Arc::new(Sitemap::new(&placement(), &origin(), &declared(), &listed, BUILT).unwrap());
    assert_eq!(sitemap.parts(), 1);
    assert!(sitemap.index().is_none(), "one file: no index");
    let xml = part(&sitemap, 0);
    roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(
        xml.matches("<url>").count(),
        2 * crate::lang::demo().count()
    );
    assert!(xml.contains("<loc>https://www.example.org/fr/a&amp;b</loc>"));
    assert!(xml.contains(
        r#"<xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.org/"/>"#
    ));
    assert!(xml.contains("<lastmod>2026-11-22T00:00:00.000Z</lastmod>"));
}

#[test]
fn each_language_is_listed_at_its_own_path_its_parameters_filled_by_name() {
    let listed = [listed("languages", &["en"]), listed("locale", &["fr/CA"])];
    let sitemap =
        Arc::new(Sitemap::new(&placement(), &origin(), &declared(), &listed, BUILT).unwrap());
    let xml = part(&sitemap, 0);
    assert_eq!(
        xml.matches("<url>").count(),
        2 * crate::lang::demo().count()
    );
    assert!(xml.contains("<loc>https://www.example.org/fr/langues/en</loc>"));
    assert!(xml.contains("<loc>https://www.example.org/en/languages/en</loc>"));
    assert!(!xml.contains("/fr/languages/en") && !xml.contains("/en/langues/en"));
    assert!(xml.contains("<loc>https://www.example.org/fr/langue/fr/region/CA</loc>"));
    assert!(xml.contains("<loc>https://www.example.org/en/region/CA/language/fr</loc>"));
    assert_eq!(
        xml.matches(r#"hreflang="fr" href="https://www.example.org/fr/langues/en"/>"#)
            .count(),
        crate::lang::demo().count()
    );
}

#[test]
fn a_page_or_route_the_manifest_does_not_declare_is_refused() {
    let unknown = [listed("nowhere", &[""])];
    let error = Sitemap::new(&placement(), &origin(), &declared(), &unknown, BUILT)
        .err()
        .unwrap();
    assert!(
        error.contains("\"nowhere\", which it does not declare"),
        "{error}"
    );
    for page in ["", "fr", "fr/CA/x", "fr/"] {
        let wrong = [listed("locale", &[page])];
        let error = Sitemap::new(&placement(), &origin(), &declared(), &wrong, BUILT)
            .err()
            .unwrap();
        assert!(
            error.contains("takes the parameters (language, territory)"),
            "{page}: {error}"
        );
    }
}

/// 300 pages of languages and locales, cut at `bounds`.
fn many(bounds: Bounds) -> (Arc<Sitemap>, Vec<String>) {
    let codes: Vec<String> = (0..120).map(|i| format!("l{i}")).collect();
    let locales: Vec<String> = (0..180)
        .map(|i| format!("x{i}/T{}", "&".repeat(i % 7)))
        .collect();
    let listed = [
        listed("home", &[""]),
        listed(
            "languages",
            &codes.iter().map(String::as_str).collect::<Vec<_>>(),
        ),
        listed(
            "locale",
            &locales.iter().map(String::as_str).collect::<Vec<_>>(),
        ),
    ];
    let sitemap =
        Sitemap::within(&placement(), &origin(), &declared(), &listed, BUILT, bounds).unwrap();
    let sitemap = Arc::new(sitemap);
    let parts = (0..sitemap.parts()).map(|n| part(&sitemap, n)).collect();
    (sitemap, parts)
}

#[test]
fn past_its_bounds_the_sitemap_is_an_index_of_parts_each_within_both() {
    let bounds = Bounds {
        urls: 50,
        bytes: 40_000,
    };
    let (sitemap, parts) = many(bounds);
    assert!(
        parts.len() > 301 * crate::lang::demo().count() / 50,
        "{} parts",
        parts.len()
    );
    let mut locations = Vec::new();
    for xml in &parts {
        assert!(xml.len() <= bounds.bytes, "{} bytes", xml.len());
        let document = roxmltree::Document::parse(xml).unwrap();
        let urls: Vec<_> = document
            .descendants()
            .filter(|n| n.has_tag_name("url"))
            .collect();
        assert!(
            !urls.is_empty() && urls.len() <= bounds.urls,
            "{} URLs",
            urls.len()
        );
        for url in urls {
            let loc = url.children().find(|n| n.has_tag_name("loc")).unwrap();
            locations.push(loc.text().unwrap().to_string());
        }
    }
    // Every page in every language, once.
    assert_eq!(locations.len(), 301 * crate::lang::demo().count());
    let unique: std::collections::HashSet<_> = locations.iter().collect();
    assert_eq!(unique.len(), locations.len());
    // The index names each part, with the build time.
    let index = sitemap.index().unwrap();
    let document = roxmltree::Document::parse(&index).unwrap();
    let named: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("loc"))
        .map(|n| n.text().unwrap().to_string())
        .collect();
    let expected: Vec<_> = (1..=parts.len())
        .map(|n| format!("{ORIGIN}/sitemap-{n}.xml"))
        .collect();
    assert_eq!(named, expected);
    assert_eq!(
        index
            .matches(&format!("<lastmod>{BUILT}</lastmod>"))
            .count(),
        parts.len()
    );
}

#[test]
fn no_url_takes_more_than_its_route_says() {
    // Bounds so tight that each part holds one URL: each part's URLs are its bytes, framed.
    let frame = xml::URLSET_OPEN.len() + xml::URLSET_CLOSE.len();
    let (sitemap, parts) = many(Bounds {
        urls: 1,
        bytes: 1 << 20,
    });
    assert_eq!(parts.len(), 301 * crate::lang::demo().count());
    for (n, xml) in parts.iter().enumerate() {
        let (route, _, _) = sitemap.url(sitemap.parts[n].start);
        let most = most_bytes(
            &sitemap.placement,
            &sitemap.languages,
            &sitemap.routes[route],
            BUILT,
        );
        assert!(
            xml.len() - frame <= most,
            "part {n}: {} > {most}",
            xml.len() - frame
        );
    }
}

#[test]
fn a_part_sent_in_gzip_is_the_same_xml() {
    let (sitemap, parts) = many(Bounds {
        urls: 500,
        bytes: 1 << 20,
    });
    let gzipped: Vec<u8> = Chunks::new(sitemap.clone(), 1, true).flatten().collect();
    let mut xml = String::new();
    flate2::read::GzDecoder::new(&gzipped[..])
        .read_to_string(&mut xml)
        .unwrap();
    assert_eq!(xml, parts[1]);
}
