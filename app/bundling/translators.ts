// The catalogue as translators send and receive it, whatever the file format (app/bundling/po.mjs,
// xliff.mjs write and read the files): out, one unit per key with the default language's
// message as its source, the language's as its target (none when its table lacks the key)
// and notes for the translator; back in, each file's messages checked by the catalogue's
// own rules against the default language, then written into the tables' sources, every
// other byte left as it was. A file that breaks a rule is refused with its file, line, key
// and language, and then nothing is written.
import { type CatalogueTable, checkCatalogue, type Problem } from "./catalogue";
import { readMessage, typeOf } from "./messages";
import { entriesOf, writeMessages } from "./tableSource";

/** One message as it leaves or comes back. */
export interface TranslationUnit {
  key: string;
  /** The default language's message. */
  source: string;
  /** This language's message; null when its table lacks the key (untranslated). */
  target: string | null;
  /** For the translator: what the developer wrote about the message, what it takes. */
  notes: string[];
}

/** One language's units, the default language's included (its targets are its sources). */
export interface TranslatorsLanguage {
  language: string;
  locale: string;
  sourceLanguage: string;
  sourceLocale: string;
  units: TranslationUnit[];
}

/**
 * Every language's units, in the default table's order; errors when the catalogue breaks
 * a rule (a key only one language lacks is not one: it goes out untranslated).
 */
export function exportCatalogue(tables: CatalogueTable[]): { languages: TranslatorsLanguage[]; errors: Problem[] } {
  const [first] = tables;
  // Among them, a function entry: code, which no translator's file can hold.
  const errors = catalogueErrors(tables);
  const descriptions = new Map(entriesOf(first.source).map((entry) => [entry.key, entry.description]));
  const languages = tables.map((table) => ({
    language: table.language,
    locale: table.locale,
    sourceLanguage: first.language,
    sourceLocale: first.locale,
    units: Object.entries(first.table).flatMap(([key, source]) => {
      if (typeof source !== "string") return [];
      const target = Object.prototype.hasOwnProperty.call(table.table, key) ? table.table[key] : null;
      return [{ key, source, target: typeof target === "string" ? target : null, notes: notesOf(source, descriptions.get(key) ?? null) }];
    }),
  }));
  return { languages, errors };
}

/** The check's errors, less the keys a language lacks (those go out untranslated). */
function catalogueErrors(tables: CatalogueTable[]): Problem[] {
  const keys = Object.keys(tables[0].table);
  const { errors } = checkCatalogue(tables, [{ file: "", text: keys.map((key) => JSON.stringify(key)).join(" ") }]);
  return errors.filter(({ line, text }) => !(line === 0 && / is missing in \w/.test(text)));
}

/** The description, then the arguments the message takes, for the translator. */
function notesOf(source: string, description: string | null): string[] {
  const notes = description ? [description] : [];
  try {
    const args = readMessage(source).arguments;
    if (args.size > 0) notes.push(`Arguments: ${[...args].map(([name, type]) => `{${name}} (${typeOf(type)})`).join(", ")}`);
  } catch {
    // A message that does not parse is among the errors.
  }
  return notes;
}

/** One unit of a translator's file, as its format's reader found it. */
export interface ImportedUnit {
  key: string;
  /** 1-based line of the unit in its file. */
  line: number;
  /** The source the translator saw (null: the file does not say). */
  source: string | null;
  /** The translation; null or "" when there is none. */
  target: string | null;
  /** Why it is not finished, when it is not (gettext's fuzzy, XLIFF's state="initial"): not imported. */
  unfinished: string | null;
}

/** A translator's file as its format's reader found it. */
export interface ImportedFile {
  file: string;
  /** The language the file says it is in, a code or a locale (null: it does not say). */
  language: string | null;
  /** Where the file says it: its "Language header", its "trgLang". */
  languageField: string;
  units: ImportedUnit[];
  /** What the reader refused (a unit without a key, a gettext plural, …). */
  errors: Problem[];
}

export interface ImportResult {
  errors: Problem[];
  /** What the importer should know but does not stop it: untranslated or fuzzy units, a source that changed. */
  notes: Problem[];
  /** The new source of each table the files change, by table file. */
  written: Map<string, string>;
}

/**
 * Checks every file against the tables (`tables[0]` the default language's) and gives the
 * tables' new sources; with any error, none.
 */
export function importCatalogue(tables: CatalogueTable[], files: ImportedFile[]): ImportResult {
  const [first] = tables;
  const errors: Problem[] = files.flatMap((file) => file.errors);
  const notes: Problem[] = [];
  const messages = new Map<CatalogueTable, Map<string, string>>();
  const seen = new Map<CatalogueTable, string>();
  for (const file of files) {
    if (file.language === null && file.errors.length > 0) continue; // unread: what its reader said is enough
    const table = languageOf(tables, file, errors);
    if (!table) continue;
    if (seen.has(table)) {
      errors.push({ file: file.file, line: 0, text: `it is in ${table.language}, as ${nameOf(seen.get(table) ?? "")} is: import one file per language` });
      continue;
    }
    seen.set(table, file.file);
    const checked = checkFile(first, table, file, errors, notes);
    messages.set(table, checked);
  }
  if (errors.length > 0) return { errors, notes, written: new Map() };

  const order = Object.keys(first.table);
  const written = new Map<string, string>();
  for (const [table, translated] of messages) {
    const inOrder = new Map(order.filter((key) => translated.has(key)).map((key) => [key, translated.get(key) ?? ""]));
    const source = writeMessages(table.source, inOrder, order);
    if (source !== table.source) written.set(table.file, source);
    const untranslated = order.filter((key) => !Object.prototype.hasOwnProperty.call(table.table, key) && !translated.has(key));
    if (untranslated.length > 0) {
      notes.push({
        file: table.file,
        line: 0,
        text: table.complete
          ? `${untranslated.length} message(s) still untranslated in ${table.language}, which the build refuses until they are (it is complete): ${untranslated.join(", ")}`
          : `${untranslated.length} message(s) still untranslated in ${table.language}, whose pages show ${table.parent ?? first.language}'s until they are: ${untranslated.join(", ")}`,
      });
    }
  }
  return { errors, notes, written };
}

/**
 * The table a file is for: the language its name says (`en.po`, `en-US.xlf`), which must be
 * the one it declares. A file copied from another language's keeps that one's declaration.
 */
function languageOf(tables: CatalogueTable[], file: ImportedFile, errors: Problem[]): CatalogueTable | undefined {
  const named = nameOf(file.file).replace(/\.[^.]*$/, "");
  const table = tableFor(tables, named);
  const refuse = (text: string) => {
    errors.push({ file: file.file, line: 0, text });
    return undefined;
  };
  if (!table) {
    const known = tables.map(({ language }) => language).join(", ");
    return refuse(`its language ${JSON.stringify(named)} (its name) is none of app/i18n/languages.json's (${known}): a file is named after its language`);
  }
  if (file.language === null) return refuse(`it declares no language (its ${file.languageField}): add it, "${table.language}", as the export writes it`);
  if (tableFor(tables, file.language) !== table) {
    return refuse(
      `its name says ${table.language} but its ${file.languageField} says ${JSON.stringify(file.language)}: a file is in one language, named after it; rename the file, or correct its ${file.languageField} if the file is in ${table.language}`,
    );
  }
  return table;
}

/** A file's name, without its folder. */
const nameOf = (file: string): string => file.replace(/^.*[\\/]/, "");

/** `language` as a file says it: a code, or a locale (`en-US`, `en_US`), of one of the tables. */
function tableFor(tables: CatalogueTable[], language: string | null): CatalogueTable | undefined {
  const wanted = (language ?? "").replace(/_/g, "-").toLowerCase();
  return tables.find((table) => table.language.toLowerCase() === wanted) ?? tables.find((table) => table.locale.toLowerCase() === wanted);
}

/** A character no message holds: C0 controls but tab and line feed, and DEL (XML forbids most of them). */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/;

/**
 * A file's translated units, checked as the build checks a table against the default
 * language's: its keys, arguments, plurals and ICU. Gives key → message for those that pass.
 */
function checkFile(first: CatalogueTable, table: CatalogueTable, file: ImportedFile, errors: Problem[], notes: Problem[]): Map<string, string> {
  const lines = new Map<string, number>();
  const translated: ImportedUnit[] = [];
  for (const unit of file.units) {
    const at = { file: file.file, line: unit.line };
    const named = `message "${unit.key}" (${table.language})`;
    if (!Object.prototype.hasOwnProperty.call(first.table, unit.key)) {
      errors.push({ ...at, text: `${named} is not in the catalogue: ${first.file} has no key "${unit.key}" (a key is added to the tables, then exported)` });
    } else if (lines.has(unit.key)) {
      errors.push({ ...at, text: `${named} is written twice, at lines ${lines.get(unit.key)} and ${unit.line}: keep one` });
    } else if (typeof table.table[unit.key] === "function" || typeof first.table[unit.key] === "function") {
      errors.push({ ...at, text: `${named} is code in ${table.file}, a function, which a translator's file cannot replace` });
    } else if (unit.unfinished) {
      notes.push({ ...at, text: `${named} ${unit.unfinished}: left as it is` });
    } else if (unit.target !== null && CONTROL.test(unit.target)) {
      const column = unit.target.search(CONTROL) + 1;
      const code = unit.target.codePointAt(column - 1)?.toString(16).toUpperCase().padStart(4, "0");
      errors.push({ ...at, text: `${named} has the control character U+${code} at column ${column}, which no text shows: remove it (a line break is written \\n)` });
    } else if (unit.target !== null && unit.target !== "") {
      translated.push(unit);
      const current = first.table[unit.key];
      if (unit.source !== null && unit.source !== current) {
        notes.push({ ...at, text: `${named} was translated from another ${first.language} text than the table's ${JSON.stringify(current)}: check it` });
      }
    }
    lines.set(unit.key, lines.get(unit.key) ?? unit.line);
  }
  // The translated units as a table of their own, one entry a line, checked beside the
  // default language's: each error is then mapped back to its unit's line in the file.
  const source = ["const imported = {", ...translated.map((unit) => `${JSON.stringify(unit.key)}: ${JSON.stringify(unit.target)},`), "};", "export default imported;", ""];
  const imported: CatalogueTable = {
    language: table.language,
    locale: table.locale,
    file: file.file,
    source: source.join("\n"),
    table: Object.fromEntries(translated.map((unit) => [unit.key, unit.target])),
  };
  const keys = Object.keys(first.table);
  const checked = checkCatalogue([first, imported], [{ file: "", text: keys.map((key) => JSON.stringify(key)).join(" ") }]);
  const unitAt = (line: number) => translated[line - 2];
  let failed = false;
  for (const problem of checked.errors) {
    if (problem.file !== file.file || problem.line === 0) continue; // the default table's own, or a key the file leaves out
    failed = true;
    errors.push({ ...problem, line: unitAt(problem.line)?.line ?? 0 });
  }
  for (const problem of checked.warnings) {
    if (problem.file === file.file && problem.line > 0) notes.push({ ...problem, line: unitAt(problem.line)?.line ?? 0 });
  }
  return failed ? new Map() : new Map(translated.map((unit) => [unit.key, unit.target ?? ""]));
}

