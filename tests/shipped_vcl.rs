//! The VCL we ship, `deploy/varnish.vcl`, run by the real varnishd in front of the real
//! binary: a stopped origin's pages are served stale for their `stale-if-error` (Varnish
//! alone does not), and not past it; an up origin's page is never served stale past its
//! `stale-while-revalidate`; an earlier build's assets, served from `--previous-assets`,
//! go with a purge of that build. (Purging by key: `cdn.rs`.)

use std::time::{Duration, Instant};

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
