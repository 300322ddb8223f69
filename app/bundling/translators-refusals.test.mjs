// Every refusal of the translators' import (docs/translations.md), each on a copy of the
// app's tables after an export: the import names the file, the line and what to do, and
// leaves every table byte for byte as it was, with no file left beside them. A good change
// in the default language's file is refused with the rest. Every case holds for any list of
// languages: the files are the listed languages', the mistakes made in a translated one.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { exportMessages, importMessages } from "./translators-command.mjs";
import { categoryNeverSelected, copyOfTheTables, describe, editPo, entry, languages, root } from "./translators-test-support.mjs";

const { codes, first, other, unlisted } = await languages();
const o = other.code;
const f = first.code;
const esc = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const lineOf = (text, pattern) => text.split("\n").findIndex((line) => pattern.test(line)) + 1;

/** The translated language's file of a format. */
const fileOf = (app, format) => path.join(app.files, `${o}.${format === "po" ? "po" : "xlf"}`);
/** Edits a file's text. */
async function rewrite(file, edit) {
  await writeFile(file, edit(await readFile(file, "utf8")));
}
/** The file's text with `bytes` put in at the start of the line that `pattern` finds; that line. */
async function withBytes(file, pattern, bytes) {
  const text = await readFile(file, "utf8");
  const line = lineOf(text, pattern);
  const offset = Buffer.byteLength(text.split("\n").slice(0, line - 1).join("\n")) + 1 + "msgstr \"".length;
  const raw = Buffer.from(text);
  await writeFile(file, Buffer.concat([raw.subarray(0, offset), Buffer.from(bytes), raw.subarray(offset)]));
  return line;
}
const removeFile = (app, format) => rm(fileOf(app, format));

/**
 * Each case: the format exported, the translator's mistake (`edit(app, file)`, which may
 * give the line it expects), and what the import says: `error(line)`, a pattern of the
 * whole line printed. `at`, when given, is what the line the error names holds.
 */
const CASES = [
  // What the messages say: the build's own rules.
  {
    name: "po: a key the catalogue does not have",
    format: "po",
    edit: (app, file) => rewrite(file, (text) => `${text}\nmsgctxt "home.titel"\nmsgid "Accueil"\nmsgstr "Home"\n`),
    error: () => `${o}.po:\\d+: message "home.titel" \\(${o}\\) is not in the catalogue: app/i18n/tables/${f}.ts has no key "home.titel" \\(a key is added to the tables, then exported\\)`,
    at: /^msgctxt "home\.titel"$/,
  },
  {
    name: "po: __proto__ as a key (msgctxt) is a key the catalogue does not have",
    format: "po",
    edit: (app, file) => rewrite(file, (text) => `${text}\nmsgctxt "__proto__"\nmsgid "x"\nmsgstr "y"\n`),
    error: () => `${o}.po:\\d+: message "__proto__" \\(${o}\\) is not in the catalogue: .*`,
    at: /^msgctxt "__proto__"$/,
  },
  {
    name: "po: other arguments than the default language's",
    format: "po",
    edit: (app, file) => editPo(file, (t) => void (entry(t, "status.ok").msgstr = ["Answer: {versio}, {time}."])),
    error: () =>
      `${o}.po:\\d+: message "status.ok" \\(${o}\\) takes versio: string \\| number, time: string \\| number, but in ${f} it takes version: string \\| number, time: string \\| number: every language takes the same arguments \\(${f}'s is at app/i18n/tables/${f}.ts:\\d+\\)`,
    at: /^msgctxt "status\.ok"$/,
  },
  {
    name: "po: a plural case the language never selects",
    format: "po",
    edit: (app, file) => editPo(file, (t) => void (entry(t, "home.languages").msgstr = [`{count, plural, one {# a} ${categoryNeverSelected(other.locale)} {# b} other {# c}}`])),
    error: () => `${o}.po:\\d+: message "home.languages" \\(${o}\\): its plural on "count" has the case ${categoryNeverSelected(other.locale)}, which ${other.locale} never selects \\(its categories: .*\\)`,
    at: /^msgctxt "home\.languages"$/,
  },
  {
    name: "po: a broken ICU message",
    format: "po",
    edit: (app, file) => editPo(file, (t) => void (entry(t, "home.clicks").msgstr = ["{count, plural, one {# click} other {# clicks}"])),
    error: () => `${o}.po:\\d+: message "home.clicks" \\(${o}\\) is not valid ICU \\(EXPECT_ARGUMENT_CLOSING_BRACE at column 1\\)`,
    at: /^msgctxt "home\.clicks"$/,
  },
  {
    name: "po: the default language's own file with other arguments (every table would break)",
    format: "po",
    edit: (app) => editPo(path.join(app.files, `${f}.po`), (t) => void (entry(t, "status.ok").msgstr = ["Réponse : {versio}, {time}."])),
    error: () =>
      `${f}.po:\\d+: message "status.ok" \\(${f}\\) takes versio: string \\| number, time: string \\| number, but at app/i18n/tables/${f}.ts:\\d+ it takes version: string \\| number, time: string \\| number: the default language's arguments are those t\\(\\) is called with, in every language; change them in its table and the calls, not in a translator's file`,
  },
  {
    name: "po: a control character in a message",
    format: "po",
    edit: (app, file) => editPo(file, (t) => void (entry(t, "home.click").msgstr = ["Click\u0001"])),
    error: () => `${o}.po:\\d+: message "home.click" \\(${o}\\) has the control character U\\+0001 at column 6, which no text shows: remove it \\(a line break is written \\\\n\\)`,
    at: /^msgctxt "home\.click"$/,
  },
  // How the file is written.
  {
    name: "po: a key written twice with the same source (gettext-parser would keep the last)",
    format: "po",
    edit: async (app, file) => {
      const { msgid } = await entryIn(file, "home.click");
      await rewrite(file, (text) => `${text}\nmsgctxt "home.click"\nmsgid ${JSON.stringify(msgid)}\nmsgstr "Again"\n`);
    },
    error: () => `${o}.po:\\d+: message "home.click" \\(${o}\\) is written twice, at lines \\d+ and \\d+: keep one`,
    at: /^msgctxt "home\.click"$/,
  },
  {
    name: "po: a key written twice with another source",
    format: "po",
    edit: (app, file) => rewrite(file, (text) => `${text}\nmsgctxt "home.click"\nmsgid "Autre"\nmsgstr "Other"\n`),
    error: () => `${o}.po:\\d+: message "home.click" \\(${o}\\) is written twice, at lines \\d+ and \\d+: keep one`,
  },
  {
    name: "po: gettext plural forms",
    format: "po",
    edit: (app, file) =>
      editPo(file, (t) => {
        Object.assign(entry(t, "home.clicks"), { msgid_plural: "clicks", msgstr: ["# click", "# clicks"] });
      }),
    error: () => `${o}.po:\\d+: message "home.clicks" has gettext plural forms \\(msgid_plural\\): write the plural in ICU, inside msgstr`,
    at: /^msgctxt "home\.clicks"$/,
  },
  {
    name: "po: not PO, at its line",
    format: "po",
    edit: (app, file) => rewrite(file, (text) => text.replace(/^msgctxt "home\.click"$/m, 'garbage "x"')),
    error: () => `${o}.po:\\d+: is not a PO file gettext reads: Invalid key name "garbage" at line \\d+\\..*`,
    at: /^garbage "x"$/,
  },
  // Which language the file is.
  {
    name: "po: a file whose name and Language header disagree (its name's language's file replaced by another's)",
    format: "po",
    edit: async (app, file) => {
      await rm(path.join(app.files, `${f}.po`));
      await rewrite(file, (text) => text.replace(`"Language: ${o}\\n"`, `"Language: ${f}\\n"`));
    },
    error: () => `${o}.po: its name says ${o} but its Language header says "${f}": a file is in one language, named after it; rename the file, or correct its Language header if the file is in ${o}`,
  },
  {
    name: "xliff: a file whose name and trgLang disagree",
    format: "xliff",
    edit: async (app, file) => {
      await rm(path.join(app.files, `${f}.xlf`));
      await rewrite(file, (text) => text.replace(`trgLang="${o}"`, `trgLang="${f}"`));
    },
    error: () => `${o}.xlf: its name says ${o} but its trgLang says "${f}": a file is in one language, named after it; rename the file, or correct its trgLang if the file is in ${o}`,
  },
  {
    name: "po: a file of a language the list does not have, copied from another's",
    format: "po",
    edit: async (app, file) => writeFile(path.join(app.files, `${unlisted}.po`), await readFile(file)),
    error: () => `${unlisted}.po: its language "${unlisted}" \\(its name\\) is none of app/i18n/languages.json's \\(${codes.join(", ")}\\): a file is named after its language`,
  },
  {
    name: "po: a file that declares no language",
    format: "po",
    edit: (app, file) => rewrite(file, (text) => text.replace(`"Language: ${o}\\n"\n`, "")),
    error: () => `${o}.po: it declares no language \\(its Language header\\): add it, "${o}", as the export writes it`,
  },
  {
    name: "two files of one language",
    format: "po",
    edit: (app) => exportMessages(app.dir, "xliff", app.files),
    error: () => `${o}.xlf: it is in ${o}, as ${o}.po is: import one file per language`,
    count: codes.length, // every language's .xlf beside its .po
  },
  // What the file is made of.
  {
    name: "po: a byte that is not UTF-8, at its line",
    format: "po",
    edit: (app, file) => withBytes(file, /^msgstr /, [0xe9]),
    error: (line) => `${o}.po:${line}: is not UTF-8 \\(a byte no UTF-8 character has, as Latin-1 or Windows-1252 write é\\): save it as UTF-8, as the export writes it`,
  },
  {
    name: "po: a NUL byte, at its line",
    format: "po",
    edit: (app, file) => withBytes(file, /^msgctxt "home\.click"$/, [0]),
    error: (line) => `${o}.po:${line}: has a NUL byte, which no text holds: is it the translator's file\\? The export writes UTF-8 text`,
  },
  {
    name: "xliff: a NUL byte, at its line",
    format: "xliff",
    edit: async (app, file) => {
      const text = await readFile(file, "utf8");
      await writeFile(file, text.replace("<target>", "<target>\u0000"));
      return lineOf(text, /<target>/);
    },
    error: (line) => `${o}.xlf:${line}: has a NUL byte, which no text holds: .*`,
  },
  {
    name: "xliff: an empty file",
    format: "xliff",
    edit: (app, file) => writeFile(file, ""),
    error: () => `${o}.xlf: is empty: put the translator's file back, or take it out of the folder`,
  },
  {
    name: "a folder named as a file",
    format: "po",
    edit: async (app, file) => {
      await rm(file);
      await mkdir(file);
    },
    error: () => `${o}.po: is a folder, not a file: the import reads the files of the folder it is given, not of its subfolders`,
  },
  {
    name: "a FIFO named as a file (read, it would never end)",
    format: "po",
    edit: async (app, file) => {
      await rm(file);
      assert.equal(spawnSync("mkfifo", [file]).status, 0, "mkfifo");
    },
    error: () => `${o}.po: is not a regular file \\(a FIFO, a socket or a device\\): put the translator's file itself in the folder`,
  },
  {
    name: "a link to a file outside the folder, whose text is never shown",
    format: "po",
    edit: async (app, file) => {
      const outside = path.join(app.dir, "secret.po");
      await writeFile(outside, "SECRET-WORD and more\n");
      await rm(file);
      await symlink(outside, file);
    },
    error: () => `${o}.po: is a link to a file outside the folder, which the import does not follow: copy the file itself into the folder`,
  },
  {
    name: "a file over the size cap (100 MB)",
    format: "po",
    edit: async (app, file) => {
      const handle = await open(file, "r+");
      await handle.truncate(100 * 1024 * 1024);
      await handle.close();
    },
    error: () => `${o}.po: is over 4 MiB, the most the import reads \\(docs/translations.md\\): is it a translator's file\\?`,
  },
  // XLIFF's own ways.
  {
    name: "xliff: a unit the catalogue does not have, at its line",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace('<unit id="home.click">', '<unit id="home.titel">')),
    error: () => `${o}.xlf:\\d+: message "home.titel" \\(${o}\\) is not in the catalogue: .*`,
    at: /<unit id="home\.titel">/,
  },
  {
    name: "xliff: __proto__ as a unit's id is a key the catalogue does not have",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace('<unit id="home.click">', '<unit id="__proto__">')),
    error: () => `${o}.xlf:\\d+: message "__proto__" \\(${o}\\) is not in the catalogue: .*`,
    at: /<unit id="__proto__">/,
  },
  {
    name: "xliff: other arguments, at the unit's line",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace(/(<unit id="status\.ok">[\s\S]*?<target>)[^<]*/, "$1{time}")),
    error: () => `${o}.xlf:\\d+: message "status.ok" \\(${o}\\) takes time: string \\| number, but in ${f} it takes version: string \\| number, time: string \\| number: .*`,
    at: /<unit id="status\.ok">/,
  },
  {
    name: "xliff: a unit written twice with the same source",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace(/( *<unit id="home\.click">[\s\S]*?<\/unit>\n)/, "$1$1")),
    error: () => `${o}.xlf:\\d+: message "home.click" \\(${o}\\) is written twice, at lines \\d+ and \\d+: keep one`,
    at: /<unit id="home\.click">/,
  },
  {
    name: "xliff: markup in a target",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace(/(<unit id="home\.click">[\s\S]*?<target>)[^<]*/, '$1Click <pc id="1">here</pc>')),
    error: () => `${o}.xlf:\\d+: message "home.click" has markup in its <target> \\(an inline element\\): a message is text, its arguments ICU's \\{braces\\}`,
    at: /<unit id="home\.click">/,
  },
  {
    name: "xliff: segments translated in another order",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace(/(<unit id="home\.click">[\s\S]*?)<target>/, '$1<target order="1">')),
    error: () => `${o}.xlf:\\d+: message "home.click" has a <target order="…">, .*`,
  },
  {
    name: "xliff: a DOCTYPE declaring an entity that reads a file",
    format: "xliff",
    edit: (app, file) =>
      rewrite(file, (text) =>
        text.replace("?>\n", '?>\n<!DOCTYPE xliff [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n').replace(/(<unit id="home\.click">[\s\S]*?<target>)[^<]*/, "$1&secret;"),
      ),
    error: () => `${o}.xlf:2: has a DOCTYPE, which an XLIFF file has no need of \\(its entities and external files would make the import read more than the file\\): remove it`,
  },
  {
    name: "xliff: a DOCTYPE of entities within entities",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace("?>\n", '?>\n<!DOCTYPE xliff [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>\n')),
    error: () => `${o}.xlf:2: has a DOCTYPE, .*`,
  },
  {
    name: "xliff: an entity XML does not define, at its line",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace(/(<unit id="home\.click">[\s\S]*?<target>)[^<]*/, "$1a&nbsp;b")),
    error: () => `${o}.xlf:\\d+: is not well-formed XML \\(invalid character entity, at column \\d+\\): .*`,
    at: /<target>a&nbsp;b/,
  },
  {
    name: "xliff: a character reference to NUL",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace(/(<unit id="home\.click">[\s\S]*?<target>)[^<]*/, "$1a&#0;")),
    error: () => `${o}.xlf:\\d+: is not well-formed XML \\(invalid character entity, .*`,
    at: /<target>a&#0;/,
  },
  {
    name: "xliff: an XInclude in a target",
    format: "xliff",
    edit: (app, file) =>
      rewrite(file, (text) => text.replace(/(<unit id="home\.click">[\s\S]*?<target>)[^<]*/, '$1<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/>')),
    error: () => `${o}.xlf:\\d+: has an XInclude <xi:include>, which the import does not follow: write the text in the file itself`,
    at: /<xi:include/,
  },
  {
    name: "xliff: an XInclude beside the units",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace("<file ", '<file xmlns:xi="http://www.w3.org/2001/XInclude" ').replace(/(<file [^>]*>)/, '$1<xi:include href="other.xlf"/>')),
    error: () => `${o}.xlf:\\d+: has an XInclude <xi:include>, .*`,
    at: /<xi:include/,
  },
  {
    name: "xliff: not well-formed, at the line where it breaks",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace(/(<unit id="home\.click">[\s\S]*?<target>[^<]*)<\/target>/, "$1")),
    error: () => `${o}.xlf:\\d+: is not well-formed XML \\(unexpected close tag, at column \\d+\\): an XLIFF tool writes it whole; export again, or fix it`,
    at: /<\/segment>/,
  },
  {
    name: "xliff: a second root element",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => `${text}<xliff/>\n`),
    error: () => `${o}.xlf:\\d+: has a second root element after its <xliff>: a file is one <xliff>`,
  },
  {
    name: "xliff: XLIFF 1.2",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace('xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0"', 'xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"')),
    error: () => `${o}.xlf:2: is not XLIFF 2: its <xliff> element needs version="2.0" \\(or 2.1, 2.2\\) and xmlns="urn:oasis:names:tc:xliff:document:2.0"`,
  },
  {
    name: "xliff: a unit without an id",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace('<unit id="home.click">', "<unit>")),
    error: () => `${o}.xlf:\\d+: a <unit> has no id, the key of its message: export again, and keep each unit's id`,
  },
  {
    name: "xliff: units in a group",
    format: "xliff",
    edit: (app, file) => rewrite(file, (text) => text.replace(/( *<unit id="home\.click">[\s\S]*?<\/unit>\n)/, '<group id="g">$1</group>\n')),
    error: () => `${o}.xlf:\\d+: the group "g" holds units: write each message as a <unit> of its <file>`,
  },
];

/** The entry of `key` in a PO file. */
async function entryIn(file, key) {
  const { default: gettextParser } = await import("gettext-parser");
  return entry(gettextParser.po.parse(await readFile(file, "utf8")).translations, key);
}

for (const { name, format, edit, error, at, count = 1 } of CASES) {
  test(`refused, every table byte for byte as it was: ${name}`, async () => {
    const app = await copyOfTheTables();
    const before = await app.snapshot();
    await exportMessages(app.dir, format, app.files);
    // A good change in the default language's file, which is refused with the rest.
    if (format === "po") await editPo(path.join(app.files, `${f}.po`), (t) => void (entry(t, "home.click").msgstr = ["Appuyer"]));
    const file = fileOf(app, format);
    const line = await edit(app, file);
    const { errors, written } = await importMessages(app.dir, app.files);
    assert.deepEqual(written, []);
    const said = errors.map(describe);
    assert.ok(
      said.some((text) => new RegExp(`^${error(line)}$`).test(text)),
      `expected ${error(line)}\ngot:\n${said.join("\n")}`,
    );
    assert.equal(said.length, count, said.join("\n"));
    assert.ok(!said.some((text) => /SECRET-WORD|root:x:0/.test(text)), "no error shows what a file outside holds");
    if (at) {
      const found = errors.find((problem) => new RegExp(`^${error(line)}$`).test(describe(problem)));
      const lineText = (await readFile(path.join(app.files, path.basename(found.file)), "utf8")).split("\n")[found.line - 1];
      assert.match(lineText, at, "the line named is the unit's, or the fault's");
    }
    assert.deepEqual(await app.snapshot(), before);
  });
}

/** The command, run as `npm run messages` runs it, from `cwd`. */
const command = (args, cwd = root) => spawnSync(process.execPath, [path.join(root, "app/bundling/translators-command.mjs"), ...args], { cwd, encoding: "utf8", timeout: 60_000 });

test("a usage mistake is one line naming what to do, and no stack trace", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bilingue-usage-"));
  try {
    const aFile = path.join(dir, "a-file");
    await writeFile(aFile, "");
    for (const [args, expected] of [
      [["import", path.join(dir, "missing")], /^error: .*missing: no such folder: give the folder that holds the translators' \.po, \.xlf or \.xliff files$/],
      [["import", aFile], /^error: .*a-file: is a file, not a folder: give the folder that holds the translators' files$/],
      [["export", "po", aFile], /^error: .*a-file: is a file, not a folder: give export a folder to write the files into \(it is made if missing\)$/],
      [["import"], /^usage: npm run messages -- export po DIR \| export xliff DIR \| import DIR$/],
      [["export", "csv", dir], /^usage: /],
    ]) {
      const ran = command(args);
      assert.equal(ran.status, 2, `${args.join(" ")}: ${ran.stderr}`);
      assert.match(ran.stderr.trimEnd(), expected);
      assert.equal(ran.stderr.trimEnd().split("\n").length, 1, ran.stderr);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
