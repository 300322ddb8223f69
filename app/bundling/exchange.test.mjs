// The catalogue out to translators' files and back (app/bundling/exchange-command.mjs), on
// a copy of the app's tables: a round trip changes no byte, a translation fills in what a
// table lacked, and a file that breaks a rule is refused with its file, line, key and
// language while nothing is written. gettext's and translate-toolkit's own checks of the
// exported files are in tests/translations.rs.
import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import gettextParser from "gettext-parser";
import { exportMessages, importMessages } from "./exchange-command.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const made = [];
after(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A folder with a copy of the app's languages and tables (the rest linked), and one for the files. */
async function copy() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bilingue-exchange-"));
  made.push(dir);
  await cp(path.join(root, "app/i18n"), path.join(dir, "app/i18n"), { recursive: true });
  await cp(path.join(root, "package.json"), path.join(dir, "package.json"));
  await symlink(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  const files = path.join(dir, "translators");
  const read = (file) => readFile(path.join(dir, file), "utf8");
  return { dir, files, read, write: (file, text) => writeFile(path.join(dir, file), text) };
}

const TABLES = ["app/i18n/tables/fr.ts", "app/i18n/tables/en.ts"];
const tablesOf = async (app) => Promise.all(TABLES.map((file) => app.read(file)));
const describe = ({ file, line, text }) => `${path.basename(file)}${line ? `:${line}` : ""}: ${text}`;

/** Rewrites a PO file through gettext-parser: `edit(translations)` changes the entries. */
async function editPo(file, edit, options = {}) {
  const po = gettextParser.po.parse(await readFile(file, "utf8"));
  edit(po.translations);
  await writeFile(file, gettextParser.po.compile(po, options));
}
const entry = (translations, key) => Object.values(translations[key])[0];

for (const format of ["po", "xliff"]) {
  test(`${format}: export then import without edits changes no byte of the tables`, async () => {
    const app = await copy();
    const before = await tablesOf(app);
    const exported = await exportMessages(app.dir, format, app.files);
    assert.deepEqual(exported.errors, []);
    assert.deepEqual(
      exported.files.map(({ file, untranslated }) => [path.basename(file), untranslated]),
      format === "po" ? [["fr.po", 0], ["en.po", 0]] : [["fr.xlf", 0], ["en.xlf", 0]],
    );
    const imported = await importMessages(app.dir, app.files);
    assert.deepEqual(imported.errors.map(describe), []);
    assert.deepEqual(imported.written, []);
    assert.deepEqual(await tablesOf(app), before);
  });
}

test("po: one entry a key, the key as msgctxt, French as msgid, ICU as it is, the description and arguments as notes", async () => {
  const app = await copy();
  await exportMessages(app.dir, "po", app.files);
  const en = await readFile(path.join(app.files, "en.po"), "utf8");
  assert.match(en, /^"Language: en\\n"$/m);
  const po = gettextParser.po.parse(en);
  const builtOn = entry(po.translations, "home.builtOn");
  assert.equal(builtOn.msgctxt, "home.builtOn");
  assert.equal(builtOn.msgid, "Version {version}, construite le {date} à {time} ({timeZone}).");
  assert.equal(builtOn.msgstr[0], "Version {version}, built on {date} at {time} ({timeZone}).");
  assert.match(builtOn.comments.extracted, /^The home page's last line: \{date\} and \{time\} are already written in the page's \{timeZone\}\.$/m);
  assert.match(builtOn.comments.extracted, /^Arguments: \{version\} \(string \| number\), \{date\} .*\{timeZone\} \(string \| number\)$/m);
  const plural = entry(po.translations, "home.languages");
  assert.equal(plural.msgstr[0], "This application speaks {count, plural, one {# language} other {# languages}}.");
  assert.match(plural.comments.extracted, /Arguments: \{count\} \(number\)/);
});

test("xliff: XLIFF 2.0, one unit a key, its source, target and notes", async () => {
  const app = await copy();
  await exportMessages(app.dir, "xliff", app.files);
  const en = await readFile(path.join(app.files, "en.xlf"), "utf8");
  assert.match(en, /<xliff xmlns="urn:oasis:names:tc:xliff:document:2\.0" version="2\.0" srcLang="fr" trgLang="en">/);
  const unit = en.match(/<unit id="home\.builtOn">[\s\S]*?<\/unit>/)[0];
  assert.match(unit, /<note>The home page's last line: \{date\} and \{time\} are already written in the page's \{timeZone\}\.<\/note>/);
  assert.match(unit, /<source>Version \{version\}, construite le \{date\} à \{time\} \(\{timeZone\}\)\.<\/source>/);
  assert.match(unit, /<target>Version \{version\}, built on \{date\} at \{time\} \(\{timeZone\}\)\.<\/target>/);
});

test("a key a table lacks goes out untranslated, and its translation comes back in its place", async () => {
  const app = await copy();
  const [, en] = await tablesOf(app);
  const line = '  "status.check": "Check the server",\n';
  assert.ok(en.includes(line));
  await app.write(TABLES[1], en.replace(line, ""));
  const exported = await exportMessages(app.dir, "po", app.files);
  assert.deepEqual(exported.files.map(({ untranslated }) => untranslated), [0, 1]);
  const file = path.join(app.files, "en.po");
  await editPo(file, (translations) => assert.equal(entry(translations, "status.check").msgstr[0], ""));
  await exportMessages(app.dir, "xliff", app.files);
  assert.doesNotMatch((await readFile(path.join(app.files, "en.xlf"), "utf8")).match(/<unit id="status\.check">[\s\S]*?<\/unit>/)[0], /<target>/);
  await rm(path.join(app.files, "en.xlf"));
  await rm(path.join(app.files, "fr.xlf"));

  const untranslated = await importMessages(app.dir, app.files);
  assert.deepEqual(untranslated.written, []);
  assert.ok(untranslated.notes.some(({ text }) => /1 message\(s\) still untranslated in en.*status\.check/.test(text)));

  await editPo(file, (translations) => {
    entry(translations, "status.check").msgstr = ["Check the server"];
  });
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.deepEqual(imported.written, ["app/i18n/tables/en.ts"]);
  assert.equal(await app.read(TABLES[1]), en, "the key back where it was, written as the table writes its others");
});

test("a translation comes in as a new string literal; a fuzzy one does not come in", async () => {
  const app = await copy();
  await exportMessages(app.dir, "po", app.files);
  const file = path.join(app.files, "en.po");
  await editPo(file, (translations) => {
    entry(translations, "home.click").msgstr = ['Click "here"'];
    const fuzzy = entry(translations, "home.heading");
    fuzzy.msgstr = ["Hello"];
    fuzzy.comments = { ...fuzzy.comments, flag: "fuzzy, icu-message-format" };
  });
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.ok(imported.notes.some((note) => /message "home\.heading" \(en\) is marked fuzzy/.test(note.text) && note.line > 0));
  const en = await app.read(TABLES[1]);
  assert.match(en, /^ {2}"home\.click": "Click \\"here\\"",$/m);
  assert.match(en, /^ {2}"home\.heading": "Welcome to Bilingue",$/m);
});

/** Each refusal: what the translator wrote in en.po, and what the import says. */
const REFUSALS = [
  {
    name: "an unknown key",
    edit: (translations) => {
      translations["home.titel"] = { Accueil: { msgctxt: "home.titel", msgid: "Accueil", msgstr: ["Home"] } };
    },
    key: "home.titel",
    error: /^en\.po:\d+: message "home\.titel" \(en\) is not in the catalogue: app\/i18n\/tables\/fr\.ts has no key "home\.titel"/,
  },
  {
    name: "other arguments than the default language's",
    edit: (translations) => {
      entry(translations, "status.ok").msgstr = ["The server answers: version {versio}, {time}."];
    },
    key: "status.ok",
    error: /^en\.po:\d+: message "status\.ok" \(en\) takes versio: string \| number, time: string \| number, but in fr it takes version: string \| number, time: string \| number/,
  },
  {
    name: "a plural category the language lacks",
    edit: (translations) => {
      entry(translations, "home.languages").msgstr = ["This application speaks {count, plural, one {# language} many {# de languages} other {# languages}}."];
    },
    key: "home.languages",
    error: /^en\.po:\d+: message "home\.languages" \(en\): its plural on "count" has the case many, which en-US never selects \(its categories: one, other\)/,
  },
  {
    name: "a broken ICU message",
    edit: (translations) => {
      entry(translations, "home.clicks").msgstr = ["{count, plural, one {# click} other {# clicks}"];
    },
    key: "home.clicks",
    error: /^en\.po:\d+: message "home\.clicks" \(en\) is not valid ICU \(EXPECT_ARGUMENT_CLOSING_BRACE at column \d+\)/,
  },
];

for (const { name, edit, key, error } of REFUSALS) {
  test(`refused, and nothing written: ${name}`, async () => {
    const app = await copy();
    const before = await tablesOf(app);
    await exportMessages(app.dir, "po", app.files);
    // A good change in the other file: refused with the rest.
    await editPo(path.join(app.files, "fr.po"), (translations) => {
      entry(translations, "home.click").msgstr = ["Appuyer"];
    });
    const file = path.join(app.files, "en.po");
    await editPo(file, edit);
    const { errors, written } = await importMessages(app.dir, app.files);
    assert.deepEqual(written, []);
    assert.equal(errors.length, 1, errors.map(describe).join("\n"));
    assert.match(describe(errors[0]), error);
    const lineText = (await readFile(file, "utf8")).split("\n")[errors[0].line - 1];
    assert.equal(lineText, `msgctxt "${key}"`, "the line is the unit's");
    assert.deepEqual(await tablesOf(app), before);
  });
}

test("xliff: a refused unit is named by its line too", async () => {
  const app = await copy();
  await exportMessages(app.dir, "xliff", app.files);
  const file = path.join(app.files, "en.xlf");
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace("<target>The server answers: version {version}, {time}.</target>", "<target>The server answers: {time}.</target>"));
  const { errors, written } = await importMessages(app.dir, app.files);
  assert.deepEqual(written, []);
  assert.equal(errors.length, 1);
  assert.match(describe(errors[0]), /^en\.xlf:\d+: message "status\.ok" \(en\) takes time: string \| number, but in fr it takes version: string \| number, time: string \| number/);
  assert.match((await readFile(file, "utf8")).split("\n")[errors[0].line - 1], /<unit id="status\.ok">/);
});

test("a PO file re-wrapped, reordered and commented by another tool imports as it was", async () => {
  const app = await copy();
  const before = await tablesOf(app);
  await exportMessages(app.dir, "po", app.files);
  for (const language of ["fr", "en"]) {
    await editPo(
      path.join(app.files, `${language}.po`),
      (translations) => {
        for (const key of Object.keys(translations)) {
          if (key !== "") entry(translations, key).comments = { ...entry(translations, key).comments, translator: "Reviewed." };
        }
      },
      { foldLength: 24, sort: true },
    );
  }
  const po = await readFile(path.join(app.files, "en.po"), "utf8");
  assert.match(po, /^msgctxt "home\.builtOn"\nmsgid ""\n"Version \{version\}, "/m, "re-wrapped");
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.deepEqual(await tablesOf(app), before);
});

test("a function entry cannot go out: the export names it", async () => {
  const app = await copy();
  for (const file of TABLES) {
    const table = await app.read(file);
    await app.write(file, table.replace(/"home\.click": "[^"]*",/, '"home.click": () => "Click",'));
  }
  const { errors, files } = await exportMessages(app.dir, "po", app.files);
  assert.deepEqual(files, []);
  assert.ok(errors.length > 0);
  for (const error of errors) assert.match(describe(error), /^(fr|en)\.ts:\d+: message "home\.click" \((fr|en)\) is code, a function: write it as an ICU message/);
});
