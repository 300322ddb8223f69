//! Two sites in one process: each a build with its own list of languages (two generated
//! sites, `bench/site/build.mjs`: French and English; French, English, Arabic and German),
//! started side by side through the library's `Host` on one tokio runtime and served over
//! real HTTP, asked in turn and at once. Each answers with its own languages only: its
//! pages, its prefixes, its links, its landing, its sitemap, its API. A test binary of its
//! own: both sites run their bundle as a script, and V8 keeps isolates made from the
//! embedded snapshot (the integration binary's host) apart from those.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use bilingue::config::Config;
use bilingue::server::{self, ServeOptions};
use bilingue::{Host, render};
use clap::Parser;

/// A generated site's build, in a folder removed when the test ends.
struct Built(PathBuf);

impl Built {
    /// Starts building a site of the first `languages` of the generator's list.
    fn start(name: &str, languages: &str) -> (Self, std::process::Child) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir =
            std::env::temp_dir().join(format!("bilingue-two-sites-{name}-{}", std::process::id()));
        let child = Command::new("node")
            .arg("bench/site/build.mjs")
            .arg(&dir)
            .args(["--languages", languages, "--messages", "40"])
            .args(["--routes", "3", "--values", "5"])
            .current_dir(root)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("node runs (run `npm ci` if node_modules is missing)");
        (Self(dir), child)
    }
}

impl Drop for Built {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn finish(child: std::process::Child) {
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "bench/site/build.mjs failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Starts both sites on one runtime in this process; their addresses.
fn serve(builds: [&Path; 2]) -> [SocketAddr; 2] {
    render::init_v8();
    let configs = builds.map(|dir| {
        Config::parse_from([
            "bilingue",
            "--app-build",
            dir.to_str().unwrap(),
            "--render-threads",
            "1",
        ])
    });
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let mut addresses = Vec::new();
            for config in configs {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let address = listener.local_addr().unwrap();
                let host = Host::start(&config, address.port()).expect("the site starts");
                host.warmed().await.expect("the site warms up");
                let options = ServeOptions::from(&config);
                tokio::spawn(async move {
                    server::serve(
                        listener,
                        host.app(),
                        host.lifecycle(),
                        std::future::pending(),
                        options,
                    )
                    .await
                });
                addresses.push(address);
            }
            tx.send([addresses[0], addresses[1]]).unwrap();
            std::future::pending::<()>().await;
        });
    });
    rx.recv().expect("both sites started")
}

fn client() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// The hreflang values a page's document names, x-default left out.
fn hreflangs(html: &str) -> Vec<String> {
    html.split("hreflang=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|tag| *tag != "x-default")
        .map(str::to_owned)
        .collect()
}

#[test]
fn two_sites_with_their_own_languages_are_served_side_by_side_in_one_process() {
    let (two, building_two) = Built::start("two", "2");
    let (four, building_four) = Built::start("four", "4");
    finish(building_two);
    finish(building_four);
    let [a, b] = serve([&two.0, &four.0]);
    let (a, b) = (format!("http://{a}"), format!("http://{b}"));
    let http = client();
    let get = |url: String| {
        let response = http.get(&url).send().unwrap();
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get("location")
            .map(|v| v.to_str().unwrap().to_owned());
        (status, location, response.text().unwrap())
    };

    // Each site's API names its own list.
    let languages = |base: &str| {
        let (_, _, body) = get(format!("{base}/api/status"));
        let status: serde_json::Value = serde_json::from_str(&body).unwrap();
        status["languages"].clone()
    };
    assert_eq!(languages(&a), serde_json::json!(["fr", "en"]));
    assert_eq!(languages(&b), serde_json::json!(["fr", "en", "ar", "de"]));
    assert_eq!(get(format!("{a}/api/languages/de")).0, 404);
    assert_eq!(get(format!("{b}/api/languages/de")).0, 200);

    // A language one site has and the other has not: a page there, an unknown prefix here.
    let (status, _, german) = get(format!("{b}/de/"));
    assert_eq!(status, 200);
    assert!(german.contains("<html lang=\"de\""), "{german:.300}");
    let (status, _, arabic) = get(format!("{b}/ar/"));
    assert_eq!(status, 200);
    assert!(arabic.contains("dir=\"rtl\""), "{arabic:.300}");
    assert_eq!(get(format!("{a}/de/")).0, 404);

    // Each names its own languages' versions of a page, and only those.
    assert_eq!(hreflangs(&get(format!("{a}/fr/")).2), ["fr", "en"]);
    assert_eq!(hreflangs(&german), ["fr", "en", "ar", "de"]);

    // A visitor's saved German: the site that has it leads there, the other to its default.
    let landing = |base: &str| {
        let response = http
            .get(format!("{base}/"))
            .header("cookie", "bilingue_lang=de")
            .send()
            .unwrap();
        response.headers()["location"].to_str().unwrap().to_owned()
    };
    assert_eq!(landing(&a), "/fr/");
    assert_eq!(landing(&b), "/de/");

    // Each sitemap lists its own languages.
    let (_, _, sitemap_a) = get(format!("{a}/sitemap.xml"));
    let (_, _, sitemap_b) = get(format!("{b}/sitemap.xml"));
    assert!(sitemap_a.contains("hreflang=\"en\"") && !sitemap_a.contains("hreflang=\"de\""));
    assert!(sitemap_b.contains("hreflang=\"de\"") && sitemap_b.contains("hreflang=\"ar\""));

    // Asked at once, from several threads, each answers for itself alone.
    std::thread::scope(|scope| {
        for thread in 0..4 {
            let (a, b) = (&a, &b);
            scope.spawn(move || {
                let http = client();
                for round in 0..25 {
                    let (base, expected) = match (thread + round) % 2 {
                        0 => (a, vec!["fr", "en"]),
                        _ => (b, vec!["fr", "en", "ar", "de"]),
                    };
                    let html = http
                        .get(format!("{base}/en/"))
                        .send()
                        .unwrap()
                        .text()
                        .unwrap();
                    assert!(html.contains("<html lang=\"en\""), "{html:.300}");
                    assert_eq!(hreflangs(&html), expected, "{base}");
                }
            });
        }
    });
}
