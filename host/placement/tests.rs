use axum::http::{HeaderMap, HeaderValue, Uri, header};

use super::*;
use crate::lang::demo;

fn lang(code: &str) -> Language {
    demo().by_code(code).unwrap()
}

fn site() -> Origin {
    Origin::parse("https://www.example.org").unwrap()
}

/// French at the root of exemple.fr, English under its prefix on the site's origin.
fn french_apart() -> Placement {
    Placement::new(demo(), site(), &["fr=https://exemple.fr".into()]).unwrap()
}

fn sent_to(host: &str) -> Option<Language> {
    let mut headers = HeaderMap::new();
    headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
    french_apart().own_language_of(&Uri::from_static("/x"), &headers)
}

#[test]
fn a_language_under_its_prefix_or_at_the_root_of_its_origin() {
    let prefixed = Placement::prefixed(demo(), site());
    assert_eq!(
        prefixed.url(lang("fr"), "/x"),
        "https://www.example.org/fr/x"
    );
    assert_eq!(prefixed.for_the_app(), None);
    let apart = french_apart();
    assert_eq!(
        apart.url(lang("fr"), "/langues/en"),
        "https://exemple.fr/langues/en"
    );
    assert_eq!(apart.url(lang("en"), "/"), "https://www.example.org/en/");
    assert_eq!(
        apart.for_the_app().unwrap().origins,
        [("fr".to_string(), "https://exemple.fr".to_string())].into()
    );
    assert_eq!(
        apart.languages_at(apart.origin_of(lang("fr"))),
        [lang("fr")]
    );
    assert_eq!(apart.languages_at(apart.shared()), [lang("en")]);
}

#[test]
fn a_location_is_a_path_on_the_same_origin_and_a_url_across() {
    let apart = french_apart();
    assert_eq!(apart.location(None, lang("en")), "/en");
    assert_eq!(apart.location(None, lang("fr")), "https://exemple.fr");
    assert_eq!(apart.location(Some(lang("fr")), lang("fr")), "");
    assert_eq!(
        apart.location(Some(lang("fr")), lang("en")),
        "https://www.example.org/en"
    );
}

#[test]
fn the_origin_a_request_was_sent_to_is_only_ever_one_the_operator_named() {
    assert_eq!(sent_to("exemple.fr"), Some(lang("fr")));
    assert_eq!(sent_to("EXEMPLE.FR"), Some(lang("fr")));
    assert_eq!(sent_to("exemple.fr:443"), Some(lang("fr")));
    assert_eq!(sent_to("exemple.fr."), Some(lang("fr")));
    // The trailing dot of a fully qualified name, before a port too.
    assert_eq!(sent_to("exemple.fr.:443"), Some(lang("fr")));
    assert_eq!(sent_to("Exemple.FR.:443"), Some(lang("fr")));
    for other in [
        "www.example.org",
        "exemple.fr:8443",
        "exemple.fr.:8443",
        "exemple.fr..",
        "exemple.fr:",
        "exemple.fr.:",
        "exemple.fr:443:443",
        "exemple.fr.evil.example",
        "evil.example/exemple.fr",
        "xexemple.fr",
        "",
    ] {
        assert_eq!(sent_to(other), None, "{other}");
    }
    // HTTP/2's :authority comes first.
    let uri: Uri = "https://exemple.fr/x".parse().unwrap();
    let mut headers = HeaderMap::new();
    headers.insert(header::HOST, HeaderValue::from_static("www.example.org"));
    assert_eq!(
        french_apart().own_language_of(&uri, &headers),
        Some(lang("fr"))
    );
}

#[test]
fn a_path_is_read_where_it_was_sent() {
    let apart = french_apart();
    let routes = AppRoutes::same_in_every_language(&["/", "/faq"]);
    let (fr, en) = (lang("fr"), lang("en"));
    // On the site's origin: English's prefix, French's moved to its origin.
    assert_eq!(
        apart.read(None, "/en/faq", &routes),
        Placed::Page {
            language: en,
            from: 3
        }
    );
    assert_eq!(
        apart.read(None, "/fr/faq", &routes),
        Placed::Moved {
            language: fr,
            path: "/faq"
        }
    );
    assert_eq!(
        apart.read(None, "/faq", &routes),
        Placed::Unprefixed { path: "/faq" }
    );
    assert_eq!(apart.read(None, "/de/x", &routes), Placed::Unsupported);
    // On exemple.fr: every path is French's; a prefix leads where its language sits.
    for path in ["/", "/faq", "/de/x", "/nothing"] {
        assert_eq!(
            apart.read(Some(fr), path, &routes),
            Placed::Page {
                language: fr,
                from: 0
            },
            "{path}"
        );
    }
    assert_eq!(
        apart.read(Some(fr), "/fr/faq", &routes),
        Placed::Moved {
            language: fr,
            path: "/faq"
        }
    );
    assert_eq!(
        apart.read(Some(fr), "/en", &routes),
        Placed::Moved {
            language: en,
            path: "/"
        }
    );
}

#[test]
fn origins_that_cannot_be_served_are_refused_with_their_reason() {
    for (given, why) in [
        ("fr", "no `=`"),
        (
            "de=https://beispiel.de",
            "not one of the site's languages (fr, en)",
        ),
        ("fr=exemple.fr", "not a URL"),
        ("fr=https://exemple.fr/fr", "no path"),
        ("fr=https://www.example.org", "already the site's"),
    ] {
        let error = Placement::new(demo(), site(), &[given.into()]).unwrap_err();
        assert!(error.contains(why), "{given}: {error}");
        assert!(error.contains("--language-origin"), "{error}");
    }
    let twice = Placement::new(
        demo(),
        site(),
        &["fr=https://a.example".into(), "FR=https://b.example".into()],
    )
    .unwrap_err();
    assert!(twice.contains("twice"), "{twice}");
    let shared = Placement::new(
        demo(),
        site(),
        &["fr=https://a.example".into(), "en=https://A.example".into()],
    )
    .unwrap_err();
    assert!(shared.contains("another language's"), "{shared}");
}

#[test]
fn an_authority_names_an_origin_by_host_and_port_whatever_their_spelling() {
    let v6 = Origin::parse("http://[::1]:8080").unwrap();
    assert!(super::same_authority(&v6, "[::1]:8080"));
    assert!(!super::same_authority(&v6, "[::1]"));
    assert!(!super::same_authority(&v6, "[::1]:80"));
    assert!(!super::same_authority(&v6, "[::1"));
    let plain = Origin::parse("http://exemple.fr").unwrap();
    assert!(super::same_authority(&plain, "exemple.fr:80"));
    assert!(super::same_authority(&plain, "EXEMPLE.fr.:80"));
    assert!(!super::same_authority(&plain, "exemple.fr:443"));
    assert!(!super::same_authority(&plain, "exemple.fr:8o"));
}
