// The catalogue out to translators' files and back (app/bundling/translators-command.mjs), on
// a copy of the app's tables: a round trip changes no byte, a translation fills in what a
// table lacked, and files come back as translators' tools leave them (drafts, segments,
// line endings). Each refusal is in translators-refusals.test.mjs; gettext's and
// translate-toolkit's own handling of the files is in tests/translations.rs. Every test
// holds for any list of languages: they come from app/i18n/languages.json.
import assert from "node:assert/strict";
import { mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import gettextParser from "gettext-parser";
import { checkAppCatalogue } from "./catalogue.mjs";
import { exportMessages, importMessages, loadTables } from "./translators-command.mjs";
import { copyOfTheTables, describe, editPo, entry, languages, root } from "./translators-test-support.mjs";

const { codes, first, other, tables } = await languages();
const [defaultTable, otherTable] = (await loadTables(root)).map(({ table }) => table);
const tablesOf = async (app) => (await app.snapshot()).tables;
const otherFile = (app, extension) => path.join(app.files, `${other.code}${extension}`);
/** The text of `key`'s unit in an XLIFF file. */
const unitOf = (text, key) => text.match(new RegExp(`<unit id="${key.replace(".", "\\.")}">[\\s\\S]*?</unit>`))[0];

for (const [format, extension] of [["po", ".po"], ["xliff", ".xlf"]]) {
  test(`${format}: export then import without edits changes no byte of the tables`, async () => {
    const app = await copyOfTheTables();
    const before = await tablesOf(app);
    const exported = await exportMessages(app.dir, format, app.files);
    assert.deepEqual(exported.errors, []);
    assert.deepEqual(
      exported.files.map(({ file, untranslated }) => [path.basename(file), untranslated]),
      codes.map((code) => [`${code}${extension}`, 0]),
      "a file a listed language, the default one first",
    );
    const imported = await importMessages(app.dir, app.files);
    assert.deepEqual(imported.errors.map(describe), []);
    assert.deepEqual(imported.written, []);
    assert.deepEqual(await tablesOf(app), before);
  });
}

test("po: one entry a key, the key as msgctxt, the default language's message as msgid, ICU as it is, the description and arguments as notes", async () => {
  const app = await copyOfTheTables();
  await exportMessages(app.dir, "po", app.files);
  const text = await readFile(otherFile(app, ".po"), "utf8");
  assert.match(text, new RegExp(`^"Language: ${other.code}\\\\n"$`, "m"));
  const po = gettextParser.po.parse(text);
  const builtOn = entry(po.translations, "home.builtOn");
  assert.equal(builtOn.msgctxt, "home.builtOn");
  assert.equal(builtOn.msgid, defaultTable["home.builtOn"]);
  assert.equal(builtOn.msgstr[0], otherTable["home.builtOn"]);
  assert.match(builtOn.comments.extracted, /^The home page's last line: \{date\} and \{time\} are already written in the page's \{timeZone\}\.$/m);
  assert.match(builtOn.comments.extracted, /^Arguments: \{version\} \(string \| number\), \{date\} .*\{timeZone\} \(string \| number\)$/m);
  const plural = entry(po.translations, "home.languages");
  assert.equal(plural.msgstr[0], otherTable["home.languages"]);
  assert.match(plural.msgstr[0], /\{count, plural, /);
  assert.match(plural.comments.extracted, /Arguments: \{count\} \(number\)/);
});

test("xliff: XLIFF 2.0, one unit a key, its source, target and notes", async () => {
  const app = await copyOfTheTables();
  await exportMessages(app.dir, "xliff", app.files);
  const text = await readFile(otherFile(app, ".xlf"), "utf8");
  assert.match(text, new RegExp(`<xliff xmlns="urn:oasis:names:tc:xliff:document:2\\.0" version="2\\.0" srcLang="${first.code}" trgLang="${other.code}">`));
  const unit = unitOf(text, "home.builtOn");
  assert.match(unit, /<note>The home page's last line: \{date\} and \{time\} are already written in the page's \{timeZone\}\.<\/note>/);
  assert.ok(unit.includes(`<source>${defaultTable["home.builtOn"]}</source>`), unit);
  assert.ok(unit.includes(`<target>${otherTable["home.builtOn"]}</target>`), unit);
});

test("a key a table lacks goes out untranslated, and its translation comes back in its place", async () => {
  const app = await copyOfTheTables();
  const table = await app.read(tables[1]);
  const line = table.match(/^ *"status\.check": .*\n/m)[0];
  await app.write(tables[1], table.replace(line, ""));
  const exported = await exportMessages(app.dir, "po", app.files);
  assert.deepEqual(
    exported.files.map(({ untranslated }) => untranslated),
    codes.map((code) => (code === other.code ? 1 : 0)),
  );
  const file = otherFile(app, ".po");
  await editPo(file, (translations) => assert.equal(entry(translations, "status.check").msgstr[0], ""));
  await exportMessages(app.dir, "xliff", app.files);
  assert.doesNotMatch(unitOf(await readFile(otherFile(app, ".xlf"), "utf8"), "status.check"), /<target>/);
  for (const code of codes) await rm(path.join(app.files, `${code}.xlf`));

  const untranslated = await importMessages(app.dir, app.files);
  assert.deepEqual(untranslated.written, []);
  assert.ok(untranslated.notes.some(({ text }) => new RegExp(`1 message\\(s\\) still untranslated in ${other.code}.*status\\.check`).test(text)));

  await editPo(file, (translations) => {
    entry(translations, "status.check").msgstr = [otherTable["status.check"]];
  });
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.deepEqual(imported.written, [tables[1]]);
  assert.equal(await app.read(tables[1]), table, "the key back where it was, written as the table writes its others");
});

test("a translation comes in as a new string literal; a fuzzy one does not come in", async () => {
  const app = await copyOfTheTables();
  await exportMessages(app.dir, "po", app.files);
  await editPo(otherFile(app, ".po"), (translations) => {
    entry(translations, "home.click").msgstr = ['Click "here"'];
    const fuzzy = entry(translations, "home.heading");
    fuzzy.msgstr = ["Hello"];
    fuzzy.comments = { ...fuzzy.comments, flag: "fuzzy, icu-message-format" };
  });
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.ok(imported.notes.some((note) => new RegExp(`message "home\\.heading" \\(${other.code}\\) is marked fuzzy`).test(note.text) && note.line > 0));
  const table = await app.read(tables[1]);
  assert.match(table, /^ {2}"home\.click": "Click \\"here\\"",$/m);
  assert.ok(table.includes(`  "home.heading": ${JSON.stringify(otherTable["home.heading"])},`), "the fuzzy one left as it was");
});

test("the import does not depend on the icu-message-format flag, which msgcat and msgmerge drop", async () => {
  const app = await copyOfTheTables();
  await exportMessages(app.dir, "po", app.files);
  await editPo(otherFile(app, ".po"), (translations) => {
    for (const key of Object.keys(translations)) if (key !== "") entry(translations, key).comments.flag = "";
    entry(translations, "home.clicks").msgstr = ["{count, plural, one {# click} other {# clicks}"];
  });
  assert.doesNotMatch(await readFile(otherFile(app, ".po"), "utf8"), /icu-message-format/);
  const { errors } = await importMessages(app.dir, app.files);
  assert.deepEqual(errors.map(describe), [`${other.code}.po:${errors[0]?.line}: message "home.clicks" (${other.code}) is not valid ICU (EXPECT_ARGUMENT_CLOSING_BRACE at column 1)`]);
});

test("xliff: a unit split into segments comes back whole, the segments and the space between joined in order", async () => {
  const app = await copyOfTheTables();
  await exportMessages(app.dir, "xliff", app.files);
  const file = otherFile(app, ".xlf");
  const text = await readFile(file, "utf8");
  const source = defaultTable["loading.failed"];
  const cut = source.indexOf(". ") + 1;
  const split = unitOf(text, "loading.failed").replace(
    /<segment>[\s\S]*<\/segment>/,
    `<segment id="1"><source>${source.slice(0, cut)}</source><target>Sentence one.</target></segment>` +
      `<ignorable><source> </source></ignorable>` +
      `<segment id="2" state="translated"><source>${source.slice(cut + 1)}</source><target>Sentence two.</target></segment>`,
  );
  await writeFile(file, text.replace(unitOf(text, "loading.failed"), split));
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.deepEqual(imported.notes.filter((note) => /loading\.failed/.test(note.text)).map(describe), [], "the joined source is the table's: no note that it changed");
  assert.ok((await app.read(tables[1])).includes('  "loading.failed": "Sentence one. Sentence two.",'));
});

test("xliff: a draft (state=\"initial\", as translate-toolkit's markfuzzy writes it) or a unit half translated does not come in, and is named", async () => {
  const app = await copyOfTheTables();
  const before = await tablesOf(app);
  await exportMessages(app.dir, "xliff", app.files);
  const file = otherFile(app, ".xlf");
  let text = await readFile(file, "utf8");
  const draft = unitOf(text, "home.heading");
  text = text.replace(draft, draft.replace("<segment>", '<segment state="initial">').replace(/<target>[^<]*<\/target>/, "<target>Draft</target>"));
  const half = unitOf(text, "home.intro");
  text = text.replace(half, half.replace(/<\/segment>/, '</segment><segment><source>More.</source></segment>').replace(/<target>[^<]*<\/target>/, "<target>Half</target>"));
  await writeFile(file, text);
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  const notes = imported.notes.map(describe);
  assert.ok(notes.some((note) => new RegExp(`^${other.code}\\.xlf:\\d+: message "home\\.heading" \\(${other.code}\\) is a draft \\(state="initial": not finished\\): left as it is$`).test(note)), notes.join("\n"));
  assert.ok(notes.some((note) => /message "home\.intro" .* has 1 of its 2 segments translated \(not finished\): left as it is$/.test(note)), notes.join("\n"));
  assert.deepEqual(await tablesOf(app), before);
});

test("xliff: CR LF line endings, inside a <target> too, are read as XML reads them (§2.11): as LF", async () => {
  const app = await copyOfTheTables();
  const before = await tablesOf(app);
  await exportMessages(app.dir, "xliff", app.files);
  for (const code of codes) {
    const file = path.join(app.files, `${code}.xlf`);
    await writeFile(file, (await readFile(file, "utf8")).replace(/\n/g, "\r\n"));
  }
  assert.deepEqual((await importMessages(app.dir, app.files)).written, [], "the same messages");
  assert.deepEqual(await tablesOf(app), before);
  const file = otherFile(app, ".xlf");
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace(/(<unit id="home\.intro">[\s\S]*?<target>)[^<]*/, "$1Line one\r\nline two\rline three"));
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.ok((await app.read(tables[1])).includes('  "home.intro": "Line one\\nline two\\nline three",'));
});

test("xliff: a <file> whose id is __proto__ is a file as another", async () => {
  const app = await copyOfTheTables();
  await exportMessages(app.dir, "xliff", app.files);
  const file = otherFile(app, ".xlf");
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace('<file id="messages">', '<file id="__proto__">').replace(/(<unit id="home\.click">[\s\S]*?<target>)[^<]*/, "$1Press"));
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.deepEqual(imported.written, [tables[1]]);
  assert.ok((await app.read(tables[1])).includes('  "home.click": "Press",'));
});

test("a link to a file inside the folder is read as that file", async () => {
  const app = await copyOfTheTables();
  await exportMessages(app.dir, "po", app.files);
  const kept = path.join(app.files, "kept");
  await mkdir(kept);
  await rename(otherFile(app, ".po"), path.join(kept, `${other.code}.po`));
  await editPo(path.join(kept, `${other.code}.po`), (translations) => void (entry(translations, "home.click").msgstr = ["Press"]));
  await symlink(path.join("kept", `${other.code}.po`), otherFile(app, ".po"));
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.ok((await app.read(tables[1])).includes('  "home.click": "Press",'));
});

test("a PO file re-wrapped, reordered and commented by another tool imports as it was", async () => {
  const app = await copyOfTheTables();
  const before = await tablesOf(app);
  await exportMessages(app.dir, "po", app.files);
  for (const code of codes) {
    await editPo(
      path.join(app.files, `${code}.po`),
      (translations) => {
        for (const key of Object.keys(translations)) {
          if (key !== "") entry(translations, key).comments = { ...entry(translations, key).comments, translator: "Reviewed." };
        }
      },
      { foldLength: 24, sort: true },
    );
  }
  const po = await readFile(otherFile(app, ".po"), "utf8");
  assert.match(po, /^msgctxt "home\.builtOn"\nmsgid ""\n"Version \{version\}, "/m, "re-wrapped");
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.deepEqual(await tablesOf(app), before);
});

test("the default language's own file may change its texts, keeping their arguments", async () => {
  const app = await copyOfTheTables();
  await exportMessages(app.dir, "po", app.files);
  await editPo(path.join(app.files, `${first.code}.po`), (translations) => {
    entry(translations, "home.click").msgstr = ["Appuyer"];
    entry(translations, "status.ok").msgstr = ["Réponse : {version}, {time}."];
  });
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.deepEqual(imported.written, [tables[0]]);
  assert.ok((await app.read(tables[0])).includes('  "status.ok": "Réponse : {version}, {time}.",'));
});

test("a host text with ICU quoting is plain text to the import and to the build, quoting undone", async () => {
  const app = await copyOfTheTables();
  await exportMessages(app.dir, "po", app.files);
  await editPo(otherFile(app, ".po"), (translations) => {
    entry(translations, "host.serverError").msgstr = ["The server''s error."];
  });
  const imported = await importMessages(app.dir, app.files);
  assert.deepEqual(imported.errors.map(describe), []);
  assert.ok((await app.read(tables[1])).includes(`  "host.serverError": "The server''s error.",`));
  const { errors, hostTexts } = await checkAppCatalogue(app.dir, { declarations: null, sources: [] });
  assert.deepEqual(errors.map(describe), []);
  assert.equal(hostTexts[other.code].serverError, "The server's error.");
});

test("a function entry cannot go out: the export names it", async () => {
  const app = await copyOfTheTables();
  for (const file of tables) {
    const table = await app.read(file);
    await app.write(file, table.replace(/"home\.click": "[^"]*",/, '"home.click": () => "Click",'));
  }
  const { errors, files } = await exportMessages(app.dir, "po", app.files);
  assert.deepEqual(files, []);
  assert.ok(errors.length > 0);
  const languagesPattern = codes.join("|");
  for (const error of errors) assert.match(describe(error), new RegExp(`^(${languagesPattern})\\.ts:\\d+: message "home\\.click" \\((${languagesPattern})\\) is code, a function: write it as an ICU message`));
});
