//! What crawlers read, over real HTTP: every page's canonical URL, alternates (in the HTML
//! and the `Link` header), description and Open Graph, all absolute from `--public-url`
//! and never from the request; the sitemap and robots.txt; `--no-index`; and a crawler
//! told to come back rather than given an empty page.

use std::sync::OnceLock;

use crate::support::binary::Host;
use crate::support::{self, client, header};

const ORIGIN: &str = "https://www.example.org";

fn host() -> &'static str {
    static HOST: OnceLock<String> = OnceLock::new();
    HOST.get_or_init(|| support::start(&["--render-threads", "1", "--public-url", ORIGIN]))
}

fn page(path: &str) -> (reqwest::blocking::Response, String) {
    let response = client().get(format!("{}{path}", host())).send().unwrap();
    let html = reqwest::blocking::get(format!("{}{path}", host()))
        .unwrap()
        .text()
        .unwrap();
    (response, html)
}

/// The languages the host serves, in the list's order (its own status says).
fn languages() -> Vec<String> {
    let status: serde_json::Value = client()
        .get(format!("{}/api/status", host()))
        .send()
        .unwrap()
        .json()
        .unwrap();
    serde_json::from_value(status["languages"].clone()).unwrap()
}

/// Every page of the app's routes, a parameter being `en` (a language the built-in API
/// knows): (route, its parameters).
fn every_page() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    bilingue::declared_routes()
        .iter()
        .map(|route| {
            let pattern = route.paths.values().next().unwrap();
            let params = pattern
                .split('/')
                .filter_map(|part| part.strip_prefix(':'))
                .map(|name| (name, "en"))
                .collect();
            (route.name.as_str(), params)
        })
        .collect()
}

#[test]
fn every_page_names_its_canonical_url_and_alternates_absolutely() {
    let languages = languages();
    let og_locale = |code: &str| match code {
        "fr" => "fr_FR",
        _ => "en_US",
    };
    for (route, params) in every_page() {
        for language in &languages {
            let path = support::app_page(language, route, &params);
            let (response, html) = page(&path);
            assert_eq!(response.status(), 200, "{path}");
            let canonical = format!("{ORIGIN}{path}");
            assert!(
                html.contains(&format!(r#"<link rel="canonical" href="{canonical}">"#)),
                "{path}: {html}"
            );
            // Each language's version at its own path there, and x-default at the
            // default language's, unprefixed.
            let default = &languages[0];
            let unprefixed =
                support::app_page(default, route, &params)[default.len() + 1..].to_string();
            let alternates = languages
                .iter()
                .map(|other| {
                    (
                        other.as_str(),
                        format!("{ORIGIN}{}", support::app_page(other, route, &params)),
                    )
                })
                .chain([("x-default", format!("{ORIGIN}{unprefixed}"))]);
            for (hreflang, href) in alternates {
                assert!(
                    html.contains(&format!(
                        r#"<link rel="alternate" hreflang="{hreflang}" href="{href}">"#
                    )),
                    "{path}: {hreflang}"
                );
                assert!(
                    header(&response, "link").contains(&format!(
                        r#"<{href}>; rel="alternate"; hreflang="{hreflang}""#
                    )),
                    "{path}: Link {hreflang}"
                );
            }
            assert!(html.contains(&format!(
                r#"<meta property="og:url" content="{canonical}">"#
            )));
            assert!(html.contains(&format!(
                r#"<meta property="og:locale" content="{}">"#,
                og_locale(language)
            )));
            for other in languages.iter().filter(|other| *other != language) {
                assert!(html.contains(&format!(
                    r#"<meta property="og:locale:alternate" content="{}">"#,
                    og_locale(other)
                )));
            }
            for property in ["og:title", "og:description"] {
                assert!(html.contains(&format!(r#"<meta property="{property}" content=""#)));
            }
        }
    }
    let (_, french) = page(&support::app_page("fr", "home", &[]));
    assert!(french.contains(
        r#"<meta name="description" content="Bilingue rend chaque page sur le serveur, en français ou en anglais, puis l’anime dans votre navigateur.">"#
    ));
    assert!(french.contains(r#"<meta property="og:title" content="Accueil · Bilingue">"#));
    let (_, english) = page(&support::app_page("en", "status", &[]));
    assert!(english.contains(
        r#"<meta name="description" content="The Bilingue server’s version, languages and time, right now.">"#
    ));
}

#[test]
fn a_404_names_no_canonical_url_and_no_alternates() {
    for path in ["/en/nowhere", "/de/"] {
        let (response, html) = page(path);
        assert_eq!(response.status(), 404);
        assert_eq!(header(&response, "link"), "", "{path}");
        assert!(!html.contains("rel=\"canonical\""), "{path}");
        assert!(!html.contains("hreflang"), "{path}");
        assert!(!html.contains("og:url"), "{path}");
        assert!(html.contains(r#"<meta name="description""#), "{path}");
    }
}

#[test]
fn a_forged_host_changes_no_url_in_any_page_cached_or_not() {
    let status = support::app_page("en", "status", &[]);
    for path in ["/fr/", "/fr/", &status, "/status", "/en/nowhere"] {
        let response = client()
            .get(format!("{}{path}", host()))
            .header("host", "evil.example")
            .header("x-forwarded-host", "evil.example")
            .header("x-forwarded-proto", "gopher")
            .header("forwarded", "host=evil.example;proto=gopher")
            .send()
            .unwrap();
        let link = header(&response, "link");
        let html = response.text().unwrap();
        assert!(
            !html.contains("evil") && !link.contains("evil") && !html.contains("gopher"),
            "{path}"
        );
    }
    let sitemap = client()
        .get(format!("{}/sitemap.xml", host()))
        .header("host", "evil.example")
        .send()
        .unwrap()
        .text()
        .unwrap();
    assert!(!sitemap.contains("evil"));
}

/// The route a URL path names in `language`'s words, and its parameters' segments; none
/// when no route of the app takes it there.
fn page_of(language: &str, path: &str) -> Option<(String, Vec<String>)> {
    let rest = path.strip_prefix(&format!("/{language}"))?;
    bilingue::declared_routes().iter().find_map(|route| {
        let pattern = &route.paths[language];
        let (parts, segments): (Vec<_>, Vec<_>) =
            (pattern.split('/').collect(), rest.split('/').collect());
        if parts.len() != segments.len() {
            return None;
        }
        let mut params = Vec::new();
        for (part, segment) in parts.iter().zip(&segments) {
            match part.strip_prefix(':') {
                Some(name) => params.push(format!("{name}={segment}")),
                None if part == segment => {}
                None => return None,
            }
        }
        params.sort();
        Some((route.name.clone(), params))
    })
}

#[test]
fn the_sitemap_lists_every_page_in_every_language_with_its_alternates() {
    let response = client()
        .get(format!("{}/sitemap.xml", host()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        header(&response, "content-type"),
        "application/xml; charset=utf-8"
    );
    let xml = response.text().unwrap();
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let sitemaps = "http://www.sitemaps.org/schemas/sitemap/0.9";
    let xhtml = "http://www.w3.org/1999/xhtml";
    let urls: Vec<_> = document
        .descendants()
        .filter(|node| node.has_tag_name((sitemaps, "url")))
        .collect();
    let languages = languages();
    let mut locations = Vec::new();
    for url in &urls {
        let child = |name: &str| {
            url.children()
                .find(|node| node.has_tag_name((sitemaps, name)))
                .and_then(|node| node.text())
                .unwrap()
                .to_string()
        };
        let location = child("loc");
        assert!(location.starts_with(ORIGIN), "{location}");
        assert!(child("lastmod").ends_with('Z'), "a build time");
        let alternates: Vec<(String, String)> = url
            .children()
            .filter(|node| node.has_tag_name((xhtml, "link")))
            .map(|node| {
                (
                    node.attribute("hreflang").unwrap().to_string(),
                    node.attribute("href").unwrap().to_string(),
                )
            })
            .collect();
        let hreflangs: Vec<&str> = alternates.iter().map(|(l, _)| l.as_str()).collect();
        let mut expected = languages.clone();
        expected.push("x-default".into());
        assert_eq!(hreflangs, expected, "{location}");
        assert!(alternates.iter().all(|(_, href)| href.starts_with(ORIGIN)));
        // One page: the same route and parameters in every language, each at its own path.
        let pages: Vec<(String, Vec<String>)> = alternates
            .iter()
            .take(languages.len())
            .map(|(hreflang, href)| {
                page_of(hreflang, &href[ORIGIN.len()..])
                    .unwrap_or_else(|| panic!("{href} is no page of {hreflang}"))
            })
            .collect();
        assert!(
            pages.windows(2).all(|two| two[0] == two[1]),
            "{location}: {alternates:?}"
        );
        assert!(alternates.iter().any(|(_, href)| *href == location));
        locations.push((location, pages[0].clone()));
    }
    // Each page once in every language, and every one a page.
    for (location, page) in &locations {
        let same = locations.iter().filter(|(_, other)| other == page).count();
        assert_eq!(same, languages.len(), "{location}");
        let answer = client()
            .get(format!("{}{}", host(), &location[ORIGIN.len()..]))
            .send()
            .unwrap();
        assert_eq!(answer.status(), 200, "{location}");
    }
    assert!(!locations.is_empty());
    let gzip = client()
        .get(format!("{}/sitemap.xml", host()))
        .header("accept-encoding", "gzip")
        .send()
        .unwrap();
    assert_eq!(header(&gzip, "content-encoding"), "gzip");
}

#[test]
fn robots_txt_allows_crawling_and_names_the_sitemap() {
    let response = client()
        .get(format!("{}/robots.txt", host()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        header(&response, "content-type"),
        "text/plain; charset=utf-8"
    );
    assert_eq!(
        response.text().unwrap(),
        format!("User-agent: *\nAllow: /\n\nSitemap: {ORIGIN}/sitemap.xml\n")
    );
}

#[test]
fn no_index_disallows_everything_and_marks_every_answer() {
    let host = support::start(&["--render-threads", "1", "--no-index"]);
    let robots = client().get(format!("{host}/robots.txt")).send().unwrap();
    assert_eq!(robots.text().unwrap(), "User-agent: *\nDisallow: /\n");
    for path in [
        "/fr/".to_string(),
        "/en/nowhere".into(),
        "/api/status".into(),
        "/healthz".into(),
        format!("/fr/{}", "a".repeat(5000)),
    ] {
        let response = client().get(format!("{host}{path}")).send().unwrap();
        assert_eq!(header(&response, "x-robots-tag"), "noindex", "{path:.20}");
    }
    let indexed = client()
        .get(format!("{}/fr/", self::host()))
        .send()
        .unwrap();
    assert_eq!(header(&indexed, "x-robots-tag"), "", "only with --no-index");
}

#[test]
fn without_a_public_url_the_origin_is_localhost_and_its_port() {
    let host = support::start(&["--render-threads", "1"]);
    let port = host.rsplit(':').next().unwrap();
    let html = support::text(format!("{host}/en/"));
    assert!(
        html.contains(&format!(
            r#"<link rel="canonical" href="http://localhost:{port}/en/">"#
        )),
        "{html}"
    );
}

#[test]
fn a_malformed_public_url_stops_start_up_with_a_valid_example() {
    for value in [
        "www.example.org",
        "https://example.org/site",
        "ftp://example.org",
        // A host that is not a host name would reach the Link header and robots.txt raw.
        "http://x\"y.example",
        "http://x<y.example",
        "http://a b.example",
        "http://x'y.example",
        "http://-x.example",
        "http://x_y.example",
    ] {
        let error = support::start_error(&["--public-url", value]).expect("start-up fails");
        assert!(
            error.contains("--public-url") && error.contains("e.g. https://www.example.org"),
            "{error}"
        );
    }
}

#[test]
fn listening_beyond_this_machine_without_a_public_url_is_warned_about() {
    let host = Host::started(&["--bind", "0.0.0.0"]);
    assert!(
        host.logs().contains("without --public-url"),
        "{}",
        host.logs()
    );
    let quiet = Host::started(&["--public-url", ORIGIN]);
    assert!(!quiet.logs().contains("without --public-url"));
}

#[test]
fn a_crawler_is_told_to_come_back_when_the_page_cannot_be_rendered() {
    let bundle = support::FAULTY_BUNDLE.to_string();
    let host = Host::started(&["--server-bundle", &bundle, "--public-url", ORIGIN]);
    let googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0";
    let crawler = client()
        .get(host.url("/fr/throw"))
        .header("user-agent", googlebot)
        .send()
        .unwrap();
    assert_eq!(crawler.status(), 503);
    assert_eq!(header(&crawler, "retry-after"), "30");
    assert_eq!(header(&crawler, "cache-control"), "no-store");
    // In the page's language, from the app's tables.
    assert_eq!(
        crawler.text().unwrap(),
        "Le service est momentanément indisponible ; réessayez plus tard.\n"
    );
    let english = client()
        .get(host.url("/en/throw"))
        .header("user-agent", googlebot)
        .send()
        .unwrap();
    assert_eq!(english.status(), 503);
    assert_eq!(
        english.text().unwrap(),
        "The service is briefly unavailable; try again later.\n"
    );
    let person = client()
        .get(host.url("/fr/throw"))
        .header("user-agent", firefox)
        .send()
        .unwrap();
    assert_eq!(person.status(), 200);
    let link = header(&person, "link");
    let html = person.text().unwrap();
    assert!(
        html.contains(r#"<div id="app"></div>"#),
        "the client-rendered page"
    );
    assert!(
        html.contains(&format!(
            r#"<link rel="canonical" href="{ORIGIN}/fr/throw">"#
        )),
        "it still names its URLs: {html}"
    );
    assert!(link.contains("hreflang=\"x-default\""));
    // A page that renders is a page, for crawlers too.
    let rendered = client()
        .get(host.url("/fr/fine"))
        .header("user-agent", googlebot)
        .send()
        .unwrap();
    assert_eq!(rendered.status(), 200);
}
