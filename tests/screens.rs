//! The languages screen over real HTTP: one page per supported language, rendered on the
//! server with its data from `GET /api/languages/:code`, public for caches; an unknown code
//! is a 404 page.

use crate::support::{get_with, header};

/// A browser's User-Agent: a person's page (a crawler's is rendered the same, whole).
const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0";

#[test]
fn a_languages_page_is_rendered_with_its_data_and_shared_publicly() {
    let response = get_with("/en/languages/fr", "user-agent", BROWSER);
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
    let response = get_with("/fr/languages/zz", "user-agent", BROWSER);
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
