//! The host over real HTTP: languages, their signals, alternates, 404s and assets.

use crate::support::{self, attribute_after, base_url, client, get, get_with, header};

#[test]
fn french_is_served_at_the_root() {
    let response = crate::support::get_following("/");
    assert_eq!(response.status(), 200);
    assert_eq!(response.url().path(), "/fr/");
    assert_eq!(header(&response, "content-language"), "fr");
    let html = response.text().unwrap();
    assert!(html.contains(r#"<html lang="fr">"#));
    assert!(html.contains(r#"<meta http-equiv="content-language" content="fr">"#));
    assert!(html.contains("<title>Accueil · Bilingue</title>"));
    assert!(html.contains("<h1>Bienvenue sur Bilingue</h1>"));
}

#[test]
fn french_prefix_answers_french() {
    let response = get("/fr/");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-language"), "fr");
    let html = response.text().unwrap();
    assert!(
        html.contains("Cette application parle 2 langues."),
        "ICU plural in French"
    );
}

#[test]
fn english_page_declares_its_language() {
    let response = get("/en/");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-language"), "en");
    let html = response.text().unwrap();
    assert!(html.contains(r#"<html lang="en">"#));
    assert!(html.contains(r#"<meta http-equiv="content-language" content="en">"#));
    assert!(html.contains("<title>Home · Bilingue</title>"));
    assert!(html.contains("<h1>Welcome to Bilingue</h1>"));
    assert!(
        html.contains("This application speaks 2 languages."),
        "ICU plural in English"
    );
}

#[test]
fn the_page_arrives_rendered_without_a_spinner() {
    let html = get("/en/").text().unwrap();
    assert!(
        html.contains(r#"<div id="app"><main"#),
        "the screen's markup is in the HTML"
    );
    assert!(!html.contains(r#"role="status""#), "no spinner in the HTML");
}

#[test]
fn dates_use_the_language_date_locale_and_the_pinned_time_zone() {
    let french = get("/fr/").text().unwrap();
    let english = get("/en/").text().unwrap();
    let months_fr = [
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ];
    let months_en = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    assert!(
        months_fr.iter().any(|m| french.contains(&format!(" {m} "))),
        "a French month name"
    );
    assert!(
        months_en
            .iter()
            .any(|m| english.contains(&format!(" {m} "))),
        "an English month name"
    );
    assert!(french.contains("(UTC)") && english.contains("(UTC)"));
    assert!(
        english.contains(r#""timeZone":"UTC""#),
        "the boot state pins the time zone"
    );
}

#[test]
fn every_page_links_its_other_language_urls() {
    let html = get("/en/").text().unwrap();
    // Without --public-url the origin is localhost and the host's port.
    let origin = crate::support::base_url().replace("127.0.0.1", "localhost");
    for (hreflang, path) in [("fr", "/fr/"), ("en", "/en/"), ("x-default", "/")] {
        assert!(
            html.contains(&format!(
                r#"<link rel="alternate" hreflang="{hreflang}" href="{origin}{path}">"#
            )),
            "{hreflang}: {html}"
        );
    }
}

#[test]
fn an_unsupported_language_prefix_is_a_french_404() {
    for path in ["/de/", "/de/page", "/pt-BR/"] {
        let response = get(path);
        assert_eq!(response.status(), 404, "{path}");
        assert_eq!(header(&response, "content-language"), "fr");
        let html = response.text().unwrap();
        assert!(html.contains("<h1>Page introuvable</h1>"), "{path}");
        assert!(!html.contains("hreflang"), "a 404 names no alternates");
    }
}

#[test]
fn an_unknown_page_is_a_404_in_its_language() {
    let response = get("/en/nowhere");
    assert_eq!(response.status(), 404);
    assert_eq!(header(&response, "content-language"), "en");
    assert!(response.text().unwrap().contains("<h1>Page not found</h1>"));
}

#[test]
fn an_unprefixed_url_leads_to_the_page_in_the_saved_language() {
    let status_in = |language| format!("{}?x=1", support::app_page(language, "status", &[]));
    for (cookie, location) in [
        (Some("theme=x; bilingue_lang=en"), status_in("en")),
        (Some("bilingue_lang=de"), status_in("fr")),
        (None, status_in("fr")),
    ] {
        let mut request = client().get(format!("{}/status?x=1", base_url()));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().unwrap();
        assert_eq!(response.status(), 302, "{cookie:?}");
        assert_eq!(header(&response, "location"), location, "{cookie:?}");
        // Without a cookie the way is the same for everyone; with one, it is theirs.
        let kept = match cookie {
            None => {
                "public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400"
            }
            Some(_) => "private, no-store",
        };
        assert_eq!(header(&response, "cache-control"), kept, "{cookie:?}");
        assert_eq!(header(&response, "vary"), "accept-language, cookie");
    }
    let home = get("/");
    assert_eq!(
        (home.status().as_u16(), header(&home, "location")),
        (302, "/fr/".into())
    );
    // A path that only looks like a way out stays on this site.
    assert_eq!(
        header(&get("//evil.example/"), "location"),
        "/fr//evil.example/"
    );
}

#[test]
fn a_prefix_wins_over_the_saved_choice() {
    let response = get_with("/fr/", "cookie", "bilingue_lang=en");
    assert_eq!(header(&response, "content-language"), "fr");
}

#[test]
fn public_pages_may_be_kept_by_any_cache_and_are_compressed_on_request() {
    let response = get_with("/en/", "accept-encoding", "gzip");
    assert_eq!(
        header(&response, "cache-control"),
        "public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400"
    );
    assert_eq!(header(&response, "vary"), "accept-encoding");
    assert!(header(&response, "etag").starts_with('"'));
    assert_eq!(header(&response, "set-cookie"), "");
    assert_eq!(header(&response, "content-encoding"), "gzip");
    assert_eq!(
        header(&response, "content-type"),
        "text/html; charset=utf-8"
    );
}

#[test]
fn the_scripts_and_styles_the_page_names_are_served() {
    let html = get("/en/").text().unwrap();
    let scripts = crate::support::module_scripts(&html);
    let script = scripts.first().expect("a module script").as_str();
    let style = attribute_after(&html, r#"<link rel="stylesheet""#, "href").expect("a stylesheet");
    let preload =
        attribute_after(&html, r#"<link rel="modulepreload""#, "href").expect("a preload");
    for (url, content_type) in [
        (script, "text/javascript; charset=utf-8"),
        (style, "text/css; charset=utf-8"),
        (preload, "text/javascript; charset=utf-8"),
    ] {
        assert!(url.starts_with("/assets/"), "{url}");
        let response = get(url);
        assert_eq!(response.status(), 200, "{url}");
        assert_eq!(header(&response, "content-type"), content_type, "{url}");
        assert_eq!(
            header(&response, "cache-control"),
            "public, max-age=31536000, immutable"
        );
        assert!(!response.bytes().unwrap().is_empty());
    }
}

#[test]
fn assets_are_sent_precompressed_as_the_client_accepts() {
    let html = get("/en/").text().unwrap();
    let script = format!(
        "{}{}",
        crate::support::base_url(),
        crate::support::module_scripts(&html)[0]
    );
    let plain = client().get(&script).send().unwrap();
    assert_eq!(header(&plain, "content-encoding"), "");
    let plain_len = plain.bytes().unwrap().len();
    for (accept, encoding) in [("gzip", "gzip"), ("gzip, br", "br")] {
        let response = client()
            .get(&script)
            .header("accept-encoding", accept)
            .send()
            .unwrap();
        assert_eq!(header(&response, "content-encoding"), encoding);
        assert_eq!(header(&response, "vary"), "accept-encoding");
        assert!(
            response.bytes().unwrap().len() < plain_len / 2,
            "{encoding} is smaller"
        );
    }
}

#[test]
fn the_english_page_preloads_the_english_chunks_only() {
    let english = get("/en/").text().unwrap();
    let french = get("/fr/").text().unwrap();
    let preloads = |html: &str| -> Vec<String> {
        html.lines()
            .filter(|l| l.contains("modulepreload"))
            .map(str::to_string)
            .collect()
    };
    let (en, fr) = (preloads(&english), preloads(&french));
    assert!(en.iter().any(|l| l.contains("/assets/en-")), "{en:?}");
    assert!(!en.iter().any(|l| l.contains("/assets/fr-")), "{en:?}");
    assert!(fr.iter().any(|l| l.contains("/assets/fr-")), "{fr:?}");
}

#[test]
fn an_unknown_asset_is_a_plain_404() {
    for path in [
        "/assets/nope.js",
        "/assets/..%2fCargo.toml",
        "/assets/%2e%2e%2fCargo.toml",
        "/assets/",
    ] {
        let response = crate::support::get_following(path);
        assert_eq!(response.status(), 404, "{path}");
    }
}

#[test]
fn only_get_and_head_are_pages() {
    let response = client()
        .post(format!("{}/en/", crate::support::base_url()))
        .send()
        .unwrap();
    assert_eq!(response.status(), 405);
    assert_eq!(header(&response, "allow"), "GET, HEAD");
    let head = client()
        .head(format!("{}/en/", crate::support::base_url()))
        .send()
        .unwrap();
    assert_eq!(head.status(), 200);
}

#[test]
fn an_unknown_time_zone_stops_start_up_with_a_clear_error() {
    let error =
        crate::support::start_error(&["--render-threads", "1", "--time-zone", "Mars/Olympus"])
            .expect("start-up fails");
    assert!(
        error.contains("unknown time zone \"Mars/Olympus\""),
        "{error}"
    );
}

#[test]
fn health_and_readiness_answer() {
    assert_eq!(get("/healthz").text().unwrap(), "ok");
    let ready = get("/readyz");
    assert_eq!(ready.status(), 200);
    assert_eq!(ready.text().unwrap(), "2/2 render threads ready\n");
}

#[test]
fn metrics_count_requests_by_status_and_language() {
    get("/en/");
    get("/de/");
    let metrics = support::text(format!("{}/metrics", support::metrics_url(base_url())));
    assert!(
        metrics.contains("bilingue_requests_total{status=\"200\",language=\"en\"}"),
        "{metrics}"
    );
    assert!(
        metrics.contains("bilingue_requests_total{status=\"404\",language=\"fr\"}"),
        "{metrics}"
    );
    for name in [
        "bilingue_render_seconds_bucket{le=\"+Inf\"}",
        "bilingue_render_queue_depth",
        "bilingue_runtime_restarts_total",
        "bilingue_page_cache_hits_total",
    ] {
        assert!(metrics.contains(name), "{name} in {metrics}");
    }
}

#[test]
fn every_answer_carries_the_security_headers() {
    for path in ["/en/", "/api/status", "/assets/nope.js", "/healthz"] {
        let response = get(path);
        assert_eq!(
            header(&response, "x-content-type-options"),
            "nosniff",
            "{path}"
        );
        assert_eq!(
            header(&response, "referrer-policy"),
            "strict-origin-when-cross-origin",
            "{path}"
        );
        assert!(
            header(&response, "content-security-policy").contains("frame-ancestors 'none'"),
            "{path}"
        );
    }
    let api = get("/api/status");
    assert!(header(&api, "content-security-policy").contains("script-src 'self';"));
}

/// A page's body, plain whatever it was sent in.
fn body(response: reqwest::blocking::Response) -> String {
    if header(&response, "content-encoding") == "gzip" {
        crate::support::gunzip(&response.bytes().unwrap())
    } else {
        response.text().unwrap()
    }
}

#[test]
fn a_public_page_is_the_same_bytes_for_everyone_and_its_policy_names_its_one_inline_script() {
    use base64::Engine as _;
    use sha2::Digest as _;
    for path in ["/en/", "/fr/nowhere", "/de/"] {
        let first = get_with(path, "accept-encoding", "identity");
        let policy = header(&first, "content-security-policy");
        let etag = header(&first, "etag");
        let html = body(first);
        // Another visitor, another connection, other headers: the same page.
        let second = client()
            .get(format!("{}{path}", base_url()))
            .header("cookie", "session=someone")
            .header("user-agent", "another browser")
            .send()
            .unwrap();
        assert_eq!(header(&second, "etag"), etag, "{path}");
        assert_eq!(body(second), html, "{path}");
        assert!(!html.contains("nonce"), "{path}: no nonce anywhere");
        let inline: Vec<&str> = html
            .split("<script>")
            .skip(1)
            .map(|rest| &rest[..rest.find("</script>").unwrap()])
            .collect();
        assert_eq!(inline.len(), 1, "{path}: one inline script, the starter");
        let hash = base64::engine::general_purpose::STANDARD
            .encode(sha2::Sha256::digest(inline[0].as_bytes()));
        assert!(
            policy.contains(&format!("script-src 'sha256-{hash}' 'strict-dynamic';")),
            "{path}: {policy}"
        );
        for unsafe_source in ["unsafe-inline", "unsafe-eval", "nonce-"] {
            assert!(!policy.contains(unsafe_source), "{path}: {policy}");
        }
        assert!(policy.contains("style-src 'self';") && policy.contains("object-src 'none'"));
    }
}

#[test]
fn an_oversized_request_target_is_414() {
    let response = get(&format!("/fr/{}", "a".repeat(5000)));
    assert_eq!(response.status(), 414);
}

#[test]
fn hostile_paths_and_cookies_get_a_page_not_an_error() {
    for path in [
        "/fr/%3Cscript%3Ealert(1)%3C/script%3E",
        "/%FF%FE",
        "/fr/..%2F..%2Fetc%2Fpasswd",
        "/fr//x",
        "/en/%00",
    ] {
        let response = crate::support::get_following(path);
        assert_eq!(response.status(), 404, "{path}");
        let html = response.text().unwrap();
        assert!(!html.contains("<script>alert"), "{path} is escaped");
    }
    let response = get_with("/", "cookie", "bilingue_lang=<x>; ;;==; bilingue_lang=\"en");
    assert_eq!(response.status(), 302);
    assert_eq!(header(&response, "location"), "/en/");
}

/// One request written byte for byte, and the status line of the answer.
fn raw_status(request: &[u8]) -> String {
    let address = crate::support::base_url().trim_start_matches("http://");
    let answer = crate::support::raw_exchange(address, request);
    answer.lines().next().unwrap_or_default().to_string()
}

/// The way to a prefixed page names it with what a URL may hold: a request target that
/// hyper lets through with a backslash or a quote is percent-encoded in the Location, not
/// copied raw (a browser reads a raw backslash as a slash).
#[test]
fn a_redirect_percent_encodes_what_the_target_held_raw() {
    let address = crate::support::base_url().trim_start_matches("http://");
    let mut redirected = 0;
    for (target, location) in [
        (r"/fr\..\etat", r"/fr/fr%5C..%5Cetat"),
        (r"/\evil.example/?q=\", r"/fr/%5Cevil.example/?q=%5C"),
        ("/a\"b{c}|?d=\"", "/fr/a%22b%7Bc%7D%7C?d=%22"),
    ] {
        let answer = crate::support::raw_exchange(
            address,
            format!("GET {target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").as_bytes(),
        );
        let head = answer.split("\r\n\r\n").next().unwrap_or_default();
        if !head.starts_with("HTTP/1.1 302 ") {
            // hyper refused the target itself: nothing of it went into a header.
            assert!(head.starts_with("HTTP/1.1 400 "), "{target}: {head}");
            continue;
        }
        assert!(
            head.lines()
                .any(|line| line.eq_ignore_ascii_case(&format!("location: {location}"))),
            "{target}: {head}"
        );
        redirected += 1;
    }
    assert!(redirected >= 2, "the backslashes at least are let through");
}

#[test]
fn oversized_or_too_many_headers_are_431() {
    let big = "a".repeat(bilingue::server::MAX_HEAD_BYTES);
    let response = get_with("/fr/", "x-big", &big);
    assert_eq!(response.status(), 431);
    let many: String = (0..=bilingue::server::MAX_HEADERS)
        .map(|i| format!("x-h{i}: v\r\n"))
        .collect();
    let status = raw_status(
        format!("GET /fr/ HTTP/1.1\r\nhost: x\r\n{many}connection: close\r\n\r\n").as_bytes(),
    );
    assert!(status.contains(" 431 "), "{status}");
    // Under the limits, a large but ordinary cookie header is read as usual.
    let response = get_with(
        "/",
        "cookie",
        &format!("other={}; bilingue_lang=en", "b".repeat(8000)),
    );
    assert_eq!(response.status(), 302);
    assert_eq!(header(&response, "location"), "/en/");
}

#[test]
fn invalid_utf8_headers_unknown_methods_and_traversal_get_clear_answers() {
    let mut request = b"GET / HTTP/1.1\r\nhost: x\r\naccept-language: \xff\xfe;q=\xc3\r\ncookie: bilingue_lang=\xe9n; \xff=\xff\r\nconnection: close\r\n\r\n".to_vec();
    assert!(raw_status(&request).contains(" 302 "));
    request = b"BREW /fr/ HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n".to_vec();
    assert!(raw_status(&request).contains(" 405 "));
    for path in [
        "/assets/../Cargo.toml",
        "/assets/..%2F..%2FCargo.toml",
        "/assets/%2e%2e/%2e%2e/etc/passwd",
        "/assets/.%00./x",
    ] {
        let status = raw_status(
            format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").as_bytes(),
        );
        // A 302 leads to the same path under the default language's prefix, on this site.
        assert!(
            status.contains(" 404 ") || status.contains(" 400 ") || status.contains(" 302 "),
            "{path}: {status}"
        );
    }
    let status =
        raw_status(b"GET /fr/?q=\xff%ff&&=& HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    assert!(
        status.contains(" 200 ") || status.contains(" 400 "),
        "{status}"
    );
}

#[test]
fn a_silent_or_slow_client_is_disconnected_after_the_head_time_out() {
    use std::io::{Read, Write};
    let address = crate::support::base_url().trim_start_matches("http://");
    let silent = std::net::TcpStream::connect(address).unwrap();
    let mut slow = std::net::TcpStream::connect(address).unwrap();
    slow.write_all(b"GET /fr/ HTTP/1.1\r\nhost: x\r\n").unwrap();
    // Silent for a while, then slow: the time-out counts from its connection, not from
    // its first byte.
    let late = std::net::TcpStream::connect(address).unwrap();
    let mut late_writer = late.try_clone().unwrap();
    let started = std::time::Instant::now();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(6));
        let _ = late_writer.write_all(b"GET /fr/ HTTP/1.1\r\nhost: x\r\n");
    });
    for mut stream in [silent, slow, late] {
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .unwrap();
        let mut answer = Vec::new();
        let read = stream.read_to_end(&mut answer);
        assert!(
            read.is_ok(),
            "closed by the server, not timed out here: {read:?}"
        );
    }
    let waited = started.elapsed();
    writer.join().unwrap();
    let limit = bilingue::server::HEADER_READ_TIMEOUT;
    assert!(
        waited >= limit - std::time::Duration::from_millis(500)
            && waited < limit + std::time::Duration::from_millis(2500),
        "{waited:?}"
    );
}

/// The scripts a page makes the browser fetch before it hydrates: the entry its inline
/// starter adds (`{type:"module",src:"…"}`, one per page) and its module preloads.
fn first_load_scripts(html: &str) -> Vec<String> {
    let mut urls = Vec::new();
    for (marker, expected) in [
        (r#"{type:"module",src:""#, Some(1)),
        (r#"<link rel="modulepreload" href=""#, None),
    ] {
        let found: Vec<String> = html
            .match_indices(marker)
            .map(|(at, _)| {
                let rest = &html[at + marker.len()..];
                rest[..rest.find('"').unwrap()].to_string()
            })
            .collect();
        if let Some(expected) = expected {
            assert_eq!(found.len(), expected, "{marker} in {html}");
        }
        urls.extend(found);
    }
    urls
}

/// The budget is a gate: what the browser fetches before it hydrates, gzipped at the best
/// level, whatever is added to the first screen. (The figures of the last run, and the
/// headroom left, are in BENCHMARKS.md.)
#[test]
fn the_first_load_javascript_fits_in_80_kb_of_gzip() {
    use std::io::Write as _;
    for language in ["fr", "en"] {
        let html = get(&format!("/{language}/")).text().unwrap();
        let scripts = first_load_scripts(&html);
        assert!(
            scripts.len() >= 2,
            "the entry and the language's chunk at least: {scripts:?}"
        );
        let mut total = 0;
        for url in &scripts {
            let body = get(url).bytes().unwrap();
            let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            gzip.write_all(&body).unwrap();
            total += gzip.finish().unwrap().len();
        }
        assert!(
            total <= 80_000,
            "{language}: {total} bytes of gzip over {} files",
            scripts.len()
        );
    }
}

#[test]
fn metrics_are_not_served_on_the_public_port() {
    let answer = crate::support::get_following("/metrics");
    assert_eq!(answer.status(), 404);
    assert!(!answer.text().unwrap().contains("bilingue_requests_total"));
}

#[test]
fn a_flood_of_pages_not_found_does_not_push_out_the_pages_that_are() {
    let host = support::start(&["--render-threads", "1", "--page-cache-entries", "50"]);
    let page = |path: &str| client().get(format!("{host}{path}")).send().unwrap();
    assert_eq!(page("/fr/").status(), 200);
    assert_eq!(page("/en/").status(), 200);
    for i in 0..600 {
        assert_eq!(page(&format!("/fr/nowhere-{i}")).status(), 404);
    }
    let hits = support::metric(&host, "bilingue_page_cache_hits_total");
    assert_eq!(page("/fr/").status(), 200);
    assert_eq!(page("/en/").status(), 200);
    assert_eq!(
        support::metric(&host, "bilingue_page_cache_hits_total"),
        hits + 2.0,
        "both home pages are still cached"
    );
}

#[test]
fn metrics_give_each_render_threads_v8_heap() {
    // The shared host has two render threads, each warmed up: each has sampled its heap.
    let heap = |thread: &str| {
        support::metric(
            base_url(),
            &format!("bilingue_v8_heap_used_bytes{{thread=\"{thread}\"}}"),
        )
    };
    let started = std::time::Instant::now();
    for thread in ["render-0", "render-1"] {
        // A thread samples after its calls, 250 ms apart at most: ask until it has.
        while heap(thread) == 0.0 {
            // A page rendered at each request (kept by no cache).
            get(&support::app_page("fr", "status", &[]));
            assert!(
                started.elapsed().as_secs() < 10,
                "{thread} never sampled its heap"
            );
        }
        let bytes = heap(thread);
        assert!((1e6..128e6).contains(&bytes), "{thread}: {bytes} bytes");
    }
}
