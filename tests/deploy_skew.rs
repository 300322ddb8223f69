//! A rolling deploy, end to end: three replicas of build A behind HAProxy, Varnish in
//! front, replaced one by one by build B (other app code, so other asset names) while
//! clients fetch pages and every asset each page names. The edge holds A's pages the whole
//! time (s-maxage of a day); fresh URLs reach whichever replica HAProxy picks; assets pass
//! through Varnish to the replicas (the worst case: an edge that holds a page but not its
//! assets). Every replica, of either build, has `--previous-assets` on one shared folder:
//! A's binary wrote its assets there (`--write-assets`), and B's were added before the
//! rollout, so a replica of B serves a held page's A assets, and a replica of A serves
//! the assets of a page of B that another replica just made. No asset request fails, no
//! page lacks its scripts, before, during or after.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cdn::{Varnish, free_port};
use crate::support::binary::Host;
use crate::support::machine;
use crate::support::module_scripts;

/// A copy of the app with other French text (so other client chunks and entry), built
/// with the app's own build script into `DIR/out`: a build folder for `--app-build`.
pub fn variant_build(dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let copied = Command::new("cp")
        .arg("-r")
        .args([
            root.join("app"),
            root.join("package.json"),
            root.join("tsconfig.json"),
        ])
        .arg(dir)
        .status()
        .unwrap();
    assert!(copied.success());
    std::os::unix::fs::symlink(root.join("node_modules"), dir.join("node_modules")).unwrap();
    let table = dir.join("app/i18n/tables/fr.ts");
    let text = std::fs::read_to_string(&table).unwrap();
    let from = r#""home.heading": "Bienvenue sur Bilingue""#;
    assert!(
        text.contains(from),
        "app/i18n/tables/fr.ts no longer has {from}"
    );
    let changed = text.replace(
        from,
        r#""home.heading": "Bienvenue sur Bilingue, version B""#,
    );
    std::fs::write(&table, changed).unwrap();
    let out = dir.join("out");
    let built = Command::new("node")
        .arg("app/build.mjs")
        .arg(&out)
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(built.success(), "the variant builds");
    out
}

/// `haproxy` in the foreground, one backend of `replicas`, each checked on `/readyz`; a
/// request is retried on another replica when its connection fails (a replica that has
/// just exited). Never on a 404: the replicas themselves must have every asset.
///
/// A replica is taken out after three failed checks, as HAProxy's default has it: with
/// one, a check slower than its time-out on a loaded machine took a serving replica out,
/// and when that met a replica being replaced, none was left (14 pages answered 503 in
/// one CI run). A replica that drains says so for longer than three checks take.
struct HaProxy {
    child: Child,
    config: PathBuf,
    /// What HAProxy said on stderr: each server it took out or back, and why.
    log: PathBuf,
    base: String,
}

impl HaProxy {
    fn start(replicas: &[u16]) -> Self {
        machine::require(&["haproxy"]);
        let port = free_port();
        let servers: String = replicas
            .iter()
            .enumerate()
            .map(|(i, p)| format!("    server r{i} 127.0.0.1:{p} check\n"))
            .collect();
        let config = format!(
            "defaults
    mode http
    timeout connect 500ms
    timeout client 10s
    timeout server 10s
    timeout check 1s
    retries 3
    option redispatch 1
    option httpchk GET /readyz
    default-server inter 100ms fall 3 rise 2
frontend web
    bind 127.0.0.1:{port}
    default_backend replicas
backend replicas
    retry-on conn-failure empty-response response-timeout
{servers}"
        );
        let file = std::env::temp_dir().join(format!("bilingue-haproxy-{port}.cfg"));
        std::fs::write(&file, config).unwrap();
        let log = std::env::temp_dir().join(format!("bilingue-haproxy-{port}.log"));
        let child = Command::new("haproxy")
            .env("PATH", machine::path())
            .args(["-db", "-f"])
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run haproxy ({e}): apt-get install -y haproxy"));
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "haproxy did not listen"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Self {
            child,
            config: file,
            log,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    /// The servers HAProxy took out and back so far, and why.
    fn server_changes(&self) -> String {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter(|line| {
                line.contains("Server replicas/") || line.contains("no server available")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for HaProxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.config);
        let _ = std::fs::remove_file(&self.log);
    }
}

/// The edge: pages kept as their headers say, assets passed to the origin every time.
const EDGE_VCL: &str = r#"
sub vcl_recv {
    if (req.url ~ "^/assets/") { return (pass); }
}
"#;

/// What the clients saw in one phase of the deploy.
#[derive(Default, Debug)]
struct Seen {
    pages: usize,
    assets: usize,
    failed_pages: Vec<String>,
    failed_assets: Vec<String>,
    pages_without_scripts: usize,
    /// The entry script of each page: which build it came from.
    entries: BTreeSet<String>,
}

/// Every `/assets/…` a page names (scripts, preloads, stylesheet, icon).
fn named_assets(html: &str) -> BTreeSet<String> {
    html.match_indices("/assets/")
        .map(|(at, _)| {
            let rest = &html[at..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || "/._-".contains(c)))
                .unwrap_or(rest.len());
            rest[..end].to_string()
        })
        .collect()
}

fn fetch_page(client: &reqwest::blocking::Client, edge: &str, path: &str, seen: &Mutex<Seen>) {
    let page = client
        .get(format!("{edge}{path}"))
        .send()
        .and_then(|r| Ok((r.status(), r.text()?)));
    let html = match page {
        Ok((status, html)) if status == 200 => html,
        other => {
            let mut seen = seen.lock().unwrap();
            seen.pages += 1;
            seen.failed_pages
                .push(format!("{path}: {:?}", other.map(|o| o.0)));
            return;
        }
    };
    let scripts = module_scripts(&html);
    let mut failed = Vec::new();
    let assets = named_assets(&html);
    for asset in &assets {
        let answer = client
            .get(format!("{edge}{asset}"))
            .send()
            .and_then(|r| Ok((r.status(), r.bytes()?)));
        match answer {
            Ok((status, body)) if status == 200 && !body.is_empty() => {}
            other => failed.push(format!("{asset}: {:?}", other.map(|o| o.0))),
        }
    }
    let mut seen = seen.lock().unwrap();
    seen.pages += 1;
    seen.assets += assets.len();
    let lacks_scripts = scripts.is_empty()
        || scripts
            .iter()
            .any(|s| failed.iter().any(|f| f.starts_with(s.as_str())));
    seen.pages_without_scripts += usize::from(lacks_scripts);
    if let Some(entry) = scripts.first() {
        seen.entries.insert(entry.clone());
    }
    seen.failed_assets.extend(failed);
}

#[test]
fn a_rolling_deploy_behind_haproxy_and_varnish_never_leaves_a_page_without_its_scripts() {
    let work = std::env::temp_dir().join(format!("bilingue-deploy-skew-{}", std::process::id()));
    let build_b = variant_build(&work.join("variant"));
    // The shared folder: A's binary writes its own assets into it.
    let shared = work.join("assets");
    let written = Host::run(
        &["--write-assets", shared.to_str().unwrap()],
        Duration::from_secs(20),
    );
    assert!(written.status.success(), "{}", written.logs);
    let shared = shared.to_str().unwrap();

    let ports = [free_port(), free_port(), free_port()];
    let common = [
        "--drain-delay",
        "500ms",
        "--page-s-maxage",
        "1d",
        "--previous-assets",
        shared,
    ];
    let start = |port: u16, extra: &[&str]| {
        let port = port.to_string();
        let mut args = vec!["--port", port.as_str()];
        args.extend(common);
        args.extend(extra);
        Host::start(&args)
    };
    let mut replicas: Vec<Host> = ports.iter().map(|&p| start(p, &[])).collect();
    for replica in &replicas {
        replica.wait_ready(Duration::from_secs(60));
    }
    let haproxy = HaProxy::start(&ports);
    let varnish = Varnish::start_with(&haproxy.base, Some(EDGE_VCL));
    let edge = varnish.base.clone();

    // Clients: pages the edge holds (A's, for a day), and fresh URLs that reach a replica.
    let phases: Arc<[Mutex<Seen>; 3]> = Arc::new(Default::default());
    let phase = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let fresh = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..3)
        .map(|worker| {
            let (edge, phases, phase, stop, fresh) = (
                edge.clone(),
                phases.clone(),
                phase.clone(),
                stop.clone(),
                fresh.clone(),
            );
            std::thread::spawn(move || {
                let client = crate::support::client();
                let mut round = worker;
                while !stop.load(Ordering::Relaxed) {
                    let path = match round % 3 {
                        0 => "/fr/".to_string(),
                        1 => "/en/".to_string(),
                        _ => format!("/fr/?n={}", fresh.fetch_add(1, Ordering::Relaxed)),
                    };
                    let at = phase.load(Ordering::Relaxed);
                    fetch_page(&client, &edge, &path, &phases[at]);
                    round += 1;
                }
            })
        })
        .collect();

    std::thread::sleep(Duration::from_millis(1500));
    phase.store(1, Ordering::Relaxed);
    let deploy_started = Instant::now();
    // The rollout's first step: B's assets join the shared folder.
    for entry in std::fs::read_dir(build_b.join("assets")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), Path::new(shared).join(entry.file_name())).unwrap();
    }
    let build_b = build_b.to_str().unwrap();
    for (slot, &port) in ports.iter().enumerate() {
        replicas[slot].terminate();
        let old = std::mem::replace(
            &mut replicas[slot],
            // Started once the old one has exited: the same port, as a new pod's address.
            {
                let old_exit = Instant::now();
                while std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                    assert!(
                        old_exit.elapsed() < Duration::from_secs(10),
                        "replica {slot} still up"
                    );
                    std::thread::sleep(Duration::from_millis(20));
                }
                start(port, &["--app-build", build_b])
            },
        );
        old.wait_exit(Duration::from_secs(10));
        replicas[slot].wait_ready(Duration::from_secs(60));
        // HAProxy takes it in after two good checks.
        std::thread::sleep(Duration::from_millis(400));
    }
    let deploy_took = deploy_started.elapsed();
    phase.store(2, Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(1500));
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.join().unwrap();
    }
    let _ = std::fs::remove_dir_all(&work);

    let names = ["before", "during", "after"];
    let mut totals = (0, 0);
    for (name, seen) in names.iter().zip(phases.iter()) {
        let seen = seen.lock().unwrap();
        eprintln!(
            "deploy skew, {name}: {} pages, {} asset requests, {} failed pages, {} failed assets, {} pages without their scripts, builds seen {:?}",
            seen.pages,
            seen.assets,
            seen.failed_pages.len(),
            seen.failed_assets.len(),
            seen.pages_without_scripts,
            seen.entries
        );
        totals.0 += seen.pages;
        totals.1 += seen.assets;
        assert!(seen.pages > 0, "{name}: no page fetched");
        assert!(
            seen.failed_pages.is_empty() && seen.failed_assets.is_empty(),
            "{name}: {:?} {:?}\nwhat HAProxy did with the replicas:\n{}",
            seen.failed_pages,
            seen.failed_assets,
            haproxy.server_changes()
        );
        assert_eq!(seen.pages_without_scripts, 0, "{name}");
    }
    eprintln!(
        "deploy skew: {} pages and {} asset requests in all, deploy of 3 replicas in {deploy_took:?}; HAProxy:\n{}",
        totals.0,
        totals.1,
        haproxy.server_changes()
    );
    // Both builds were met: the held pages of A, and B's on fresh URLs after the deploy.
    let before = phases[0].lock().unwrap().entries.clone();
    let after = phases[2].lock().unwrap().entries.clone();
    assert_eq!(before.len(), 1, "only A before: {before:?}");
    assert_eq!(after.len(), 2, "A's held pages and B's: {after:?}");
    assert!(after.is_superset(&before));
}
