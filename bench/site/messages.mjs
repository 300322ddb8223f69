// The site's messages, from CLDR, in every language of the site: each a key and, per
// language, an ICU message. Only keys CLDR has in every language are kept (the build
// requires every key in every table), each of one kind, which says what it takes:
//   text    emoji names, languages, territories, scripts, date fields, "yesterday"…
//   plural  units with their counts, long and short: {count, plural, …}
//   select  relative times, past or future: {when, select, past {…} other {…}}, each a plural
//   number  "per" units: {n, number} par kilomètre
//   date    a date joined to a time: {date} à {time} (both formatted by the screen)
import { cldrLocale } from "./cldr.mjs";
import { countPatterns, dateAndTime, number, pastOrFuture, plain, plural } from "./icu.mjs";

/** What each kind of message takes, as a screen gives it: the argument names. */
export const ARGUMENTS = { text: [], plural: ["count"], select: ["when", "count"], number: ["n"], date: ["date", "time"] };

/** A key's segment from a CLDR identifier: letters, digits and `-` (emoji: their code points). */
const segment = (id) => id.replace(/[^A-Za-z0-9-]/g, "_");
const emojiKey = (emoji) => [...emoji].map((c) => c.codePointAt(0).toString(16)).join("-");

/** The messages CLDR gives one locale, by key: { kind, icu }. */
function messagesOf({ cldr, locale }) {
  const data = cldrLocale(cldr);
  const out = new Map();
  const add = (key, kind, icu) => icu && out.set(key, { kind, icu });
  for (const [emoji, { tts }] of Object.entries(data.annotations())) if (tts?.[0]) add(`emoji.${emojiKey(emoji)}`, "text", plain(tts[0]));
  for (const [code, name] of Object.entries(data.languages())) if (/^[a-z]{2,3}$/.test(code)) add(`languageName.${code}`, "text", plain(name));
  for (const [code, name] of Object.entries(data.territories())) if (/^([A-Z]{2}|\d{3})$/.test(code)) add(`territoryName.${code}`, "text", plain(name));
  for (const [code, name] of Object.entries(data.scripts())) if (/^[A-Z][a-z]{3}$/.test(code)) add(`scriptName.${code}`, "text", plain(name));
  for (const width of ["long", "short"]) {
    for (const [id, unit] of Object.entries(data.units(width))) {
      add(`unit.${segment(id)}.${width}`, "plural", plural(countPatterns(unit, "unitPattern-count-"), locale));
      if (width === "long") add(`unit.${segment(id)}.per`, "number", number(unit.perUnitPattern));
    }
  }
  for (const [id, field] of Object.entries(data.dateFields())) {
    add(`field.${segment(id)}`, "text", plain(field.displayName));
    for (const [type, words] of Object.entries(field)) {
      const offset = type.match(/^relative-type-(-?\d)$/)?.[1];
      if (offset !== undefined) add(`field.${segment(id)}.relative${offset.replace("-", "Minus")}`, "text", plain(words));
    }
    const past = countPatterns(field["relativeTime-type-past"], "relativeTimePattern-count-");
    const future = countPatterns(field["relativeTime-type-future"], "relativeTimePattern-count-");
    add(`field.${segment(id)}.relativeTime`, "select", pastOrFuture(past, future, locale));
  }
  for (const [length, join] of Object.entries(data.dateTimeJoins())) add(`dateTime.${length}`, "date", dateAndTime(join));
  return out;
}

/**
 * Every message CLDR has in all `languages` (the site's, the default first), in CLDR's
 * order: [{ key, kind, texts: { code: icu } }].
 */
export function cldrMessages(languages) {
  const [first, ...others] = languages.map(messagesOf);
  const messages = [];
  for (const [key, { kind, icu }] of first) {
    if (!others.every((other) => other.get(key)?.kind === kind)) continue;
    const texts = { [languages[0].code]: icu };
    others.forEach((other, i) => (texts[languages[i + 1].code] = other.get(key).icu));
    messages.push({ key, kind, texts });
  }
  return messages;
}

/** A territory's name, a language's name… in one language: the words of a route's title and path. */
export function namesOf({ cldr }) {
  const data = cldrLocale(cldr);
  const word = (pattern) => pattern?.replace("{0}", "").replace(/^[\s:：\u200e\u200f]+|[\s:：\u200e\u200f]+$/g, "");
  const patterns = data.codePatterns();
  return {
    territory: (code) => data.territories()[code],
    language: (code) => data.languages()[code],
    /** "Région : {0}", filled. */
    territoryPattern: (name) => patterns.territory?.replace("{0}", name),
    /** The word of a code pattern, "Langue" of "Langue : {0}": what a parameter's page is. */
    word: (kind) => word(patterns[kind]),
    localePattern: data.localePattern(),
    keyName: data.keyName,
  };
}
