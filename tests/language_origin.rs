//! A language on an origin of its own (`--language-origin fr=https://exemple.fr`), through
//! the real binary: which origin a request is for is its `Host` (HTTP/1.1) or `:authority`
//! (HTTP/2). The language sits at its origin's root; its prefix on the site's origin answers
//! 308 to it; every absolute link (canonical, hreflang, sitemap, robots, a landing) names
//! the origin its language sits on; the app is told where each language sits.

use crate::accept_language::BROWSER;
use crate::support::binary::Host;
use crate::support::{self, block_on, h2_connect, h2_get, header};

const SITE: &str = "https://www.example.org";
const FRENCH: &str = "https://exemple.fr";
const PUBLIC: &str =
    "public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400";

fn started() -> Host {
    Host::started(&[
        "--public-url",
        SITE,
        "--language-origin",
        &format!("fr={FRENCH}"),
    ])
}

/// GET `path` on `host` as sent to the origin `authority`, with these headers.
fn ask(
    host: &Host,
    authority: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, String, reqwest::blocking::Response) {
    let mut request = support::client()
        .get(host.url(path))
        .header("host", authority)
        .header("user-agent", BROWSER);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let answer = request.send().unwrap();
    let location = header(&answer, "location");
    (answer.status().as_u16(), location, answer)
}

/// The French path of `route` without its prefix: its path at the root of exemple.fr.
fn french(route: &str) -> String {
    support::app_page("fr", route, &[])
        .strip_prefix("/fr")
        .unwrap()
        .to_string()
}

/// The `href` of the `<link rel="alternate" hreflang="{lang}">` in `html`.
fn alternate<'a>(html: &'a str, lang: &str) -> &'a str {
    support::attribute_after(html, &format!("hreflang=\"{lang}\""), "href")
        .unwrap_or_else(|| panic!("no hreflang {lang} in {html}"))
}

#[test]
fn a_language_on_its_own_origin_is_served_at_its_root_and_its_prefix_elsewhere_moves_there() {
    let host = started();
    let status = french("status");

    // On exemple.fr, French at the root: its links and the others' all absolute.
    let (code, _, answer) = ask(&host, "exemple.fr", "/", &[]);
    assert_eq!(code, 200);
    assert_eq!(header(&answer, "content-language"), "fr");
    let html = answer.text().unwrap();
    assert!(html.contains("<html lang=\"fr\""), "{html}");
    assert_eq!(
        support::attribute_after(&html, "rel=\"canonical\"", "href"),
        Some(format!("{FRENCH}/").as_str())
    );
    assert_eq!(alternate(&html, "fr"), format!("{FRENCH}/"));
    assert_eq!(alternate(&html, "en"), format!("{SITE}/en/"));
    assert_eq!(alternate(&html, "x-default"), format!("{SITE}/"));
    assert!(
        html.contains(&format!(
            r#""placement":{{"origin":"{SITE}","origins":{{"fr":"{FRENCH}"}}}}"#
        )),
        "the app is told where each language sits: {html}"
    );
    // The page's own links in French have no prefix there.
    assert!(html.contains(&format!("href=\"{status}\"")), "{html}");

    // The same origin, written as browsers and proxies may: a port that is the default,
    // capitals, a trailing dot (before a port too).
    for authority in [
        "exemple.fr:443",
        "EXEMPLE.fr",
        "exemple.fr.",
        "exemple.fr.:443",
    ] {
        let (code, _, answer) = ask(&host, authority, &status, &[]);
        assert_eq!(code, 200, "{authority}");
        assert_eq!(header(&answer, "content-language"), "fr", "{authority}");
    }

    // French's prefix on the site's origin moves for good to where French sits, query kept.
    for (path, to) in [
        ("/fr/".to_string(), format!("{FRENCH}/")),
        ("/fr".to_string(), format!("{FRENCH}/")),
        (format!("/fr{status}?x=1"), format!("{FRENCH}{status}?x=1")),
    ] {
        let (code, location, answer) = ask(&host, "www.example.org", &path, &[]);
        assert_eq!((code, location.as_str()), (308, to.as_str()), "{path}");
        assert_eq!(header(&answer, "cache-control"), PUBLIC, "{path}");
    }
    // Another language's prefix on French's origin moves to the site's origin.
    let (code, location, _) = ask(&host, "exemple.fr", "/en/", &[]);
    assert_eq!(
        (code, location.as_str()),
        (308, format!("{SITE}/en/").as_str())
    );

    // English stays under its prefix on the site's origin, French's alternate across.
    let (code, _, answer) = ask(&host, "www.example.org", "/en/", &[]);
    assert_eq!(code, 200);
    let html = answer.text().unwrap();
    assert_eq!(alternate(&html, "fr"), format!("{FRENCH}/"));
    assert_eq!(alternate(&html, "en"), format!("{SITE}/en/"));

    // An origin the operator did not name is the site's: French is not served there.
    let (code, location, _) = ask(&host, "127.0.0.1", "/fr/", &[]);
    assert_eq!(
        (code, location.as_str()),
        (308, format!("{FRENCH}/").as_str())
    );
    let (code, _, _) = ask(&host, "elsewhere.example", "/en/", &[]);
    assert_eq!(code, 200);

    // HTTP/2: the origin is the request's :authority.
    let address = host.address();
    let (head, body) = block_on(async {
        let mut client = h2_connect(&address).await;
        h2_get(&mut client, &format!("http://exemple.fr{status}"), &[]).await
    });
    assert_eq!(head.status, 200);
    assert_eq!(head.headers["content-language"], "fr");
    assert!(String::from_utf8_lossy(&body).contains("<html lang=\"fr\""));
    // Its fully qualified name, port and all, is the same origin.
    let (head, _) = block_on(async {
        let mut client = h2_connect(&address).await;
        h2_get(
            &mut client,
            &format!("https://exemple.fr.:443{status}"),
            &[],
        )
        .await
    });
    assert_eq!(head.status, 200);
    assert_eq!(head.headers["content-language"], "fr");
}

#[test]
fn the_site_origin_leads_a_visitor_who_chose_french_across_and_each_origin_has_its_own_crawler_files()
 {
    let host = started();

    // A landing on the site's origin: to French's origin, absolute, by the cookie or the
    // visitor's language; English stays on the site's origin.
    for (headers, to) in [
        (vec![("cookie", "bilingue_lang=fr")], format!("{FRENCH}/")),
        (
            vec![("accept-language", "fr-CA,fr;q=0.9")],
            format!("{FRENCH}/"),
        ),
        (vec![("accept-language", "en-GB")], "/en/".to_string()),
    ] {
        let (code, location, _) = ask(&host, "www.example.org", "/", &headers);
        assert_eq!((code, location.as_str()), (302, to.as_str()), "{headers:?}");
    }
    // On French's origin the root is French's page, whatever the cookie says.
    let (code, _, answer) = ask(&host, "exemple.fr", "/", &[("cookie", "bilingue_lang=en")]);
    assert_eq!(code, 200);
    assert_eq!(header(&answer, "content-language"), "fr");

    // robots.txt names each origin's own sitemap.
    let (_, _, robots) = ask(&host, "exemple.fr", "/robots.txt", &[]);
    assert!(
        robots
            .text()
            .unwrap()
            .contains(&format!("Sitemap: {FRENCH}/sitemap.xml"))
    );
    let (_, _, robots) = ask(&host, "www.example.org", "/robots.txt", &[]);
    assert!(
        robots
            .text()
            .unwrap()
            .contains(&format!("Sitemap: {SITE}/sitemap.xml"))
    );

    // Each origin's sitemap lists its own pages, with their alternates across origins.
    let (code, _, sitemap) = ask(&host, "exemple.fr", "/sitemap.xml", &[]);
    assert_eq!(code, 200);
    let french_map = sitemap.text().unwrap();
    assert!(
        french_map.contains(&format!("<loc>{FRENCH}/</loc>")),
        "{french_map}"
    );
    assert!(
        !french_map.contains(&format!("<loc>{SITE}")),
        "{french_map}"
    );
    assert!(
        french_map.contains(&format!(r#"hreflang="en" href="{SITE}/en/""#)),
        "{french_map}"
    );
    let (_, _, sitemap) = ask(&host, "www.example.org", "/sitemap.xml", &[]);
    let site_map = sitemap.text().unwrap();
    assert!(
        site_map.contains(&format!("<loc>{SITE}/en/</loc>")),
        "{site_map}"
    );
    assert!(!site_map.contains(&format!("<loc>{FRENCH}")), "{site_map}");
    assert!(
        site_map.contains(&format!(r#"hreflang="fr" href="{FRENCH}/""#)),
        "{site_map}"
    );
}

#[test]
fn a_language_origin_that_cannot_be_is_refused_at_start_up_with_the_option_named() {
    for (value, why) in [
        ("de=https://beispiel.de", "not one of the site's languages"),
        ("fr=https://www.example.org", "already the site's"),
        ("fr", "no `=`"),
        ("fr=exemple.fr", "its origin"),
    ] {
        let exit = Host::run(
            &["--public-url", SITE, "--language-origin", value],
            std::time::Duration::from_secs(30),
        );
        assert!(!exit.status.success(), "{value}");
        assert!(
            exit.logs.contains("--language-origin") && exit.logs.contains(why),
            "{value}: {}",
            exit.logs
        );
    }
    // Twice the same language, through the variable.
    let exit = Host::run_with(
        &["--public-url", SITE],
        &[(
            "BILINGUE_LANGUAGE_ORIGIN",
            "fr=https://exemple.fr,fr=https://exemple.ca",
        )],
        std::time::Duration::from_secs(30),
    );
    assert!(!exit.status.success());
    assert!(exit.logs.contains("given an origin twice"), "{}", exit.logs);
}
