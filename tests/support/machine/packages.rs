//! The Debian packages the tests drive, how each is seen to be here (the program or file
//! the tests use, not dpkg's word: a tool put there another way counts), and apt-get.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub struct Package {
    pub name: &'static str,
    seen_by: Seen,
}

enum Seen {
    /// A program the tests start by name, from [`path`].
    Program(&'static str),
    /// A file the tests start by its path: this variable's value, else `default`.
    File {
        variable: Option<&'static str>,
        default: &'static str,
    },
    /// A Varnish module, in the multiarch folder of `/usr/lib`.
    Vmod(&'static str),
    /// A `python3` that can make virtualenvs (Debian's needs `python3-venv` for ensurepip).
    Venv,
}

/// Every package the tests drive (most of them `.ci/run` used to install itself).
pub const PACKAGES: &[Package] = &[
    // The browser tests (e2e/engines/) drive Debian's Chromium, Firefox ESR and WebKitGTK
    // (its WebDriver and MiniBrowser, on a virtual display: xvfb-run, which needs xauth).
    browser("chromium", Some("CHROMIUM_PATH"), "/usr/bin/chromium"),
    browser("firefox-esr", Some("FIREFOX_PATH"), "/usr/bin/firefox-esr"),
    browser("webkit2gtk-driver", None, "/usr/bin/WebKitWebDriver"),
    browser("xvfb", None, "/usr/bin/xvfb-run"),
    browser("xauth", None, "/usr/bin/xauth"),
    // The benchmark's and the soak's smoke runs load the host with wrk.
    program("wrk", "wrk"),
    // The CDN tests and the benchmark put Varnish in front of the host; the VCL we ship
    // purges by key with xkey, from varnish-modules.
    program("varnish", "varnishd"),
    Package {
        name: "varnish-modules",
        seen_by: Seen::Vmod("xkey"),
    },
    // The rolling deploy test balances its replicas with HAProxy.
    program("haproxy", "haproxy"),
    // The translations tests: gettext's msgfmt and msgcat read and rewrite the PO files.
    program("gettext", "msgfmt"),
    // A wire test reads the kernel's accept queue with ss (a minimal Debian lacks it).
    program("iproute2", "ss"),
    // The checkers from PyPI live in virtualenvs (checkers.rs); needed only to make one.
    Package {
        name: "python3-venv",
        seen_by: Seen::Venv,
    },
];

/// The browser tests' packages (e2e/engines/).
pub const BROWSERS: &[&str] = &[
    "chromium",
    "firefox-esr",
    "webkit2gtk-driver",
    "xvfb",
    "xauth",
];

const fn browser(
    name: &'static str,
    variable: Option<&'static str>,
    default: &'static str,
) -> Package {
    Package {
        name,
        seen_by: Seen::File { variable, default },
    }
}

const fn program(name: &'static str, program: &'static str) -> Package {
    Package {
        name,
        seen_by: Seen::Program(program),
    }
}

impl Package {
    pub fn is_here(&self) -> bool {
        match self.seen_by {
            Seen::Program(program) => std::env::split_paths(&path()).any(|dir| {
                use std::os::unix::fs::PermissionsExt;
                std::fs::metadata(dir.join(program))
                    .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
            }),
            Seen::File { variable, default } => variable
                .and_then(std::env::var_os)
                .map_or_else(|| PathBuf::from(default), PathBuf::from)
                .is_file(),
            Seen::Vmod(module) => std::fs::read_dir("/usr/lib").is_ok_and(|dirs| {
                dirs.flatten().any(|arch| {
                    arch.path()
                        .join(format!("varnish/vmods/libvmod_{module}.so"))
                        .is_file()
                })
            }),
            Seen::Venv => Command::new("python3")
                .args(["-c", "import ensurepip, venv"])
                .output()
                .is_ok_and(|output| output.status.success()),
        }
    }
}

/// The PATH, with the system's `sbin` folders after it: Debian installs varnishd and
/// haproxy in `/usr/sbin`, which the PATH of a user other than root lacks. The tests
/// start those programs (and the node scripts that start them) with it.
pub fn path() -> OsString {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    for sbin in ["/usr/local/sbin", "/usr/sbin", "/sbin"] {
        if !dirs.iter().any(|dir| dir == Path::new(sbin)) {
            dirs.push(sbin.into());
        }
    }
    std::env::join_paths(dirs).expect("the PATH's folders have no ':'")
}

/// Ubuntu (and its derivatives) packages Chromium and Firefox as snaps: its `chromium`
/// does not exist and `chromium-browser` only installs the snap, which needs snapd.
pub fn is_ubuntu() -> bool {
    std::fs::read_to_string("/etc/os-release").is_ok_and(|release| {
        release.lines().any(|line| {
            let value = line
                .strip_prefix("ID=")
                .or_else(|| line.strip_prefix("ID_LIKE="));
            value.is_some_and(|v| v.trim_matches('"').split(' ').any(|id| id == "ubuntu"))
        })
    })
}

/// The packages Ubuntu has as snaps only.
pub const SNAPS: &[&str] = &["chromium", "firefox-esr"];

/// What to do on Ubuntu for the browsers it has no apt package of, in one sentence. Not
/// the snaps: a snap's private /tmp can hide from it the profile its driver writes there.
pub const UBUNTU_BROWSERS: &str = "on Ubuntu, chromium and firefox-esr are snaps, not apt \
    packages, and a snap's private /tmp can hide the profiles the tests write: install \
    firefox-esr from Mozilla's PPA (sudo add-apt-repository -y ppa:mozillateam/ppa && sudo \
    apt-get install -y firefox-esr) and Google Chrome's .deb, then set \
    CHROMIUM_PATH=/usr/bin/google-chrome (or run the tests on Debian)";

/// How long apt's lock may be held by another process (unattended-upgrades, a person's
/// apt) before the install gives up and says so.
const APT_LOCK_WAIT: Duration = Duration::from_secs(300);

/// `apt-get update`, then `apt-get install -y` of these packages, quietly, as root; on
/// failure, why, with apt's own output.
pub fn apt_install(names: &[&str]) -> Result<(), String> {
    let deadline = Instant::now() + APT_LOCK_WAIT;
    apt_get(&["update"], deadline)?;
    let mut install = vec!["install", "-y"];
    install.extend_from_slice(names);
    apt_get(&install, deadline)
}

/// One apt-get command. dpkg's lock is waited for by apt itself (`DPkg::Lock::Timeout`);
/// the package lists' lock and the archives' are not, so a run refused for a lock is
/// tried again until the deadline.
fn apt_get(args: &[&str], deadline: Instant) -> Result<(), String> {
    let mut told = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now()).as_secs();
        let output = Command::new("apt-get")
            .args(["-q", "-o", &format!("DPkg::Lock::Timeout={left}")])
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .output()
            .map_err(|e| format!("cannot run apt-get ({e})"))?;
        if output.status.success() {
            return Ok(());
        }
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let locked = said.lines().find(|line| {
            line.starts_with("E: ")
                && (line.contains("Could not get lock") || line.contains("Unable to acquire"))
        });
        match locked {
            Some(line) if Instant::now() < deadline => {
                if !told {
                    let _ = writeln!(std::io::stderr(), "test tools: waiting for apt ({line})");
                    told = true;
                }
                std::thread::sleep(Duration::from_secs(2));
            }
            Some(line) => {
                return Err(format!(
                    "apt's lock stayed held for {} s ({}): let that apt or dpkg finish \
                     (unattended-upgrades, say), then run cargo test again",
                    APT_LOCK_WAIT.as_secs(),
                    line.trim_start_matches("E: ")
                ));
            }
            None => return Err(format!("`apt-get {}` failed:\n{said}", args.join(" "))),
        }
    }
}
