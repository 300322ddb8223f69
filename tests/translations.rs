//! The catalogue's files for translators, as the tools translators use read and edit them,
//! none of them ours (docs/translations.md, "The translators' tools"): gettext's
//! `msgfmt --check` accepts every exported PO file; a file through `msgcat` and
//! `msgmerge` (which drop the `icu-message-format` flag) imports its edits and leaves what
//! `msgmerge` marked fuzzy; translate-toolkit's `pofilter`, with the settings the docs
//! give, flags no ICU message yet still finds a mistake; its PO reader sees the notes; an
//! XLIFF file its XLIFF 2 writer edited imports its edits and leaves its drafts. Every test
//! holds for any list of languages. The export and the import themselves are tested in
//! app/bundling/translators.test.mjs.

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
            "app/bundling/translators-command.mjs",
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

/// The languages app/i18n/languages.json lists: the default one, then the others.
fn languages() -> (String, Vec<String>) {
    let text = std::fs::read_to_string(root().join("app/i18n/languages.json")).unwrap();
    let list: serde_json::Value = serde_json::from_str(&text).unwrap();
    let default = list["default"].as_str().unwrap().to_string();
    let others = list["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|language| language["code"].as_str().unwrap().to_string())
        .filter(|code| *code != default)
        .collect();
    (default, others)
}

/// The pofilter options docs/translations.md gives, as its `pofilter … IN.po OUT.po` line
/// writes them: the test runs what a translator is told to run.
fn documented_pofilter_options() -> Vec<String> {
    let docs = std::fs::read_to_string(root().join("docs/translations.md")).unwrap();
    let line = docs
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("pofilter ") && line.ends_with(" IN.po OUT.po"))
        .expect("docs/translations.md gives the pofilter command");
    line.split_whitespace()
        .skip(1)
        .filter(|word| word.starts_with("--"))
        .map(str::to_string)
        .collect()
}

/// pofilter on `file` with `options`: each unit it flags, as (msgctxt, msgid, the
/// checks' comments).
fn pofilter(file: &Path, out: &Path, options: &[String]) -> Vec<(String, String, String)> {
    let _ = std::fs::remove_file(out);
    let pofilter = translate_toolkit("pofilter");
    let mut args: Vec<String> = vec!["--progress=none".into()];
    args.extend(options.iter().cloned());
    args.push(file.to_string_lossy().into_owned());
    args.push(out.to_string_lossy().into_owned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run(
        &pofilter,
        &args,
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

/// pofilter knows no ICU: its `pythonbraceformat` and `brackets` checks read a plural's
/// cases as placeholders and flag every plural. With the settings the docs give (those two
/// left out, and `unchanged` on the default language's own file, whose msgstr is its msgid)
/// it flags no message with a plural or a select, in any language, and what it still
/// checks is not idle: a translation that lost its full stop is flagged.
#[test]
fn pofilter_with_the_documented_settings_flags_no_icu_message_and_still_finds_mistakes() {
    let dir = Folder::new("pofilter");
    export(root(), "po", &dir.0);
    let options = documented_pofilter_options();
    assert!(
        options.contains(&"--excludefilter=pythonbraceformat".to_string()),
        "{options:?}"
    );
    let (default, others) = languages();
    let out = dir.0.join("flagged.po");
    for file in po_files(&dir.0) {
        let mut options = options.clone();
        if file.file_stem().unwrap().to_string_lossy() == default {
            options.push("--excludefilter=unchanged".into());
        }
        for (key, msgid, checks) in pofilter(&file, &out, &options) {
            let icu_cases = [", plural,", ", select,", ", selectordinal,"]
                .iter()
                .any(|kind| msgid.contains(kind));
            assert!(
                !icu_cases,
                "{}: pofilter flags the ICU message {key}:\n{checks}",
                file.display()
            );
        }
    }

    let translated = dir.0.join(format!("{}.po", others[0]));
    let text = std::fs::read_to_string(&translated).unwrap();
    let edited = replace_msgstr(&text, "status.ok", "The server answers {version} at {time}");
    std::fs::write(&translated, edited).unwrap();
    let flagged = pofilter(&translated, &out, &options);
    assert!(
        flagged
            .iter()
            .any(|(key, _, checks)| key == "status.ok" && checks.contains("endpunc")),
        "pofilter flags the lost full stop: {flagged:?}"
    );
}

/// `text` (a PO file's) with the one-line msgstr of `key`'s entry replaced by `message`.
fn replace_msgstr(text: &str, key: &str, message: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let context = lines
        .iter()
        .position(|line| *line == format!("msgctxt \"{key}\""))
        .unwrap_or_else(|| panic!("no entry {key}"));
    let msgstr = context
        + lines[context..]
            .iter()
            .position(|line| line.starts_with("msgstr "))
            .unwrap();
    assert!(
        !lines
            .get(msgstr + 1)
            .is_some_and(|line| line.starts_with('"')),
        "{key}'s msgstr is one line"
    );
    lines[msgstr] = format!("msgstr {}", serde_json::to_string(message).unwrap());
    lines.join("\n") + "\n"
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
/// reader and writer (which sees the description and the arguments as the developer's
/// notes), then re-wrapped at 30 columns and sorted by gettext's `msgcat`.
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
                       notes = [unit.getnotes('developer') for unit in store.units]\n\
                       assert any('Arguments: {' in note for note in notes), notes\n\
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
    let said = succeeded(&import(&app, &files), "the import");
    assert!(said.contains("nothing to write"), "{said}");
    assert_eq!(tables(&app), before, "no byte of the tables changed");
}

/// `npm run messages -- import DIR` in the app at `app_root`.
fn import(app_root: &Path, dir: &Path) -> Output {
    run(
        "node",
        &[
            "app/bundling/translators-command.mjs",
            "import",
            &dir.to_string_lossy(),
        ],
        app_root,
        "needs node and `npm ci`",
    )
}

/// A translator's PO file merged by `msgmerge` against a newer export (the French of
/// home.heading changed since) and sorted by `msgcat`, as a gettext workflow does: both
/// drop the `icu-message-format` flag, which the import does not need; the translator's
/// edit comes in, and what `msgmerge` marked fuzzy is left as it was, and named.
#[test]
fn a_po_file_through_msgmerge_and_msgcat_imports_its_edits_and_leaves_what_gettext_marked_fuzzy() {
    let dir = Folder::new("po-merged");
    let app = copy_of_the_app(&dir.0);
    let (default, others) = languages();
    let language = &others[0];
    let files = dir.0.join("translators");
    export(&app, "po", &files);
    let translated = files.join(format!("{language}.po"));
    let text = std::fs::read_to_string(&translated).unwrap();
    std::fs::write(&translated, replace_msgstr(&text, "home.click", "Press")).unwrap();
    std::fs::remove_file(files.join(format!("{default}.po"))).unwrap();

    let default_table = app.join(format!("app/i18n/tables/{default}.ts"));
    let table = std::fs::read_to_string(&default_table).unwrap();
    let heading = table
        .lines()
        .find(|line| line.trim_start().starts_with("\"home.heading\": \""))
        .unwrap();
    let changed = heading.replacen(": \"", ": \"Encore : ", 1);
    std::fs::write(&default_table, table.replace(heading, &changed)).unwrap();
    let template = dir.0.join("template");
    export(&app, "po", &template);
    let template = template.join(format!("{default}.po"));

    let file = translated.to_string_lossy().into_owned();
    for (program, args) in [
        (
            "msgmerge",
            vec!["--quiet", &file, &template.to_string_lossy(), "-o", &file],
        ),
        ("msgcat", vec!["--sort-output", &file, "-o", &file]),
    ] {
        let args: Vec<&str> = args.iter().map(|a| a.as_ref()).collect();
        let output = run(program, &args, root(), "apt-get install -y gettext");
        succeeded(&output, program);
    }
    let merged = std::fs::read_to_string(&translated).unwrap();
    assert!(
        !merged.contains("icu-message-format"),
        "gettext dropped the flag"
    );
    assert!(
        merged.contains("#, fuzzy\nmsgctxt \"home.heading\""),
        "msgmerge marked the changed French fuzzy:\n{merged}"
    );

    let before =
        std::fs::read_to_string(app.join(format!("app/i18n/tables/{language}.ts"))).unwrap();
    let output = import(&app, &files);
    let said = succeeded(&output, "the import");
    let notes = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains(&format!("wrote app/i18n/tables/{language}.ts")),
        "{said}"
    );
    assert!(
        notes.contains(&format!(
            "message \"home.heading\" ({language}) is marked fuzzy"
        )),
        "{notes}"
    );
    let after =
        std::fs::read_to_string(app.join(format!("app/i18n/tables/{language}.ts"))).unwrap();
    assert!(after.contains("\"home.click\": \"Press\","), "{after}");
    let heading_line = |table: &str| {
        table
            .lines()
            .find(|l| l.contains("\"home.heading\""))
            .map(str::to_string)
    };
    assert_eq!(
        heading_line(&after),
        heading_line(&before),
        "the fuzzy one left as it was"
    );
}

/// An XLIFF file edited by translate-toolkit's XLIFF 2 reader and writer: a target
/// changed, another changed and marked fuzzy (`state="initial"`, a draft). The import takes
/// the first, leaves the draft and names it; the unit's notes are still in the file.
#[test]
fn an_xliff_file_edited_by_translate_toolkit_imports_its_edits_and_leaves_its_drafts() {
    let dir = Folder::new("xliff-edited");
    let app = copy_of_the_app(&dir.0);
    let (default, others) = languages();
    let language = &others[0];
    let files = dir.0.join("translators");
    export(&app, "xliff", &files);
    std::fs::remove_file(files.join(format!("{default}.xlf"))).unwrap();
    let file = files.join(format!("{language}.xlf"));
    let edit = "from translate.storage.xliff2 import Xliff2File\n\
                import sys\n\
                store = Xliff2File.parsefile(sys.argv[1])\n\
                for unit in store.units:\n\
                \x20   if unit.getid() == 'home.click':\n\
                \x20       unit.target = 'Press'\n\
                \x20   if unit.getid() == 'home.heading':\n\
                \x20       unit.target = 'A draft'\n\
                \x20       unit.markfuzzy()\n\
                store.save()\n";
    let output = run(
        &translate_toolkit("python3"),
        &["-c", edit, &file.to_string_lossy()],
        root(),
        "pip install translate-toolkit==3.20.4, or set TRANSLATE_TOOLKIT to its bin folder",
    );
    succeeded(&output, "translate-toolkit's XLIFF 2 writer");
    let edited = std::fs::read_to_string(&file).unwrap();
    assert!(edited.contains("state=\"initial\""), "{edited}");
    assert!(
        edited.contains("<note>Arguments: {count} (number)</note>"),
        "the notes kept:\n{edited}"
    );

    let output = import(&app, &files);
    let said = succeeded(&output, "the import");
    let notes = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains(&format!("wrote app/i18n/tables/{language}.ts")),
        "{said}"
    );
    assert!(
        notes.contains(&format!("message \"home.heading\" ({language}) is a draft")),
        "{notes}"
    );
    let after =
        std::fs::read_to_string(app.join(format!("app/i18n/tables/{language}.ts"))).unwrap();
    assert!(after.contains("\"home.click\": \"Press\","), "{after}");
    assert!(!after.contains("A draft"), "{after}");
}
