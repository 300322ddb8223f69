//! Screens whose data is in the first paint: the status page's loader over real HTTP, from
//! the built-in API and from an upstream (what it carries for the visitor, and every way
//! the call can fail), what a loader may not reach, and what the page cache may keep.

use std::time::{Duration, Instant};

use axum::http::{HeaderMap, StatusCode};
use axum::routing::get;
use serde_json::{Value, json};

use crate::support::binary::Host;
use crate::support::upstream::{self, Upstream};
use crate::support::{self, client, get as fetch};

/// The boot state a page embeds.
fn boot_state(html: &str) -> Value {
    let start = html
        .find(r#"<script id="bilingue-boot" type="application/json""#)
        .expect("a boot state");
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    serde_json::from_str(json).unwrap()
}

#[test]
fn the_status_page_has_the_built_in_apis_data_in_its_first_paint() {
    for (language, heading, languages) in [
        ("fr", "<h1>État du serveur</h1>", "<dd>fr, en</dd>"),
        ("en", "<h1>Server status</h1>", "<dd>fr, en</dd>"),
    ] {
        let path = &support::app_page(language, "status", &[]);
        let response = fetch(path);
        assert_eq!(response.status(), 200, "{path}");
        let html = response.text().unwrap();
        assert!(html.contains(heading), "{path}");
        assert!(
            html.contains(&format!("<dd>{}</dd>", env!("CARGO_PKG_VERSION"))),
            "{path}"
        );
        assert!(html.contains(languages), "{path}");
        let boot = boot_state(&html);
        assert_eq!(boot["data"]["ok"], true, "{path}: {boot}");
        let time = boot["data"]["data"]["serverTime"].as_str().unwrap();
        assert!(
            html.contains(&format!(r#"<time dateTime="{time}">"#)),
            "{path}: the time is shown"
        );
    }
}

#[derive(Clone, Copy)]
enum Behaviour {
    Answers,
    /// Answers, 300 ms late.
    SlowAnswers,
    Fails,
    /// Answers 10 s late.
    Slow,
}

/// An upstream whose /api/status answers as `behaviour` says, whose /api/whoami says
/// which cookie and language it got, and whose /api/sets-a-cookie sets one.
fn start_upstream(behaviour: Behaviour) -> Upstream {
    let status = match behaviour {
        Behaviour::Fails => get(|| async {
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                axum::Json(json!({ "error": "the upstream's database is down" })),
            )
        }),
        Behaviour::Answers | Behaviour::SlowAnswers | Behaviour::Slow => {
            get(|| async { upstream::json(upstream::status_json("9.9.9-upstream")) })
        }
    };
    let delay = match behaviour {
        Behaviour::SlowAnswers => Duration::from_millis(300),
        Behaviour::Slow => Duration::from_secs(10),
        Behaviour::Answers | Behaviour::Fails => Duration::ZERO,
    };
    Upstream::builder()
        .route("/api/status", status)
        .route(
            "/api/whoami",
            get(|headers: HeaderMap| async move {
                let text = |name: &str| {
                    headers
                        .get(name)
                        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                };
                let (cookie, language) = (text("cookie"), text("accept-language"));
                format!("cookie={cookie:?} accept-language={language:?}")
            }),
        )
        .route(
            "/api/sets-a-cookie",
            get(|| async { ([("set-cookie", "tracking=42; Path=/")], "welcome") }),
        )
        .delay(delay)
        .start()
}

#[test]
fn with_an_upstream_the_status_page_has_its_data_and_the_upstream_the_visitors_credentials() {
    let upstream = start_upstream(Behaviour::Answers);
    let host = support::start(&["--render-threads", "1", "--api-upstream", &upstream.url]);
    let html = client()
        .get(format!(
            "{host}{}",
            crate::support::app_page("fr", "status", &[])
        ))
        .header("cookie", "session=abc123; bilingue_lang=en")
        .header("authorization", "Bearer visitor-token")
        .header("accept-language", "fr-CA, fr;q=0.9")
        .send()
        .unwrap()
        .text()
        .unwrap();
    assert!(html.contains("<dd>9.9.9-upstream</dd>"), "{html}");
    assert!(
        html.contains(r#"<time dateTime="2030-01-02T03:04:05.000Z">2 janv. 2030, 03:04:05</time>"#),
        "the time in the French date locale: {html}"
    );
    let english = support::text(format!(
        "{host}{}",
        crate::support::app_page("en", "status", &[])
    ));
    assert!(
        english.contains(">Jan 2, 2030, 3:04:05 AM</time>"),
        "the time in the English date locale: {english}"
    );
    let visitors = &upstream.seen()[0];
    assert_eq!(visitors.target, "/api/status");
    // The saved language choice is the host's, not the API's: it is not forwarded.
    assert_eq!(visitors.headers["cookie"], "session=abc123");
    assert_eq!(visitors.headers["authorization"], "Bearer visitor-token");
    // The data is for the page's language, which is part of what the page is cached by.
    assert_eq!(visitors.headers["accept-language"], "fr-FR, fr;q=0.9");
    assert_eq!(visitors.headers["x-forwarded-for"], "127.0.0.1");
}

/// The status page's error message, as the page shows it.
fn shows_the_translated_error(html: &str) {
    assert!(
        html.contains("L’état du serveur n’a pas pu être obtenu."),
        "the translated error: {html}"
    );
}

#[test]
fn an_upstream_that_is_down_still_gives_a_page_with_the_translated_error() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let host = support::start(&[
        "--render-threads",
        "1",
        "--api-upstream",
        &format!("http://{closed}"),
    ]);
    let response = client()
        .get(format!(
            "{host}{}",
            crate::support::app_page("fr", "status", &[])
        ))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let html = response.text().unwrap();
    shows_the_translated_error(&html);
    let error = &boot_state(&html)["data"]["error"];
    assert_eq!(error["status"], 502, "{error}");
    assert_eq!(error["detail"], "the API server cannot be reached");
}

/// The page itself is `streaming.rs`'s; here, what the boot state and the log say.
#[test]
fn an_upstream_500_reaches_the_boot_state_whole_and_is_logged_with_the_calls_configuration() {
    let upstream = start_upstream(Behaviour::Fails);
    let host = Host::start(&["--api-upstream", &upstream.url]);
    let response = client()
        .get(host.url(&crate::support::app_page("fr", "status", &[])))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let html = response.text().unwrap();
    shows_the_translated_error(&html);
    let error = &boot_state(&html)["data"]["error"];
    assert_eq!(error["status"], 500);
    assert_eq!(error["detail"], "the upstream's database is down");
    assert_eq!(error["data"]["error"], "the upstream's database is down");
    // A status of 500 or more is logged, with the call's configuration.
    let logged = || {
        let logs = host.logs();
        logs.lines().any(|line| {
            line.contains("ERROR bilingue::app")
                && line.contains("Request failed with status code 500")
        }) && logs.contains(r#""baseURL":"/api""#)
            && logs.contains(r#""url":"/status""#)
    };
    let started = Instant::now();
    while !logged() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{}",
            host.logs()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn other_pages_keep_rendering_while_a_page_waits_for_its_data() {
    let upstream = start_upstream(Behaviour::Slow);
    let host = support::start(&[
        "--render-threads",
        "1",
        "--api-upstream",
        &upstream.url,
        "--load-timeout",
        "2s",
        "--page-cache-entries",
        "0",
    ]);
    // Four status pages wait on the one render thread's runtime...
    let waiting: Vec<_> = (0..4)
        .map(|_| {
            let url = format!("{host}{}", crate::support::app_page("fr", "status", &[]));
            std::thread::spawn(move || client().get(url).send().unwrap().status())
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    // ...while that thread renders other pages at once: well within the 2 s a page held
    // behind them would take (a page takes ~10 ms; one took 548 ms once in CI, the two
    // cores saturated by the browser tests beside it).
    for _ in 0..20 {
        let started = Instant::now();
        let page = client().get(format!("{host}/en/")).send().unwrap();
        assert!(
            page.text()
                .unwrap()
                .contains("<h1>Welcome to Bilingue</h1>")
        );
        assert!(
            started.elapsed() < Duration::from_millis(1000),
            "{:?}",
            started.elapsed()
        );
    }
    for handle in waiting {
        assert_eq!(handle.join().unwrap(), 200);
    }
}

/// A host with the loader fixture (a bundle whose pages ask for any URL given to them).
fn loader_host(extra: &[&str]) -> Host {
    let bundle = support::LOADER_BUNDLE.to_string();
    let mut args = vec!["--server-bundle", &bundle];
    args.extend_from_slice(extra);
    Host::started(&args)
}

fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn a_loader_reaches_this_hosts_api_and_nothing_else() {
    let other_host = start_upstream(Behaviour::Answers);
    let host = loader_host(&[]);
    let asked = |url: &str| {
        let html = support::text(host.url(&format!("/fr/call/{}", percent_encoded(url))));
        let start = html
            .find(r#"<p id="answer">"#)
            .expect("the fixture's answer")
            + 15;
        html[start..start + html[start..].find("</p>").unwrap()].to_string()
    };
    let allowed = asked("/api/status");
    assert!(allowed.starts_with("status 200: {"), "{allowed}");
    for url in [
        format!("{}/api/status", other_host.url),
        other_host.url.replace("http:", ""),
        "/admin".to_string(),
        "/api/../admin".to_string(),
        "/api/%2e%2e/admin".to_string(),
        "/api/a\\..\\..\\admin".to_string(),
        "https://example.org/api/status".to_string(),
    ] {
        let answer = asked(&url);
        assert!(answer.starts_with("refused: "), "{url}: {answer}");
    }
    assert!(
        other_host.seen().is_empty(),
        "the other host was never called"
    );
}

#[test]
fn a_loader_that_never_finishes_gets_the_client_rendered_page_in_time() {
    let host = loader_host(&["--load-timeout", "300ms", "--render-timeout", "300ms"]);
    let started = Instant::now();
    let response = client().get(host.url("/en/stuck")).send().unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        response.text().unwrap().contains(r#"<div id="app"></div>"#),
        "the client-rendered page"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let page = support::text(host.url("/en/x"));
    assert!(page.contains("<p>plain /x</p>"), "the thread still serves");
}

#[test]
fn per_visitor_data_is_never_served_to_another_visitor_from_the_cache() {
    let upstream = start_upstream(Behaviour::Answers);
    let host = loader_host(&["--api-upstream", &upstream.url]);
    let path = format!("/fr/public/{}", percent_encoded("/api/whoami"));
    let page = |header: Option<(&str, &str)>| {
        let mut request = client().get(host.url(&path));
        if let Some((name, value)) = header {
            request = request.header(name, value);
        }
        request.send().unwrap().text().unwrap()
    };
    let alice = page(Some(("cookie", "session=alice")));
    assert!(alice.contains("session=alice"), "{alice}");
    // Alice's page carried her cookie: it was not kept, whatever the loader declared.
    let anonymous = page(None);
    assert!(anonymous.contains("cookie=None"), "{anonymous}");
    let bob = page(Some(("authorization", "Bearer bob")));
    assert!(!bob.contains("alice"), "{bob}");
    // The anonymous page was public and kept: the next visitor gets it without a new call,
    // and it holds no one's data.
    let calls = upstream.seen().len();
    let carol = page(Some(("cookie", "session=carol; bilingue_lang=fr")));
    assert!(
        !carol.contains("alice") && carol.contains("cookie=None"),
        "{carol}"
    );
    assert_eq!(upstream.seen().len(), calls, "served from the cache");
    assert!(host.metric("bilingue_page_cache_hits_total") >= 1.0);
}

/// A public page of the loader fixture that shows what `/api/{endpoint}` answered; each
/// test names its own `tag`, so that no two share a cached page.
fn public_page(host: &Host, endpoint: &str, tag: &str) -> String {
    host.url(&format!(
        "/fr/public/{}",
        percent_encoded(&format!("/api/{endpoint}?tag={tag}"))
    ))
}

fn get_page(url: &str, headers: &[(&str, &str)]) -> reqwest::blocking::Response {
    let mut request = client().get(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().unwrap()
}

#[test]
fn any_cookie_that_reaches_the_upstream_makes_the_page_the_visitors_alone() {
    let upstream = start_upstream(Behaviour::Answers);
    let host = loader_host(&["--api-upstream", &upstream.url]);
    for (i, cookie) in [
        "alice-token",
        "=alice-token",
        "bilingue_lang=fr; bilingue_lang=alice-token",
        "bilingue_lang=alice-token",
        "bilingue_lang",
    ]
    .into_iter()
    .enumerate()
    {
        let url = public_page(&host, "whoami", &format!("cookie-{i}"));
        let alice = get_page(&url, &[("cookie", cookie)]);
        assert_eq!(
            support::header(&alice, "cache-control"),
            "private, no-store",
            "{cookie}"
        );
        let alice = alice.text().unwrap();
        assert!(alice.contains("cookie=Some("), "{cookie}: {alice}");
        let next = get_page(&url, &[]).text().unwrap();
        assert!(
            next.contains("cookie=None") && !next.contains("alice"),
            "{cookie}: the next visitor got {next}"
        );
    }
}

#[test]
fn the_language_cookie_alone_is_not_forwarded_and_the_page_stays_public() {
    let upstream = start_upstream(Behaviour::Answers);
    let host = loader_host(&["--api-upstream", &upstream.url]);
    let url = public_page(&host, "whoami", "language-cookie");
    let first = get_page(&url, &[("cookie", "bilingue_lang=en")])
        .text()
        .unwrap();
    assert!(first.contains("cookie=None"), "{first}");
    let calls = upstream.seen().len();
    get_page(&url, &[]).text().unwrap();
    assert_eq!(upstream.seen().len(), calls, "served from the cache");
}

#[test]
fn the_upstream_gets_the_pages_language_never_the_visitors_accept_language() {
    let upstream = start_upstream(Behaviour::Answers);
    let host = loader_host(&["--api-upstream", &upstream.url]);
    let url = public_page(&host, "whoami", "accept-language");
    let attacker = get_page(&url, &[("accept-language", "en, <b>owned</b>")])
        .text()
        .unwrap();
    assert!(
        attacker.contains(r#"accept-language=Some(&quot;fr-FR, fr;q=0.9&quot;)"#)
            || attacker.contains(r#"accept-language=Some("fr-FR, fr;q=0.9")"#),
        "{attacker}"
    );
    let next = get_page(&url, &[("accept-language", "fr")]).text().unwrap();
    assert!(!next.contains("owned"), "{next}");
}

#[test]
fn a_page_whose_data_came_with_a_set_cookie_is_never_kept() {
    let upstream = start_upstream(Behaviour::Answers);
    let host = loader_host(&["--api-upstream", &upstream.url]);
    let url = public_page(&host, "sets-a-cookie", "set-cookie");
    for round in 1..=2 {
        let page = get_page(&url, &[]);
        assert_eq!(support::header(&page, "cache-control"), "private, no-store");
        assert!(page.text().unwrap().contains("welcome"));
        assert_eq!(upstream.seen().len(), round, "asked again");
    }
}

#[test]
fn a_page_missing_from_the_cache_is_rendered_once_for_concurrent_visitors() {
    let upstream = start_upstream(Behaviour::SlowAnswers);
    let host = loader_host(&["--api-upstream", &upstream.url]);
    let url = public_page(&host, "whoami", "single-flight");
    let visitors: Vec<_> = (0..10)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || get_page(&url, &[]).text().unwrap())
        })
        .collect();
    for visitor in visitors {
        assert!(visitor.join().unwrap().contains("cookie=None"));
    }
    assert_eq!(
        upstream.seen().len(),
        1,
        "one render, one call, for ten visitors"
    );
}

/// What the languages page names after its family's keys, if its answer may be kept.
fn data_keys_of(response: &reqwest::blocking::Response) -> Vec<String> {
    let keys = support::header(response, "surrogate-key");
    let family = keys
        .split(' ')
        .position(|key| key.starts_with("route-"))
        .unwrap_or_else(|| panic!("no family in {keys:?}"));
    keys.split(' ').skip(family + 1).map(String::from).collect()
}

/// An upstream's `Surrogate-Key` reaches the page read strictly: 16 keys of one answer at
/// most, each 1 to 64 bytes of `[a-z0-9._-]`, none named as the host's own keys are (a
/// build, a family, a language, a route), and what is dropped is logged once a process for
/// each reason; the upstream's own `/api` answer is named as strictly, after `api`.
#[test]
fn an_upstreams_surrogate_keys_reach_the_page_bounded_and_sanitised() {
    use axum::http::HeaderValue;
    use axum::routing::get;

    let many: Vec<String> = (0..20).map(|i| format!("k{i}")).collect();
    let fields: Vec<Vec<u8>> = vec![
        b"language-en Item-1 cl\xc3\xa9 build-deadbeef lang-fr pages api-v2 route-x".to_vec(),
        format!("%0d%0aX-Injected:evil <script> a,b {}", "k".repeat(65)).into_bytes(),
        many.join(" ").into_bytes(),
    ];
    let upstream = Upstream::builder()
        .route(
            "/api/languages/{code}",
            get(move || {
                let fields = fields.clone();
                async move {
                    let body =
                        r#"{"code":"en","locale":"en-US","name":"English","direction":"ltr"}"#;
                    let mut answer = upstream::json(body.to_string());
                    let public = HeaderValue::from_static("public, max-age=60");
                    answer.headers_mut().insert("cache-control", public);
                    for field in fields {
                        let value = HeaderValue::from_bytes(&field).unwrap();
                        answer.headers_mut().append("surrogate-key", value);
                    }
                    answer
                }
            }),
        )
        .start();
    let host = Host::started(&["--api-upstream", &upstream.url]);
    let mut expected = vec!["language-en".to_string()];
    expected.extend(many[..15].iter().cloned());
    let language_page =
        |language, code| support::app_page(language, "languages", &[("code", code)]);
    for path in [
        language_page("fr", "en"),
        language_page("en", "en"),
        language_page("fr", "en"),
    ] {
        let path = path.as_str();
        let page = client().get(host.url(path)).send().unwrap();
        assert_eq!(page.status(), 200, "{path}");
        assert!(
            support::header(&page, "cache-control").starts_with("public"),
            "{path}"
        );
        assert_eq!(data_keys_of(&page), expected, "{path}");
        let keys = support::header(&page, "surrogate-key");
        assert_eq!(support::header(&page, "cache-tag"), keys.replace(' ', ","));
        assert_eq!(page.headers().get_all("surrogate-key").iter().count(), 1);
        assert!(page.headers().get("x-injected").is_none());
    }
    let api = client().get(host.url("/api/languages/en")).send().unwrap();
    assert_eq!(
        support::header(&api, "surrogate-key"),
        format!("api {}", expected.join(" ")),
        "the upstream's own keys, as strictly, after the family's"
    );
    let logs = host.logs();
    let dropped: Vec<&str> = logs
        .lines()
        .filter(|line| line.contains("a data key was dropped"))
        .collect();
    assert_eq!(dropped.len(), 3, "once a reason: {dropped:#?}");
    for why in [
        "not 1 to 64 bytes",
        "the host's own keys",
        "past the 16 keys",
    ] {
        assert!(
            dropped.iter().any(|line| line.contains(why)),
            "{why}: {dropped:#?}"
        );
    }
}

/// An upstream whose header lines are folded or broken (obsolete line folding, which the
/// host's HTTP client refuses, failing the call; a bare LF) never gets a line break, or a
/// header of its own, into the page's answer.
#[test]
fn an_upstreams_folded_or_broken_header_lines_never_reach_the_pages_answer() {
    use std::io::{Read as _, Write as _};

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let mut stream = stream.unwrap();
            let mut request = Vec::new();
            let mut buffer = [0; 4096];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                let read = stream.read(&mut buffer).unwrap();
                if read == 0 {
                    break;
                }
                request.extend_from_slice(&buffer[..read]);
            }
            let folded = request.starts_with(b"GET /api/languages/en ");
            let body = r#"{"code":"en","locale":"en-US","name":"English","direction":"ltr"}"#;
            let keys: &[u8] = match folded {
                true => b"Surrogate-Key: language-en\r\n x-injected: evil\r\n",
                false => b"Surrogate-Key: language-fr\nX-Injected: evil\r\n",
            };
            let mut answer = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n".to_vec();
            answer.extend_from_slice(keys);
            answer.extend_from_slice(
                format!(
                    "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                )
                .as_bytes(),
            );
            let _ = stream.write_all(&answer);
        }
    });
    let host = Host::started(&["--api-upstream", &url]);
    let (english, french) = (
        support::app_page("fr", "languages", &[("code", "en")]),
        support::app_page("fr", "languages", &[("code", "fr")]),
    );
    for path in [english.as_str(), french.as_str()] {
        let page = client().get(host.url(path)).send().unwrap();
        assert!(page.headers().get("x-injected").is_none(), "{path}");
        for name in ["surrogate-key", "cache-tag"] {
            for value in page.headers().get_all(name) {
                let value = value.to_str().unwrap();
                assert!(
                    value.bytes().all(|b| b.is_ascii_lowercase()
                        || b.is_ascii_digit()
                        || b" ,.-_".contains(&b)),
                    "{path} {name}: {value:?}"
                );
                assert!(
                    !value.contains("injected") && !value.contains("evil"),
                    "{path}: {value}"
                );
            }
        }
        if path == french {
            // A bare LF ends the line: the key before it is the upstream's, what follows
            // is a header of the upstream's answer, not of the page's.
            assert_eq!(data_keys_of(&page), ["language-fr"]);
        }
    }
}

/// A loader's calls keep their connection to the upstream while its answers allow it, and
/// however an answer is framed (in chunks, by its length, then closed), each page has its
/// data.
#[test]
fn a_loaders_upstream_connection_is_used_again_and_each_answer_framing_gives_its_data() {
    use std::io::{Read as _, Write as _};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (connections, calls) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (accepted, answered) = (connections.clone(), calls.clone());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let mut stream = stream.unwrap();
            accepted.fetch_add(1, Ordering::SeqCst);
            let answered = answered.clone();
            std::thread::spawn(move || {
                loop {
                    let mut request = Vec::new();
                    let mut byte = [0; 1];
                    while !request.ends_with(b"\r\n\r\n") {
                        if stream.read(&mut byte).unwrap_or(0) == 0 {
                            return;
                        }
                        request.push(byte[0]);
                    }
                    let n = answered.fetch_add(1, Ordering::SeqCst);
                    let body = upstream::status_json(&format!("9.9.{n}-upstream"));
                    let (head, body, close) = match n {
                        0 => (
                            "Transfer-Encoding: chunked\r\n".to_owned(),
                            format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len()),
                            false,
                        ),
                        1 => (format!("Content-Length: {}\r\n", body.len()), body, true),
                        _ => (format!("Content-Length: {}\r\n", body.len()), body, false),
                    };
                    let answer = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{head}\r\n{body}"
                    );
                    if stream.write_all(answer.as_bytes()).is_err() || close {
                        return;
                    }
                }
            });
        }
    });
    let host = Host::started(&["--render-threads", "1", "--api-upstream", &url]);
    let status = support::app_page("fr", "status", &[]);
    for n in 0..3 {
        let html = client()
            .get(host.url(&status))
            .header("cookie", format!("session={n}"))
            .send()
            .unwrap()
            .text()
            .unwrap();
        assert!(
            html.contains(&format!("<dd>9.9.{n}-upstream</dd>")),
            "{n}: {html}"
        );
    }
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    assert_eq!(
        connections.load(Ordering::SeqCst),
        2,
        "the first connection carried two calls; the upstream closed it after the second"
    );
}
