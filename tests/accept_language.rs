//! `/`, and every path without a language prefix, through the real binary: a visitor
//! without the language cookie is led to the site's language their `Accept-Language` asks
//! for (RFC 4647 lookup), over HTTP/1.1 and HTTP/2, GET and HEAD; a saved choice and a
//! crawler keep their way; the way says what a shared cache may key it on. (Behind Varnish
//! with the VCL we ship: `shipped_vcl.rs`.)

use reqwest::header::HeaderValue;

use crate::support::binary::Host;
use crate::support::{self, block_on, h2_connect, h2_get, header};

/// Headers real browsers send, each with the languages it may lead to, best first; the
/// site's list decides which of them it offers (none: its default).
pub const BROWSERS: [(&str, &[&str]); 16] = [
    ("fr-CA,fr;q=0.9,en;q=0.8", &["fr-CA", "fr", "en"]),
    ("de-AT", &["de-AT", "de"]),
    ("en-GB,en-US;q=0.9", &["en-GB", "en", "en-US"]),
    ("en-US,en;q=0.9", &["en-US", "en"]),
    (
        "fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7",
        &["fr-FR", "fr", "en-US", "en"],
    ),
    (
        "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7",
        &["de-DE", "de", "en-US", "en"],
    ),
    ("en-US", &["en-US", "en"]),
    ("fr", &["fr"]),
    ("en", &["en"]),
    (
        "pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7",
        &["pt-BR", "pt", "en-US", "en"],
    ),
    ("ja,en-US;q=0.9,en;q=0.8", &["ja", "en-US", "en"]),
    (
        "nl-BE,nl;q=0.9,fr-BE;q=0.8,fr;q=0.7",
        &["nl-BE", "nl", "fr-BE", "fr"],
    ),
    ("es-419,es;q=0.9", &["es-419", "es"]),
    ("zh-CN,zh;q=0.9", &["zh-CN", "zh"]),
    ("*", &[]),
    ("zh", &["zh"]),
];

/// What else reaches a server as `Accept-Language`, each with where it leads as `BROWSERS`.
pub fn odd_headers() -> Vec<(Vec<u8>, Vec<&'static str>)> {
    vec![
        (b"".to_vec(), vec![]),
        (b"en;q=0.5, fr-BE".to_vec(), vec!["fr-BE", "fr", "en"]),
        (b"EN-gb;Q=1.0".to_vec(), vec!["en-GB", "en"]),
        (b"de;q=0, en;q=0.001".to_vec(), vec!["en"]),
        (b"en;q=2, x;;==,,;q=0.5, \xc3\xa9n".to_vec(), vec![]),
        (b"\xff\xfe\x80".to_vec(), vec![]),
        // 4 KB: only the whole elements of the first 512 bytes, the first 16, are read.
        ("zz, ".repeat(1024).into_bytes(), vec![]),
        (format!("en,{}", "a".repeat(4096)).into_bytes(), vec!["en"]),
        (format!("{}, en", "zz".repeat(2048)).into_bytes(), vec![]),
    ]
}

/// The site's languages (`app/i18n/languages.json`) and its default.
pub fn site_languages() -> (Vec<String>, String) {
    let list: serde_json::Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/app/i18n/languages.json"
    )))
    .unwrap();
    let codes = list["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|language| language["code"].as_str().unwrap().to_string())
        .collect();
    (codes, list["default"].as_str().unwrap().to_string())
}

/// The first of `candidates` the site offers (in any case), else its default: its tag.
pub fn first_offered(candidates: &[&str]) -> String {
    let (codes, default) = site_languages();
    candidates
        .iter()
        .find_map(|wanted| codes.iter().find(|code| code.eq_ignore_ascii_case(wanted)))
        .cloned()
        .unwrap_or(default)
}

/// The page of `route` in `language` (its tag), under its prefix in small letters.
pub fn page_in(language: &str, route: &str) -> String {
    let page = support::app_page(language, route, &[]);
    let path = page.strip_prefix(&format!("/{language}")).unwrap();
    format!("/{}{path}", language.to_ascii_lowercase())
}

pub const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const PUBLIC: &str =
    "public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400";

/// GET `base` + `path` with these headers (their values as bytes), not following the way.
pub fn ask(base: &str, path: &str, headers: &[(&str, &[u8])]) -> reqwest::blocking::Response {
    let mut request = support::client().get(format!("{base}{path}"));
    for (name, value) in headers {
        request = request.header(*name, HeaderValue::from_bytes(value).unwrap());
    }
    request.send().unwrap()
}

/// `/status` in English words: the page's own path once the language is known.
fn english_words() -> String {
    page_in("en", "status")
        .trim_start_matches("/en")
        .to_string()
}

#[test]
fn a_browser_without_the_cookie_is_led_to_the_language_it_asks_for_and_any_cache_may_keep_the_way()
{
    let host = Host::started(&[]);
    let mut asked: Vec<(Vec<u8>, Vec<&str>)> = BROWSERS
        .iter()
        .map(|(header, leads)| (header.as_bytes().to_vec(), leads.to_vec()))
        .collect();
    asked.extend(odd_headers());
    for (accept_language, leads) in asked {
        let language = first_offered(&leads);
        let shown = String::from_utf8_lossy(&accept_language)
            .chars()
            .take(40)
            .collect::<String>();
        for (path, to) in [
            ("/".to_string(), page_in(&language, "home")),
            (
                format!("{}?x=1", english_words()),
                format!("{}?x=1", page_in(&language, "status")),
            ),
        ] {
            let way = ask(
                &host.base,
                &path,
                &[
                    ("user-agent", BROWSER.as_bytes()),
                    ("accept-language", &accept_language),
                ],
            );
            assert_eq!(way.status(), 302, "{shown:?} {path}");
            assert_eq!(header(&way, "location"), to, "{shown:?} {path}");
            assert_eq!(header(&way, "cache-control"), PUBLIC, "{shown:?}");
            assert_eq!(header(&way, "vary"), "accept-language, cookie");
            assert_eq!(
                header(&way, "bilingue-accept-language"),
                language,
                "{shown:?}"
            );
        }
    }
    // No header at all: the default.
    let (_, default) = site_languages();
    let way = ask(&host.base, "/", &[]);
    assert_eq!(header(&way, "location"), page_in(&default, "home"));
    assert_eq!(header(&way, "bilingue-accept-language"), default);
}

#[test]
fn a_saved_choice_and_a_crawler_keep_their_way_and_only_the_shared_one_is_public() {
    let host = Host::started(&[]);
    let (_, default) = site_languages();
    let english = first_offered(&["en"]);
    assert_ne!(
        english, default,
        "the test needs a language other than the default"
    );
    for (who, headers, to, cache_control, reduced) in [
        (
            "a saved choice wins over the header",
            vec![
                ("accept-language", default.as_str()),
                ("cookie", "theme=dark; bilingue_lang=en"),
            ],
            english.as_str(),
            "private, no-store",
            "",
        ),
        (
            "another cookie: the header leads, the way is the visitor's",
            vec![("accept-language", "en"), ("cookie", "theme=dark")],
            english.as_str(),
            "private, no-store",
            english.as_str(),
        ),
        (
            "a crawler asking English: the default, its own way",
            vec![("accept-language", "en"), ("user-agent", GOOGLEBOT)],
            default.as_str(),
            "private, no-store",
            default.as_str(),
        ),
        (
            "a crawler asking nothing: the default, as everyone's",
            vec![("user-agent", GOOGLEBOT)],
            default.as_str(),
            PUBLIC,
            default.as_str(),
        ),
    ] {
        let headers: Vec<(&str, &[u8])> = headers
            .iter()
            .map(|(name, value)| (*name, value.as_bytes()))
            .collect();
        for path in ["/".to_string(), english_words()] {
            let way = ask(&host.base, &path, &headers);
            let route = if path == "/" { "home" } else { "status" };
            assert_eq!(
                header(&way, "location"),
                page_in(to, route),
                "{who}: {path}"
            );
            assert_eq!(header(&way, "cache-control"), cache_control, "{who}");
            assert_eq!(header(&way, "vary"), "accept-language, cookie", "{who}");
            assert_eq!(header(&way, "bilingue-accept-language"), reduced, "{who}");
        }
    }
}

#[test]
fn head_and_http2_are_led_the_same_way() {
    let host = Host::started(&[]);
    let english = first_offered(&["en"]);
    let head = support::client()
        .head(host.url("/"))
        .header("accept-language", "en-GB,en;q=0.9")
        .send()
        .unwrap();
    assert_eq!(head.status(), 302);
    assert_eq!(header(&head, "location"), page_in(&english, "home"));
    assert_eq!(header(&head, "bilingue-accept-language"), english);
    assert!(head.bytes().unwrap().is_empty());

    let address = host.base.trim_start_matches("http://").to_string();
    let url = host.url(&format!("{}?x=1", english_words()));
    let (way, body) = block_on(async {
        let mut client = h2_connect(&address).await;
        h2_get(
            &mut client,
            &url,
            &[("accept-language".into(), "en-GB,en;q=0.9".into())],
        )
        .await
    });
    assert_eq!(way.status, 302);
    assert_eq!(
        way.headers["location"],
        format!("{}?x=1", page_in(&english, "status"))
    );
    assert_eq!(way.headers["vary"], "accept-language, cookie");
    assert_eq!(way.headers["cache-control"], PUBLIC);
    assert_eq!(way.headers["bilingue-accept-language"], english.as_str());
    assert!(body.is_empty());
}
