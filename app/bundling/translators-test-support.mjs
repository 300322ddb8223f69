// What the tests of the translators' import and export share (translators.test.mjs,
// translators-refusals.test.mjs, …): a copy of the app's tables to import into, and the
// languages as app/i18n/languages.json lists them, so that every test holds whatever
// languages are added.
import assert from "node:assert/strict";
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";
import gettextParser from "gettext-parser";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The listed languages, the default one first: { codes, first, other, unlisted, tables }. */
export async function languages(dir = root) {
  const declared = JSON.parse(await readFile(path.join(dir, "app/i18n/languages.json"), "utf8"));
  const listed = [...declared.languages.filter(({ code }) => code === declared.default), ...declared.languages.filter(({ code }) => code !== declared.default)];
  assert.ok(listed.length >= 2, "the tests of the import need a language besides the default one");
  const codes = listed.map(({ code }) => code);
  return {
    codes,
    /** The default language, whose messages are every file's sources. */
    first: listed[0],
    /** A language translated from the default one. */
    other: listed[1],
    /** A language the list does not have (a file of it is refused). */
    unlisted: ["de", "es", "it", "pt", "nl", "pl"].find((code) => !codes.includes(code)),
    tables: codes.map((code) => `app/i18n/tables/${code}.ts`),
  };
}

const made = [];
after(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A folder with a copy of the app's languages and tables (the rest linked), and `files`, one for the translators' files. */
export async function copyOfTheTables() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bilingue-translators-"));
  made.push(dir);
  await cp(path.join(root, "app/i18n"), path.join(dir, "app/i18n"), { recursive: true });
  await cp(path.join(root, "package.json"), path.join(dir, "package.json"));
  await symlink(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  const { tables } = await languages(dir);
  return {
    dir,
    files: path.join(dir, "translators"),
    read: (file) => readFile(path.join(dir, file), "utf8"),
    write: (file, text) => writeFile(path.join(dir, file), text),
    /** Every table's bytes, and the names in their folder (a temporary file left would show). */
    snapshot: async () => ({
      tables: await Promise.all(tables.map((file) => readFile(path.join(dir, file)))),
      names: (await readdir(path.join(dir, "app/i18n/tables"))).sort(),
    }),
  };
}

/** A problem as the command prints it, with the file's name only. */
export const describe = ({ file, line, text }) => `${path.basename(file)}${line ? `:${line}` : ""}: ${text}`;

/** Rewrites a PO file through gettext-parser: `edit(translations, po)` changes the entries. */
export async function editPo(file, edit, options = {}) {
  const po = gettextParser.po.parse(await readFile(file, "utf8"));
  edit(po.translations, po);
  await writeFile(file, gettextParser.po.compile(po, options));
}

/** The entry of `key` in a PO file's translations. */
export const entry = (translations, key) => Object.values(translations[key])[0];

/** A plural category `locale` never selects (a case a translator must not write). */
export function categoryNeverSelected(locale) {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  return ["zero", "two", "few", "many"].find((category) => !categories.includes(category));
}
