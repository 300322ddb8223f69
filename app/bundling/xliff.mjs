// The catalogue in XLIFF 2.0, one file per language: written by the xliff package (one
// <unit> a key, its <source> the default language's message, its <target> the language's,
// none when untranslated, ICU kept as text, the description and the arguments its unit's
// <notes>), read back by xliff-reader.mjs.
import { js2xliff } from "xliff";

export { readXliff } from "./xliff-reader.mjs";

export const XLIFF_EXTENSION = ".xlf";
const FILE_ID = "messages";

/** `language` (an TranslatorsLanguage of app/bundling/translators.ts) as an XLIFF 2.0 file's text. */
export async function writeXliff(language) {
  const units = {};
  for (const { key, source, target, notes } of language.units) {
    units[key] = { source, ...(target === null ? {} : { target }), ...(notes.length > 0 ? { note: notes.length === 1 ? notes[0] : notes } : {}) };
  }
  const text = await js2xliff({ sourceLanguage: language.sourceLanguage, targetLanguage: language.language, resources: { [FILE_ID]: units } });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
}
