//! The languages screen over real HTTP: one page per supported language, rendered on the
//! server with its data from `GET /api/languages/:code`, public for caches; an unknown code
//! is a 404 page, and so is a code that cannot be one, before any call to the API.

use axum::http::StatusCode;
use axum::routing::any;

use crate::support::upstream::Upstream;
use crate::support::{self, get_with, header};

/// A browser's User-Agent: a person's page (a crawler's is rendered the same, whole).
const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0";
const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

#[test]
fn a_languages_page_is_rendered_with_its_data_and_shared_publicly() {
    let path = support::app_page("en", "languages", &[("code", "fr")]);
    let response = get_with(&path, "user-agent", BROWSER);
    assert_eq!(response.status(), 200);
    let cache_control = header(&response, "cache-control");
    assert!(cache_control.starts_with("public, "), "{cache_control}");
    let html = response.text().unwrap();
    assert!(
        html.contains(r#"<h1 lang="fr" dir="ltr">Français</h1>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<dd class="sample-date" lang="fr" dir="ltr">jeudi 15 janvier 2026</dd>"#)
    );
    assert!(
        html.contains(r#"<dd class="sample-plural" lang="fr" dir="ltr">2 langues parlées</dd>"#)
    );
    assert!(html.contains("<title>A language of Bilingue · Bilingue</title>"));
    assert!(
        html.contains(r#""data":{"ok":true,"data":{"code":"fr","#),
        "the boot state carries the data"
    );
}

#[test]
fn an_unknown_language_is_a_404_page() {
    let path = support::app_page("fr", "languages", &[("code", "zz")]);
    let response = get_with(&path, "user-agent", BROWSER);
    assert_eq!(response.status(), 404);
    let cache_control = header(&response, "cache-control");
    assert!(
        cache_control.contains("max-age=60"),
        "a 404 is kept a minute at most: {cache_control}"
    );
    let html = response.text().unwrap();
    assert!(html.contains("<h1>Langue inconnue</h1>"), "{html}");
    assert!(!html.contains(r#"rel="canonical""#), "a 404 names no links");
}

/// The host's route table decides which page a request is, the route's form included: the
/// render is handed its route and parameters in the boot state, and the page's links write
/// the parameter as the app writes it, whatever escapes the request came with.
#[test]
fn the_page_rendered_is_the_one_the_hosts_route_table_found() {
    let canonical = |html: &str| {
        let link = html.split(r#"<link rel="canonical" href=""#).nth(1);
        link.and_then(|rest| rest.split('"').next())
            .map(str::to_owned)
    };
    let asked = support::app_page("fr", "languages", &[("code", "%65n")]);
    let written = support::app_page("fr", "languages", &[("code", "en")]);
    let response = get_with(&asked, "user-agent", BROWSER);
    assert_eq!(response.status(), 200);
    let html = response.text().unwrap();
    assert!(
        html.contains(r#""page":{"route":"languages","params":{"code":"en"}}"#),
        "{html}"
    );
    assert!(
        canonical(&html).is_some_and(|url| url.ends_with(&written)),
        "{:?}, not {asked}",
        canonical(&html)
    );
    // A value the route's form refuses: no page of the route, for the host as for the app.
    let refused = support::app_page("fr", "languages", &[("code", "x_y")]);
    let response = get_with(&refused, "user-agent", BROWSER);
    assert_eq!(response.status(), 404);
    let html = response.text().unwrap();
    assert!(
        html.contains(r#""page":{"route":null,"params":{}}"#),
        "{html}"
    );
    assert!(html.contains("<h1>Page introuvable</h1>"), "{html}");
}

/// Paths whose parameter cannot name anything (dot segments however written, separators,
/// NUL), or is not of the form its route declares: the not-found page, for a person and a
/// crawler alike, with no links and no word of the host's, and no call reaches the API.
#[test]
fn a_parameter_that_cannot_name_a_language_is_a_404_without_a_call_to_the_api() {
    let upstream = Upstream::builder()
        .route(
            "/{*rest}",
            any(|| async {
                let error = serde_json::json!({ "error": "no such language" });
                (StatusCode::NOT_FOUND, axum::Json(error))
            }),
        )
        .start();
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let address = host.trim_start_matches("http://");
    let paths = [
        "..",
        "%2e%2e",
        ".",
        "%00",
        "en%00",
        "en%2f",
        "..%2fstatus",
        "%EF%BC%8E%EF%BC%8E",
        "a%2Fb",
        "a%5Cb",
        "english",
    ]
    .map(|code| support::app_page("fr", "languages", &[("code", code)]));
    for path in &paths {
        for agent in [BROWSER, GOOGLEBOT] {
            let request = format!(
                "GET {path} HTTP/1.1\r\nHost: {address}\r\nUser-Agent: {agent}\r\nConnection: close\r\n\r\n"
            );
            let answer = support::raw_exchange(address, request.as_bytes());
            assert!(
                answer.starts_with("HTTP/1.1 404"),
                "{path}, {agent}: {answer}"
            );
            assert!(
                answer.contains("<h1>Page introuvable</h1>"),
                "{path}: {answer}"
            );
            assert!(!answer.contains("path segment"), "{path}: {answer}");
            assert!(
                !answer.contains(r#"rel="canonical""#) && !answer.contains(r#"rel="alternate""#),
                "{path}: a 404 names no links: {answer}"
            );
        }
    }
    assert_eq!(upstream.seen().len(), 0, "no call reached the API");
    // A code of the right form is asked of the API, and its 404 is the page's.
    let response = support::client()
        .get(format!(
            "{host}{}",
            support::app_page("fr", "languages", &[("code", "zz")])
        ))
        .send()
        .unwrap();
    assert_eq!(response.status(), 404);
    assert!(
        response
            .text()
            .unwrap()
            .contains("<h1>Langue inconnue</h1>")
    );
    assert_eq!(upstream.seen().len(), 1);
}

/// The boot state says the same over HTTP/2 as over HTTP/1: the page the route table found
/// (its parameter as the app writes it, whatever escapes it came with) and the module of
/// its own messages, the one the document preloads for them; a route whose messages are
/// the first load's (the home page) names none.
/// The boot state's module of the page's own messages, and a document's module preload.
const BOOT_MESSAGES: &str = r#""messages":""#;
const MODULE_PRELOAD: &str = r#"<link rel="modulepreload" href=""#;

#[test]
fn over_http2_and_http1_the_boot_state_names_the_page_and_its_messages_module() {
    let base = support::base_url();
    let address = base.trim_start_matches("http://").to_string();
    let languages = support::app_page("fr", "languages", &[("code", "%65n")]);
    let home = support::app_page("fr", "home", &[]);
    let person = [("user-agent".to_string(), BROWSER.to_string())];
    let over_h2 = support::block_on(async {
        let mut client = support::h2_connect(&address).await;
        let mut pages = Vec::new();
        for path in [&languages, &home] {
            let (head, body) =
                support::h2_get(&mut client, &format!("{base}{path}"), &person).await;
            assert_eq!(head.status, 200, "{path}");
            pages.push(String::from_utf8(body).unwrap());
        }
        pages
    });
    let over_h1 =
        [&languages, &home].map(|path| get_with(path, "user-agent", BROWSER).text().unwrap());
    for (protocol, [languages, home]) in [
        ("HTTP/2", <[String; 2]>::try_from(over_h2).unwrap()),
        ("HTTP/1.1", over_h1),
    ] {
        assert!(
            languages.contains(r#""page":{"route":"languages","params":{"code":"en"}}"#),
            "{protocol}: {languages}"
        );
        let named: Vec<&str> = support::quoted_after(&languages, BOOT_MESSAGES).collect();
        let preloaded: Vec<&str> = support::quoted_after(&languages, MODULE_PRELOAD)
            .filter(|href| href.starts_with("/assets/messages-fr-"))
            .collect();
        assert_eq!(named.as_slice(), preloaded.as_slice(), "{protocol}");
        assert_eq!(
            named.len(),
            1,
            "{protocol}: the languages route has messages of its own"
        );
        assert!(
            home.contains(r#""page":{"route":"home","params":{}}"#),
            "{protocol}: {home}"
        );
        assert_eq!(
            support::quoted_after(&home, BOOT_MESSAGES).count(),
            0,
            "{protocol}: the home page's are the first load's"
        );
    }
}
