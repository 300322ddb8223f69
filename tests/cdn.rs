//! Behind a real shared cache: Varnish, with its built-in VCL and nothing of ours, in front
//! of the binary. Public pages are hits after one request, their `Age` grows, a
//! revalidation is a 304, a page holding a visitor's data never reaches another visitor,
//! and a new build's pages replace the old ones when their time is up. Purging by key runs
//! the VCL we ship, `deploy/varnish.vcl` (its other duties: `shipped_vcl.rs`).

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support;
use crate::support::binary::Host;
use crate::support::header;
use crate::support::machine;

const BROWSERS: &str = "gzip, deflate, br";

/// `varnishd` in the foreground, in front of one backend: with its built-in VCL, ours
/// (`deploy/varnish.vcl`), or a test's.
pub struct Varnish {
    child: Child,
    dir: std::path::PathBuf,
    pub base: String,
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Varnish {
    fn start(backend: &str) -> Self {
        Self::run(&["-b", backend.trim_start_matches("http://")])
    }

    /// With `vcl` after a `vcl 4.1;` line and a backend `default` at `backend`.
    pub fn start_with(backend: &str, vcl: Option<&str>) -> Self {
        let address = backend.trim_start_matches("http://");
        match vcl {
            None => Self::run(&["-b", address]),
            Some(vcl) => {
                let (host, port) = address.rsplit_once(':').unwrap();
                Self::start_vcl(&format!(
                    "vcl 4.1;\nbackend default {{ .host = \"{host}\"; .port = \"{port}\"; }}\n{vcl}"
                ))
            }
        }
    }

    /// With the VCL the project ships, `deploy/varnish.vcl`, its backend at `backend`.
    pub fn start_shipped(backend: &str) -> Self {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/varnish.vcl");
        let shipped = std::fs::read_to_string(file).unwrap();
        let (host, port) = backend
            .trim_start_matches("http://")
            .rsplit_once(':')
            .unwrap();
        let (from_host, from_port) = (".host = \"bilingue\";", ".port = \"80\";");
        assert!(
            shipped.contains(from_host) && shipped.contains(from_port),
            "{file} names its backend as {from_host} {from_port}"
        );
        Self::start_vcl(
            &shipped
                .replacen(from_host, &format!(".host = \"{host}\";"), 1)
                .replacen(from_port, &format!(".port = \"{port}\";"), 1),
        )
    }

    /// With this whole VCL.
    pub fn start_vcl(vcl: &str) -> Self {
        let file = std::env::temp_dir().join(format!(
            "bilingue-varnish-{}-{}.vcl",
            std::process::id(),
            free_port()
        ));
        std::fs::write(&file, vcl).unwrap();
        let varnish = Self::run(&["-f", file.to_str().unwrap()]);
        let _ = std::fs::remove_file(&file);
        varnish
    }

    /// `varnishd` in the foreground with these arguments, once it listens.
    fn run(args: &[&str]) -> Self {
        machine::require(&["varnish", "varnish-modules"]);
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("bilingue-varnish-{port}"));
        let mut command = Command::new("varnishd");
        command
            .env("PATH", machine::path())
            .args(["-F", "-j", "none", "-s", "malloc,64m"])
            .args(["-a", &format!("127.0.0.1:{port}")])
            .args(args);
        let child = command
            .arg("-n")
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run varnishd ({e}): apt-get install -y varnish"));
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        let mut varnish = Self { child, dir, base };
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            let exited = varnish.child.try_wait().unwrap();
            assert!(
                exited.is_none(),
                "varnishd exited ({exited:?}): check its VCL with varnishd -C -f"
            );
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "varnishd did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        varnish
    }

    /// Drops what one purge key (or several, space-separated) names; Varnish's answer.
    pub fn purge(&self, key: &str) -> String {
        let answer = crate::support::client()
            .request(reqwest::Method::from_bytes(b"PURGE").unwrap(), &self.base)
            .header("xkey", key)
            .send()
            .unwrap();
        assert_eq!(answer.status(), 200, "{key}");
        answer.text().unwrap()
    }

    pub fn get(&self, path: &str, headers: &[(&str, &str)]) -> reqwest::blocking::Response {
        let mut request = crate::support::client().get(format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().unwrap()
    }
}

impl Drop for Varnish {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Varnish names two transactions on a hit (this one and the one that fetched the object).
pub fn is_hit(response: &reqwest::blocking::Response) -> bool {
    header(response, "x-varnish").split_whitespace().count() == 2
}

#[test]
fn after_one_request_per_page_public_pages_are_hits_under_load() {
    let host = Host::started(&["--render-threads", "1"]);
    let varnish = Varnish::start(&host.base);
    let pages = ["/fr/", "/en/", "/fr/nowhere", "/en/nowhere"];
    for page in pages {
        varnish.get(page, &[("accept-encoding", BROWSERS)]);
    }
    let workers: Vec<_> = (0..8)
        .map(|worker| {
            let base = varnish.base.clone();
            std::thread::spawn(move || {
                let client = crate::support::client();
                let mut hits = 0;
                for i in 0..150 {
                    let page = pages[(worker + i) % pages.len()];
                    let response = client
                        .get(format!("{base}{page}"))
                        .header("accept-encoding", BROWSERS)
                        .send()
                        .unwrap();
                    assert!(
                        response.status() == 200 || response.status() == 404,
                        "{page}"
                    );
                    hits += usize::from(is_hit(&response));
                    response.bytes().unwrap();
                }
                hits
            })
        })
        .collect();
    let hits: usize = workers.into_iter().map(|w| w.join().unwrap()).sum();
    let share = hits as f64 / 1200.0;
    eprintln!(
        "through Varnish: {hits} hits of 1200 ({:.1}%)",
        share * 100.0
    );
    assert!(share >= 0.99, "{hits} hits of 1200");
}

#[test]
fn a_kept_pages_age_grows_and_its_revalidation_is_a_304() {
    let host = Host::started(&["--render-threads", "1"]);
    let varnish = Varnish::start(&host.base);
    let first = varnish.get("/fr/", &[("accept-encoding", BROWSERS)]);
    let etag = header(&first, "etag");
    assert!(!etag.is_empty());
    std::thread::sleep(Duration::from_millis(2100));
    let later = varnish.get("/fr/", &[("accept-encoding", BROWSERS)]);
    assert!(is_hit(&later));
    let age: u64 = header(&later, "age").parse().unwrap();
    assert!(age >= 2, "Age {age}");
    let revalidation = varnish.get(
        "/fr/",
        &[("accept-encoding", BROWSERS), ("if-none-match", &etag)],
    );
    assert_eq!(revalidation.status(), 304);
    assert!(is_hit(&revalidation));
}

#[test]
fn a_page_holding_a_visitors_data_never_reaches_another_visitor() {
    use axum::http::HeaderMap;
    use axum::routing::get;

    use crate::support::upstream::Upstream;
    let upstream = Upstream::builder()
        .route(
            "/api/whoami",
            get(|headers: HeaderMap| async move {
                let text = |name: &str| {
                    headers
                        .get(name)
                        .map(|v| v.to_str().unwrap().to_string())
                        .unwrap_or_default()
                };
                format!(
                    "cookie=[{}] authorization=[{}]",
                    text("cookie"),
                    text("authorization")
                )
            }),
        )
        .start();
    let bundle = support::LOADER_BUNDLE;
    let host = Host::started(&["--server-bundle", bundle, "--api-upstream", &upstream.url]);
    let varnish = Varnish::start(&host.base);
    // The loader declares its data public, and calls the API with what the visitor sent.
    let page = "/fr/public/%2Fapi%2Fwhoami";
    let visitors: [&[(&str, &str)]; 4] = [
        &[("cookie", "session=alice-secret")],
        &[("authorization", "Bearer bob-secret")],
        &[],
        &[
            ("cookie", "alice-token-secret"),
            ("authorization", "Basic carol-secret"),
        ],
    ];
    for round in 0..3 {
        for (i, visitor) in visitors.iter().enumerate() {
            let html = varnish.get(page, visitor).text().unwrap();
            let others: Vec<&str> = [
                "alice-secret",
                "bob-secret",
                "alice-token-secret",
                "carol-secret",
            ]
            .into_iter()
            .filter(|secret| !visitor.iter().any(|(_, value)| value.contains(secret)))
            .collect();
            for secret in others {
                assert!(
                    !html.contains(secret),
                    "round {round}, visitor {i} saw {secret}: {html}"
                );
            }
        }
    }
    let anonymous = varnish.get(page, &[]);
    assert!(is_hit(&anonymous), "the public version is kept");
    assert!(
        anonymous
            .text()
            .unwrap()
            .contains("cookie=[] authorization=[]")
    );
}

#[test]
fn a_new_builds_pages_replace_the_old_once_their_time_is_up() {
    let port = free_port().to_string();
    let short = [
        "--port",
        &port,
        "--page-max-age",
        "0s",
        "--page-s-maxage",
        "1s",
        "--page-stale-while-revalidate",
        "0s",
    ];
    let old = Host::started(&short);
    let varnish = Varnish::start(&old.base);
    let before = varnish.get("/fr/", &[("accept-encoding", BROWSERS)]);
    let old_etag = header(&before, "etag");
    assert!(crate::support::gunzip(&before.bytes().unwrap()).contains("Bienvenue sur Bilingue"));
    old.terminate();
    old.wait_exit(Duration::from_secs(10));
    // Another build: the faulty fixture's bundle, on the same address.
    let bundle = support::FAULTY_BUNDLE;
    let mut args = short.to_vec();
    args.extend(["--server-bundle", bundle]);
    let _new = Host::started(&args);
    std::thread::sleep(Duration::from_millis(1500));
    let after = varnish.get("/fr/", &[]);
    assert_ne!(header(&after, "etag").trim_start_matches("W/"), old_etag);
    assert!(
        after.text().unwrap().contains("<p>rendered /</p>"),
        "the new build's page"
    );
}

#[test]
fn the_way_from_an_unprefixed_url_is_kept_for_those_without_a_cookie_only() {
    let host = Host::started(&["--render-threads", "1"]);
    let varnish = Varnish::start(&host.base);
    for _ in 0..2 {
        let anonymous = varnish.get("/status", &[]);
        assert_eq!(anonymous.status(), 302);
        assert_eq!(
            header(&anonymous, "location"),
            support::app_page("fr", "status", &[])
        );
    }
    assert!(
        is_hit(&varnish.get("/status", &[])),
        "kept for the next visitor without a cookie"
    );
    for _ in 0..2 {
        let english = varnish.get("/status", &[("cookie", "bilingue_lang=en")]);
        assert_eq!(
            header(&english, "location"),
            support::app_page("en", "status", &[]),
            "never the kept French way"
        );
        assert!(!is_hit(&english));
    }
}

#[test]
fn a_cdn_can_be_told_to_keep_a_page_a_day_in_human_units() {
    let host = Host::started(&[
        "--page-s-maxage",
        "1d",
        "--page-max-age",
        "90s",
        "--page-stale-while-revalidate",
        "5m",
        "--page-stale-if-error",
        "2d",
    ]);
    let page = crate::support::client()
        .get(host.url("/fr/"))
        .send()
        .unwrap();
    assert_eq!(
        header(&page, "cache-control"),
        "public, max-age=90, s-maxage=86400, stale-while-revalidate=300, stale-if-error=172800"
    );
    let seconds = Host::started(&["--page-s-maxage", "86400s"]);
    let page = crate::support::client()
        .get(seconds.url("/fr/"))
        .send()
        .unwrap();
    assert!(header(&page, "cache-control").contains("s-maxage=86400"));

    // Each option keeps its own bounds, and says them.
    for (option, value, bounds) in [
        ("--page-s-maxage", "400d", "0s..365d"),
        ("--render-timeout", "5m", "1ms..1m"),
        ("--drain-delay", "2h", "0s..1h"),
        ("--page-stale-if-error", "31d", "0s..30d"),
    ] {
        let exit = Host::run(&[option, value], Duration::from_secs(10));
        assert_eq!(
            exit.status.code(),
            Some(2),
            "{option} {value}: {}",
            exit.logs
        );
        assert!(
            exit.logs.contains(option) && exit.logs.contains(bounds),
            "{option} {value}: {}",
            exit.logs
        );
    }
}

#[test]
fn a_purge_by_key_drops_one_builds_pages_one_language_or_everything_of_a_build() {
    let host = Host::started(&[]);
    // The VCL we ship purges by key with xkey (Debian's varnish-modules).
    let varnish = Varnish::start_shipped(&host.base);
    let home = varnish.get("/fr/", &[]);
    let keys = header(&home, "surrogate-key");
    let build = keys
        .split(' ')
        .find_map(|key| key.strip_prefix("build-"))
        .unwrap_or_else(|| panic!("no build in {keys:?}"))
        .to_string();
    assert_eq!(
        keys,
        format!("build-{build} pages pages-build-{build} lang-fr route-home")
    );
    assert_eq!(header(&home, "cache-tag"), keys.replace(' ', ","));
    let script = support::module_scripts(&home.text().unwrap())[0].clone();
    let kept = [
        "/fr/",
        "/en/",
        "/en/nowhere",
        "/status",
        script.as_str(),
        "/robots.txt",
    ];
    let all_hits = |expected: [bool; 6]| {
        let seen: Vec<bool> = kept
            .iter()
            .map(|path| is_hit(&varnish.get(path, &[])))
            .collect();
        assert_eq!(seen, expected, "hits of {kept:?}");
    };
    let purge = |key: &str| varnish.purge(key);
    for path in kept {
        varnish.get(path, &[]);
    }
    all_hits([true; 6]);
    for (path, family) in [
        ("/en/nowhere", "lang-en route-other"),
        ("/status", "route-status"),
    ] {
        let keys = header(&varnish.get(path, &[]), "surrogate-key");
        assert!(keys.ends_with(family), "{path}: {keys}");
    }
    assert_eq!(
        header(&varnish.get(&script, &[]), "surrogate-key"),
        format!("build-{build} assets assets-build-{build}")
    );
    // A private answer names nothing to purge.
    let status = support::app_page("fr", "status", &[]);
    assert_eq!(header(&varnish.get(&status, &[]), "surrogate-key"), "");

    assert!(purge("lang-en").contains("Purged 2"));
    all_hits([true, false, false, true, true, true]);
    purge(&format!("pages-build-{build}"));
    all_hits([false, false, false, false, true, true]);
    purge(&format!("build-{build}"));
    all_hits([false, false, false, false, false, false]);
}

/// Each language's page shows the data of `/api/languages/:code`, whose answer names it
/// `language-<code>`: a purge of that key drops the pages that showed it, in every language,
/// and the API's own answer, and nothing else.
#[test]
fn a_purge_of_a_data_key_drops_exactly_the_pages_that_showed_that_data() {
    let host = Host::started(&[]);
    let varnish = Varnish::start_shipped(&host.base);
    let language =
        |in_language, code| support::app_page(in_language, "languages", &[("code", code)]);
    let kept = [
        language("fr", "en"),
        language("en", "en"),
        language("fr", "fr"),
        "/fr/".into(),
        "/api/languages/en".into(),
        "/api/languages/fr".into(),
    ];
    for path in &kept {
        assert_eq!(varnish.get(path, &[]).status(), 200, "{path}");
    }
    let hits = || -> Vec<bool> {
        kept.iter()
            .map(|path| is_hit(&varnish.get(path, &[])))
            .collect()
    };
    assert_eq!(hits(), [true; 6], "{kept:?}");
    let page = varnish.get(&language("en", "en"), &[]);
    let keys = header(&page, "surrogate-key");
    assert!(
        keys.ends_with(" lang-en route-languages language-en"),
        "its family's keys, then its data's: {keys}"
    );
    assert_eq!(header(&page, "cache-tag"), keys.replace(' ', ","));
    assert_eq!(
        header(&varnish.get("/api/languages/en", &[]), "surrogate-key"),
        "api language-en"
    );

    let purged = varnish.purge("language-en");
    assert!(purged.contains("Purged 3"), "{purged}");
    assert_eq!(
        hits(),
        [false, false, true, true, false, true],
        "only what showed language-en went: {kept:?}"
    );
}

/// An upstream's data changes: its key purged on the replica's own page cache (its
/// operations listener), then on the shared cache, brings the new data to exactly the pages
/// that showed it. Purged on the shared cache alone, the replica's kept page comes back.
#[test]
fn a_change_upstream_reaches_its_pages_once_its_key_is_purged_on_the_replica_then_the_cdn() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use axum::extract::Path;
    use axum::routing::get;

    use crate::support::upstream::{self, Upstream};
    let revised = Arc::new(AtomicBool::new(false));
    let upstream = {
        let revised = revised.clone();
        Upstream::builder()
            .route(
                "/api/languages/{code}",
                get(move |Path(code): Path<String>| {
                    let revised = revised.load(Ordering::SeqCst);
                    async move {
                        let (locale, name) = match code.as_str() {
                            "en" if revised => ("en-US", "English (revised)"),
                            "en" => ("en-US", "English"),
                            _ => ("fr-FR", "Français"),
                        };
                        let body = format!(
                            r#"{{"code":"{code}","locale":"{locale}","name":"{name}","direction":"ltr"}}"#
                        );
                        let mut answer = upstream::json(body);
                        let key = format!("language-{code} languages").parse().unwrap();
                        answer.headers_mut().insert("surrogate-key", key);
                        answer
                    }
                }),
            )
            .start()
    };
    let host = Host::started(&["--api-upstream", &upstream.url]);
    let varnish = Varnish::start_shipped(&host.base);
    let language =
        |in_language, code| support::app_page(in_language, "languages", &[("code", code)]);
    let pages = [
        language("fr", "en"),
        language("en", "en"),
        language("fr", "fr"),
    ];
    let shown = || -> Vec<(bool, bool)> {
        pages
            .iter()
            .map(|path| {
                let page = varnish.get(path, &[]);
                let hit = is_hit(&page);
                (hit, page.text().unwrap().contains("English (revised)"))
            })
            .collect()
    };
    shown();
    assert_eq!(shown(), [(true, false); 3]);
    let keys = header(&varnish.get(&language("fr", "en"), &[]), "surrogate-key");
    assert!(
        keys.ends_with(" route-languages language-en languages"),
        "the upstream's keys, after the family's: {keys}"
    );

    revised.store(true, Ordering::SeqCst);
    assert!(varnish.purge("language-en").contains("Purged 2"));
    assert_eq!(
        shown(),
        [(false, false), (false, false), (true, false)],
        "fetched again from the replica, which still keeps them"
    );

    let replica = crate::support::client()
        .request(
            reqwest::Method::from_bytes(b"PURGE").unwrap(),
            format!("{}/", crate::support::metrics_url(&host.base)),
        )
        .header("xkey", "language-en")
        .send()
        .unwrap();
    assert_eq!(replica.status(), 200);
    assert_eq!(replica.text().unwrap(), "Purged 2\n");
    assert!(varnish.purge("language-en").contains("Purged 2"));
    assert_eq!(
        shown(),
        [(false, true), (false, true), (true, false)],
        "the new data, on exactly its pages"
    );
    assert_eq!(shown(), [(true, true), (true, true), (true, false)]);
    // The replica's purge is on its operations listener only, never on the public port.
    let public = crate::support::client()
        .request(
            reqwest::Method::from_bytes(b"PURGE").unwrap(),
            host.url("/"),
        )
        .header("xkey", "language-en")
        .send()
        .unwrap();
    assert_ne!(public.status(), 200);
}
