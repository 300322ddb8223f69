// The catalogue in gettext PO, one file per language, written and read by gettext-parser:
// the key is the msgctxt, the default language's message the msgid, the language's the
// msgstr (empty when untranslated), ICU kept as it is (flagged icu-message-format, as
// Weblate reads it); the description and the arguments are extracted comments (`#.`).
// A fuzzy entry is not imported; a key written twice is refused (gettext-parser would keep
// one). gettext's own plurals (msgid_plural) are refused: the plural is ICU's, inside the
// message. Nothing read depends on the icu-message-format flag, which msgcat and msgmerge
// drop (they keep only the flags gettext knows).
import gettextParser from "gettext-parser";

export const PO_EXTENSION = ".po";

/** `language` (an TranslatorsLanguage of app/bundling/translators.ts) as a PO file's text. */
export function writePo(language, { project }) {
  const translations = { "": { "": { msgid: "", msgstr: [""] } } };
  for (const { key, source, target, notes } of language.units) {
    translations[key] = {
      [source]: { msgctxt: key, msgid: source, msgstr: [target ?? ""], comments: { extracted: notes.join("\n"), flag: "icu-message-format" } },
    };
  }
  const headers = {
    "Project-Id-Version": project,
    "Report-Msgid-Bugs-To": "",
    "PO-Revision-Date": "",
    "Last-Translator": "",
    "Language-Team": "",
    Language: language.language,
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
    "X-Source-Language": language.sourceLanguage,
  };
  return gettextParser.po.compile({ charset: "utf-8", headers, translations }).toString("utf8");
}

/** A PO file's text as an ImportedFile (app/bundling/translators.ts). */
export function readPo(file, text) {
  const read = { file, language: null, languageField: "Language header", units: [], errors: [] };
  let parsed;
  try {
    parsed = gettextParser.po.parse(text);
  } catch (error) {
    const why = error.message.replace(/^Error parsing PO data: /, "").split("\n")[0];
    return { ...read, errors: [{ file, line: error.lineNumber ?? 0, text: `is not a PO file gettext reads: ${why}` }] };
  }
  const lines = contextLines(text);
  for (const [context, entries] of Object.entries(parsed.translations)) {
    if (context === "") {
      for (const entry of Object.values(entries)) {
        if (entry.msgid !== "") read.errors.push({ file, line: lineOfMsgid(text, entry.msgid), text: `an entry has no msgctxt, the key of its message: ${JSON.stringify(entry.msgid)}` });
      }
      continue;
    }
    // gettext-parser keeps one entry of a msgctxt and msgid written twice: each of its
    // lines is a unit here, so that the import refuses the key written twice.
    const at = lines.get(context) ?? [];
    const units = Object.values(entries).map((entry, index) => ({ entry, line: at[index] ?? 0 }));
    for (const line of at.slice(units.length)) units.push({ entry: units.at(-1).entry, line });
    for (const { entry, line } of units) {
      if (entry.msgid_plural !== undefined) {
        read.errors.push({ file, line, text: `message "${context}" has gettext plural forms (msgid_plural): write the plural in ICU, inside msgstr` });
        continue;
      }
      const flags = (entry.comments?.flag ?? "").split(/[\s,]+/);
      const unfinished = flags.includes("fuzzy") ? "is marked fuzzy (not finished)" : null;
      read.units.push({ key: context, line, source: entry.msgid, target: entry.msgstr[0] ?? "", unfinished });
    }
  }
  return { ...read, language: parsed.headers?.Language || null };
}

/**
 * Each msgctxt's lines, in the order the file writes them: gettext-parser gives no line
 * numbers, so the file is searched for each `msgctxt` keyword (its string may go on over
 * the next lines, `"…"` each) to name the line of a refused message.
 */
function contextLines(text) {
  const lines = text.split(/\r?\n/);
  const found = new Map();
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i].match(/^msgctxt\s+(".*")\s*$/);
    if (!first) continue;
    let value = poString(first[1]);
    for (let next = i + 1; next < lines.length && /^\s*"/.test(lines[next]); next++) value += poString(lines[next].trim());
    found.set(value, [...(found.get(value) ?? []), i + 1]);
  }
  return found;
}

/** One quoted PO string's text (the escapes PO shares with JSON; a key uses no other). */
function poString(quoted) {
  try {
    return JSON.parse(quoted);
  } catch {
    return quoted.slice(1, -1);
  }
}

function lineOfMsgid(text, msgid) {
  const index = text.indexOf(`msgid ${JSON.stringify(msgid)}`);
  return index < 0 ? 0 : text.slice(0, index).split("\n").length;
}
