// The catalogue in XLIFF 2.0, one file per language, written and read by the xliff
// package: one <unit> a key, its <source> the default language's message, its <target>
// the language's (none when untranslated), ICU kept as text; the description and the
// arguments are its <notes>. A unit without a target is not imported.
import { js2xliff, xliff2js } from "xliff";

export const XLIFF_EXTENSION = ".xlf";
const FILE_ID = "messages";

/** `language` (an ExchangeLanguage of app/bundling/exchange.ts) as an XLIFF 2.0 file's text. */
export async function writeXliff(language) {
  const units = {};
  for (const { key, source, target, notes } of language.units) {
    units[key] = { source, ...(target === null ? {} : { target }), ...(notes.length > 0 ? { note: notes.length === 1 ? notes[0] : notes } : {}) };
  }
  const text = await js2xliff({ sourceLanguage: language.sourceLanguage, targetLanguage: language.language, resources: { [FILE_ID]: units } });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
}

/** An XLIFF file's text as an ImportedFile (app/bundling/exchange.ts). */
export async function readXliff(file, text) {
  let parsed;
  try {
    parsed = await xliff2js(text);
  } catch (error) {
    return { file, language: null, units: [], errors: [{ file, line: 0, text: `is not an XLIFF file: ${error.message}` }] };
  }
  if (!parsed.resources) {
    return { file, language: null, units: [], errors: [{ file, line: 0, text: "is not XLIFF 2: its <xliff> element needs version=\"2.0\" (or 2.1, 2.2)" }] };
  }
  const lines = unitLines(text);
  const errors = [];
  const units = [];
  for (const resources of Object.values(parsed.resources)) {
    for (const [key, unit] of Object.entries(resources)) {
      const line = lines.get(key)?.shift() ?? 0;
      if (unit?.groupUnits) {
        errors.push({ file, line, text: `the group "${key}" holds units: write each message as a <unit> of its <file>` });
        continue;
      }
      const target = unit?.target;
      if (target !== undefined && typeof target !== "string") {
        errors.push({ file, line, text: `message "${key}" has markup in its <target> (an inline element): a message is text, its arguments ICU's {braces}` });
        continue;
      }
      units.push({ key, line, source: typeof unit?.source === "string" ? unit.source : null, target: target ?? null, fuzzy: false });
    }
  }
  return { file, language: parsed.targetLanguage ?? null, units, errors };
}

/** Each unit id's lines, in file order: the xliff package gives none, so the text is searched. */
function unitLines(text) {
  const found = new Map();
  for (const match of text.matchAll(/<unit\b[^>]*?\bid\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const id = xmlText(match[1] ?? match[2]);
    const line = text.slice(0, match.index).split("\n").length;
    found.set(id, [...(found.get(id) ?? []), line]);
  }
  return found;
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** An attribute's value with XML's character references undone. */
const xmlText = (value) =>
  value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|(\w+));/gi, (whole, hex, decimal, name) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : decimal ? String.fromCodePoint(Number(decimal)) : (ENTITIES[name] ?? whole),
  );
