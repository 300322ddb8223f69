//! The catalogue's files for translators, checked by the tools translators use, none of
//! them ours: gettext's `msgfmt --check` accepts every exported PO file, translate-toolkit's
//! `pofilter` finds no variable or plural error in them, and a PO file that gettext's
//! `msgcat` re-wrapped and reordered and translate-toolkit commented imports back into a
//! copy of the app without changing a byte of its tables. The export and the import
//! themselves are tested in app/bundling/exchange.test.mjs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::machine;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// translate-toolkit's commands and its Python: in `TRANSLATE_TOOLKIT` (a virtualenv's
/// `bin`), else in the virtualenv the tests keep (support/machine).
fn translate_toolkit(program: &str) -> String {
    machine::translate_toolkit()
        .join(program)
        .to_string_lossy()
        .into_owned()
}

fn run(program: &str, args: &[&str], dir: &Path, fix: &str) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e} ({fix})"))
}

fn succeeded(output: &Output, what: &str) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// A temporary folder, removed when dropped.
struct Folder(PathBuf);
impl Folder {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("bilingue-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Folder(dir)
    }
}
impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `npm run messages -- export FORMAT DIR` from the app in `app_root`.
fn export(app_root: &Path, format: &str, dir: &Path) {
    let output = run(
        "node",
        &[
            "app/bundling/exchange-command.mjs",
            "export",
            format,
            &dir.to_string_lossy(),
        ],
        app_root,
        "needs node and `npm ci`",
    );
    succeeded(&output, "the export");
}

fn po_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "po"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "a PO file per language: {files:?}");
    files
}

fn msgfmt_check(file: &Path) {
    machine::require(&["gettext"]);
    let output = run(
        "msgfmt",
        &["--check", "-o", "/dev/null", &file.to_string_lossy()],
        root(),
        "apt-get install -y gettext",
    );
    succeeded(&output, &format!("msgfmt --check {}", file.display()));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "",
        "msgfmt --check {} warns",
        file.display()
    );
}

/// pofilter's variable and plural checks on `file`: each unit it flags, as
/// (msgctxt, msgid, the checks' comments).
fn pofilter(file: &Path, out: &Path) -> Vec<(String, String, String)> {
    let pofilter = translate_toolkit("pofilter");
    let output = run(
        &pofilter,
        &[
            "--progress=none",
            "-t",
            "variables",
            "-t",
            "printf",
            "-t",
            "pythonbraceformat",
            "-t",
            "nplurals",
            &file.to_string_lossy(),
            &out.to_string_lossy(),
        ],
        root(),
        "pip install translate-toolkit==3.20.4, or set TRANSLATE_TOOLKIT to its bin folder",
    );
    succeeded(&output, "pofilter");
    let flagged = std::fs::read_to_string(out).unwrap_or_default();
    flagged
        .split("\n\n")
        .filter(|unit| unit.contains("# (pofilter)"))
        .map(|unit| {
            let field = |name: &str| {
                let start = unit
                    .find(&format!("\n{name} "))
                    .map(|i| i + name.len() + 2)
                    .unwrap_or(0);
                let rest = &unit[start..];
                let end = rest.find("\nmsg").unwrap_or(rest.len());
                rest[..end]
                    .lines()
                    .map(|l| l.trim().trim_matches('"'))
                    .collect::<String>()
            };
            let checks = unit
                .lines()
                .filter(|l| l.starts_with("# (pofilter)"))
                .collect::<Vec<_>>()
                .join("\n");
            (field("msgctxt"), field("msgid"), checks)
        })
        .collect()
}

#[test]
fn msgfmt_check_accepts_every_exported_po_file() {
    let dir = Folder::new("msgfmt");
    export(root(), "po", &dir.0);
    for file in po_files(&dir.0) {
        msgfmt_check(&file);
    }
}

/// pofilter knows no ICU: its Python brace check reads a plural's nested cases
/// (`{count, plural, one {# langue} …}`) as placeholders, and every translation of a
/// plural writes its cases in its own words. Those units aside, it flags nothing; and it
/// does flag an argument renamed in a translation, so the check is not idle.
#[test]
fn pofilter_finds_no_variable_or_plural_error_in_the_shipped_catalogue() {
    let dir = Folder::new("pofilter");
    export(root(), "po", &dir.0);
    for file in po_files(&dir.0) {
        let out = dir.0.join("flagged.po");
        for (key, msgid, checks) in pofilter(&file, &out) {
            let icu_cases = [", plural,", ", select,", ", selectordinal,"]
                .iter()
                .any(|kind| msgid.contains(kind));
            let only_braces = checks
                .lines()
                .all(|l| l.starts_with("# (pofilter) pythonbraceformat:"));
            assert!(
                icu_cases && only_braces,
                "{}: pofilter flags {key}:\n{checks}",
                file.display()
            );
        }
    }

    let english = dir.0.join("en.po");
    let text = std::fs::read_to_string(&english).unwrap();
    let renamed = text.replace(
        "msgstr \"The server answers: version {version}, {time}.\"",
        "msgstr \"The server answers: version {versio}, {time}.\"",
    );
    assert_ne!(renamed, text, "en.po has status.ok as the test expects");
    std::fs::write(&english, renamed).unwrap();
    let flagged = pofilter(&english, &dir.0.join("flagged.po"));
    assert!(
        flagged.iter().any(|(key, _, checks)| key == "status.ok"
            && checks.contains("pythonbraceformat")
            && checks.contains("{versio}")),
        "pofilter flags the renamed argument: {flagged:?}"
    );
}

/// A copy of the app (its sources, package files, a link to node_modules) to import into.
fn copy_of_the_app(dir: &Path) -> PathBuf {
    let copy = dir.join("app-copy");
    std::fs::create_dir_all(&copy).unwrap();
    let output = run(
        "cp",
        &["-r", "app", &copy.join("app").to_string_lossy()],
        root(),
        "cp",
    );
    succeeded(&output, "copying the app");
    std::fs::copy(root().join("package.json"), copy.join("package.json")).unwrap();
    std::os::unix::fs::symlink(root().join("node_modules"), copy.join("node_modules")).unwrap();
    copy
}

fn tables(app_root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut tables: Vec<(String, Vec<u8>)> = std::fs::read_dir(app_root.join("app/i18n/tables"))
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap(),
            )
        })
        .collect();
    tables.sort();
    tables
}

/// Each PO file given a translator's comment on every unit by translate-toolkit's own PO
/// reader and writer, then re-wrapped at 30 columns and sorted by gettext's `msgcat`.
#[test]
fn a_po_file_edited_by_gettext_and_translate_toolkit_imports_cleanly() {
    let dir = Folder::new("po-edited");
    let app = copy_of_the_app(&dir.0);
    let before = tables(&app);
    let files = dir.0.join("translators");
    export(&app, "po", &files);
    for file in po_files(&files) {
        let file = file.to_string_lossy().into_owned();
        let comment = "from translate.storage import factory\n\
                       import sys\n\
                       store = factory.getobject(sys.argv[1])\n\
                       for unit in store.units:\n\
                       \x20   if not unit.isheader():\n\
                       \x20       unit.addnote('Reviewed by the French team.', origin='translator')\n\
                       store.save()\n";
        let output = run(
            &translate_toolkit("python3"),
            &["-c", comment, &file],
            root(),
            "pip install translate-toolkit==3.20.4, or set TRANSLATE_TOOLKIT to its bin folder",
        );
        succeeded(&output, "translate-toolkit's PO writer");
        machine::require(&["gettext"]);
        let output = run(
            "msgcat",
            &["--width=30", "--sort-output", &file, "-o", &file],
            root(),
            "apt-get install -y gettext",
        );
        succeeded(&output, "msgcat");
        let edited = std::fs::read_to_string(&file).unwrap();
        assert!(
            edited.contains("# Reviewed by the French team."),
            "{edited}"
        );
        assert!(
            edited
                .lines()
                .all(|l| l.chars().count() <= 32 || l.starts_with('#')),
            "re-wrapped"
        );
        msgfmt_check(Path::new(&file));
    }
    let output = run(
        "node",
        &[
            "app/bundling/exchange-command.mjs",
            "import",
            &files.to_string_lossy(),
        ],
        &app,
        "needs node and `npm ci`",
    );
    let said = succeeded(&output, "the import");
    assert!(said.contains("nothing to write"), "{said}");
    assert_eq!(tables(&app), before, "no byte of the tables changed");
}
