//! The VCL we ship, `deploy/varnish.vcl`, run by the real varnishd in front of the real
//! binary: a stopped origin's pages are served stale for their `stale-if-error` (Varnish
//! alone does not), and not past it; an up origin's page is never served stale past its
//! `stale-while-revalidate`; an earlier build's assets, served from `--previous-assets`,
//! go with a purge of that build; the way from `/` is kept once per language whatever
//! browsers send as `Accept-Language`, and a crawler is led to the default whatever is
//! kept. (Purging by key: `cdn.rs`.)

use std::time::{Duration, Instant};

use crate::accept_language;
use crate::cdn::{Varnish, is_hit};
use crate::support::binary::Host;
use crate::support::{self, header, module_scripts};

fn sleep_until(at: Instant) {
    std::thread::sleep(at.saturating_duration_since(Instant::now()));
}

#[test]
fn a_stopped_origins_page_is_served_for_its_stale_if_error_and_not_after() {
    // Kept 1 s, then served stale for 1 s while fetched again, or for 4 s while the origin
    // errs.
    let host = Host::started(&[
        "--page-max-age",
        "0s",
        "--page-s-maxage",
        "1s",
        "--page-stale-while-revalidate",
        "1s",
        "--page-stale-if-error",
        "4s",
    ]);
    let varnish = Varnish::start_shipped(&host.base);
    let first = varnish.get("/fr/", &[]);
    assert_eq!(first.status(), 200);
    assert!(
        header(&first, "cache-control").ends_with("stale-while-revalidate=1, stale-if-error=4"),
        "{}",
        header(&first, "cache-control")
    );

    // The origin up: past s-maxage and stale-while-revalidate the page is fetched again
    // before it is answered, never the kept one for stale-if-error.
    std::thread::sleep(Duration::from_millis(2500));
    let fetched = Instant::now();
    let refreshed = varnish.get("/fr/", &[]);
    assert_eq!(refreshed.status(), 200);
    assert_eq!(header(&refreshed, "age"), "0", "fetched again, not stale");
    let etag = header(&refreshed, "etag");

    host.terminate();
    host.wait_exit(Duration::from_secs(10));
    // Past s-maxage and stale-while-revalidate, within stale-if-error: the kept page.
    for after in [2500, 4500] {
        sleep_until(fetched + Duration::from_millis(after));
        let stale = varnish.get("/fr/", &[]);
        assert_eq!(stale.status(), 200, "{after} ms after the fetch");
        let age: u64 = header(&stale, "age").parse().unwrap();
        assert!(age >= 2, "{after} ms: Age {age}");
        assert_eq!(header(&stale, "etag"), etag);
        assert!(
            stale.text().unwrap().contains("Bienvenue sur Bilingue"),
            "the page itself"
        );
    }
    // Past stale-if-error too, which counts from the end of s-maxage (5 s in all): gone.
    sleep_until(fetched + Duration::from_millis(5600));
    assert_eq!(varnish.get("/fr/", &[]).status(), 503);
}

/// The build ID in an answer's `Surrogate-Key`.
fn build_of(response: &reqwest::blocking::Response) -> String {
    let keys = header(response, "surrogate-key");
    keys.split(' ')
        .find_map(|key| key.strip_prefix("build-"))
        .unwrap_or_else(|| panic!("no build in {keys:?}"))
        .to_string()
}

#[test]
fn an_earlier_builds_assets_carry_its_key_and_go_with_a_purge_of_it() {
    let work = std::env::temp_dir().join(format!("bilingue-earlier-assets-{}", std::process::id()));
    let shared = work.join("assets");
    let shared = shared.to_str().unwrap();
    // Build A, the binary's own: its assets (and their list) into the shared folder, as a
    // release does before its rollout.
    let written = Host::run(&["--write-assets", shared], Duration::from_secs(20));
    assert!(written.status.success(), "{}", written.logs);
    let a = Host::started(&[]);
    let a_page = support::client().get(a.url("/fr/")).send().unwrap();
    let a_build = build_of(&a_page);
    let a_script = module_scripts(&a_page.text().unwrap())[0].clone();
    drop(a);

    // Build B (other app code, so other asset names) serves A's assets from the folder.
    let b_dir = crate::deploy_skew::variant_build(&work.join("variant"));
    let b = Host::started(&[
        "--app-build",
        b_dir.to_str().unwrap(),
        "--previous-assets",
        shared,
    ]);
    let varnish = Varnish::start_shipped(&b.base);
    let b_page = varnish.get("/fr/", &[]);
    let b_build = build_of(&b_page);
    let b_script = module_scripts(&b_page.text().unwrap())[0].clone();
    assert_ne!(a_build, b_build);
    assert_ne!(a_script, b_script);

    let earlier = varnish.get(&a_script, &[]);
    assert_eq!(earlier.status(), 200, "{a_script}");
    let keys = header(&earlier, "surrogate-key");
    assert_eq!(
        keys,
        format!("build-{a_build} assets assets-build-{a_build} assets-previous")
    );
    assert_eq!(header(&earlier, "cache-tag"), keys.replace(' ', ","));
    assert_eq!(
        header(&varnish.get(&b_script, &[]), "surrogate-key"),
        format!("build-{b_build} assets assets-build-{b_build}")
    );

    let kept = ["/fr/", b_script.as_str(), a_script.as_str()];
    let hits = || -> Vec<bool> {
        kept.iter()
            .map(|path| is_hit(&varnish.get(path, &[])))
            .collect()
    };
    assert_eq!(hits(), [true, true, true], "{kept:?}");
    let purged = varnish.purge(&format!("build-{a_build}"));
    assert!(!purged.contains("Purged 0"), "{purged}");
    assert_eq!(hits(), [true, true, false], "only A's asset went: {kept:?}");
    let _ = std::fs::remove_dir_all(&work);
}

/// Where the way from `/` led, and whether Varnish answered it from its cache.
fn way_through(varnish: &Varnish, user_agent: &[u8], accept_language: &[u8]) -> (String, bool) {
    let way = accept_language::ask(
        &varnish.base,
        "/",
        &[
            ("user-agent", user_agent),
            ("accept-language", accept_language),
        ],
    );
    assert_eq!(way.status(), 302);
    (header(&way, "location"), is_hit(&way))
}

#[test]
fn the_way_from_the_root_is_kept_once_per_language_whatever_browsers_send() {
    let host = Host::started(&[]);
    let varnish = Varnish::start_shipped(&host.base);
    let browser = accept_language::BROWSER.as_bytes();
    let mut asked: Vec<(Vec<u8>, Vec<&str>)> = accept_language::BROWSERS
        .iter()
        .map(|(header, leads)| (header.as_bytes().to_vec(), leads.to_vec()))
        .collect();
    asked.extend(accept_language::odd_headers());
    // The same headers as other browsers write them: other cases, spaces, weights.
    let more: Vec<_> = asked
        .iter()
        .map(|(value, leads)| {
            let text = String::from_utf8_lossy(value);
            (
                text.to_uppercase().replace(',', " ,\t").into_bytes(),
                leads.clone(),
            )
        })
        .filter(|(value, _)| value.is_ascii())
        .collect();
    asked.extend(more);

    let mut fetched: Vec<String> = Vec::new();
    for round in ["first", "second"] {
        for (accept_language, leads) in &asked {
            let shown = String::from_utf8_lossy(accept_language)
                .chars()
                .take(40)
                .collect::<String>();
            let language = accept_language::first_offered(leads);
            let (to, hit) = way_through(&varnish, browser, accept_language);
            assert_eq!(
                to,
                accept_language::page_in(&language, "home"),
                "{round}: {shown:?}"
            );
            let direct = accept_language::ask(
                &host.base,
                "/",
                &[
                    ("user-agent", browser),
                    ("accept-language", accept_language),
                ],
            );
            assert_eq!(header(&direct, "location"), to, "the host alone: {shown:?}");
            if !hit {
                fetched.push(to);
            }
        }
    }
    let (languages, _) = accept_language::site_languages();
    eprintln!(
        "{} requests of {} headers through Varnish: {} fetched ({fetched:?}), the rest hits",
        2 * asked.len(),
        asked.len(),
        fetched.len()
    );
    assert!(
        fetched.len() <= languages.len(),
        "at most one way kept per language: {fetched:?}"
    );
    let mut distinct = fetched.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        fetched.len(),
        "each fetched once: {fetched:?}"
    );

    // Headers made of the pieces headers are made of: Varnish's reduction and the host's
    // lookup agree on every one, and still no more is kept.
    let mut seed = 0x1a9c_u64;
    let mut random = move || {
        // xorshift64: the same headers each run.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const PIECES: [&str; 17] = [
        "fr", "en", "de", "-CA", "-GB", "-US", "*", ",", ", ", ";q=", "0.5", "1", "0", " ", ";",
        "x", "\t",
    ];
    for _ in 0..300 {
        let value: String = (0..random() % 12)
            .map(|_| PIECES[(random() % PIECES.len() as u64) as usize])
            .collect();
        let (to, hit) = way_through(&varnish, browser, value.as_bytes());
        let direct = accept_language::ask(
            &host.base,
            "/",
            &[
                ("user-agent", browser),
                ("accept-language", value.as_bytes()),
            ],
        );
        assert_eq!(to, header(&direct, "location"), "{value:?}");
        if !hit {
            fetched.push(to);
        }
    }
    assert!(fetched.len() <= languages.len(), "{fetched:?}");
}

#[test]
fn a_crawler_is_led_to_the_default_behind_varnish_whatever_it_asks_and_whatever_is_kept() {
    let host = Host::started(&[]);
    let varnish = Varnish::start_shipped(&host.base);
    let (_, default) = accept_language::site_languages();
    let english = accept_language::first_offered(&["en"]);
    assert_ne!(
        english, default,
        "the test needs a language other than the default"
    );
    // A browser's English way is kept first, for the very header the crawlers send.
    let browser = accept_language::BROWSER.as_bytes();
    let asking_english = b"en-GB,en;q=0.9";
    way_through(&varnish, browser, asking_english);
    assert_eq!(
        way_through(&varnish, browser, asking_english),
        (accept_language::page_in(&english, "home"), true)
    );
    // isbot's corpus, asking English: the crawlers are led to the default, the browsers to
    // English, as the host alone leads them.
    let corpus = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/isbot-user-agents.txt"
    ))
    .unwrap();
    let mut led = std::collections::BTreeMap::<String, usize>::new();
    for user_agent in corpus
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
    {
        let (to, _) = way_through(&varnish, user_agent, b"en-GB,en;q=0.9");
        let direct = accept_language::ask(
            &host.base,
            "/",
            &[
                ("user-agent", user_agent),
                ("accept-language", b"en-GB,en;q=0.9"),
            ],
        );
        assert_eq!(
            to,
            header(&direct, "location"),
            "{}",
            String::from_utf8_lossy(user_agent)
        );
        *led.entry(to).or_default() += 1;
    }
    eprintln!("isbot's corpus asking English, through Varnish: {led:?}");
    let home = |language: &str| {
        led.get(&accept_language::page_in(language, "home"))
            .copied()
    };
    assert!(
        home(&default) > Some(500) && home(&english) > Some(500),
        "{led:?}"
    );
}
