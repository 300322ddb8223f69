// CLDR's patterns made ICU messages the catalogue takes (docs/translations.md): text
// quoted where ICU would read it (an apostrophe, a brace, `#` in a plural), a plural with
// a case for every category of the language (Intl's, as the catalogue checks them; a
// category CLDR leaves out takes `other`'s words), CLDR's {0} made `#`, `{n, number}` or
// a named argument. A text that would be a tag (`<`) is no message: null, and the key is
// left out of every language.

/** `text` quoted for ICU: outside a plural (`inPlural`: inside one, where `#` is the number too). */
export function quoted(text, inPlural = false) {
  let out = text.replaceAll("'", "''").replace(/[{}]/g, (brace) => `'${brace}'`);
  if (inPlural) out = out.replaceAll("#", "'#'");
  return out;
}

const taglike = (text) => /[<>]/.test(text);

/** A plain message: CLDR's text as it is. */
export const plain = (text) => (typeof text === "string" && text.trim() !== "" && !taglike(text) ? quoted(text) : null);

/** The pattern `pattern` ("{0} par jour") with its {0} written `number` and the rest quoted; null without a {0}. */
function filled(pattern, number, inPlural) {
  if (typeof pattern !== "string" || taglike(pattern)) return null;
  const parts = pattern.split("{0}");
  if (parts.length !== 2 || /\{\d\}/.test(parts.join(""))) return null;
  return parts.map((part) => quoted(part, inPlural)).join(number);
}

/**
 * `{count, plural, one {# kilomètre} other {# kilomètres}}` from CLDR's count patterns
 * (`{ one: "{0} kilomètre", other: "{0} kilomètres" }`), for `locale`'s categories.
 * A case whose pattern lacks {0} is written as its words alone (Arabic's "one" may be).
 */
export function plural(patterns, locale, argument = "count") {
  if (typeof patterns.other !== "string") return null;
  const cases = [];
  for (const category of new Intl.PluralRules(locale).resolvedOptions().pluralCategories) {
    const pattern = patterns[category] ?? patterns.other;
    const text = pattern.includes("{0}") ? filled(pattern, "#", true) : typeof pattern === "string" && !taglike(pattern) ? quoted(pattern, true) : null;
    if (text === null) return null;
    cases.push(`${category} {${text}}`);
  }
  // `other` last, as translators expect it.
  cases.sort((a, b) => (a.startsWith("other ") ? 1 : 0) - (b.startsWith("other ") ? 1 : 0));
  return `{${argument}, plural, ${cases.join(" ")}}`;
}

/** CLDR's count patterns of an object (`unitPattern-count-one`, `relativeTimePattern-count-few`) by category. */
export const countPatterns = (object, prefix) =>
  Object.fromEntries(
    Object.entries(object ?? {})
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key.slice(prefix.length), value]),
  );

/** `{n, number} par kilomètre` from "{0} par kilomètre". */
export const number = (pattern) => filled(pattern, "{n, number}", false);

/**
 * `{when, select, past {…} other {…}}`, each case a plural: CLDR's relative time, "il y a
 * 3 jours" and "dans 3 jours", one message.
 */
export function pastOrFuture(past, future, locale) {
  const [before, after] = [plural(past, locale), plural(future, locale)];
  return before && after ? `{when, select, past {${before}} other {${after}}}` : null;
}

/**
 * "{date} à {time}" from CLDR's join of a date and a time ("{1} 'à' {0}"): its quoted
 * literals unquoted (date patterns quote with apostrophes too), then quoted for ICU.
 */
export function dateAndTime(pattern) {
  if (typeof pattern !== "string" || !pattern.includes("{0}") || !pattern.includes("{1}") || taglike(pattern)) return null;
  const literal = pattern.replace(/'([^']*)'/g, (_, text) => (text === "" ? "'" : text));
  return literal
    .split(/(\{[01]\})/)
    .map((part) => (part === "{0}" ? "{time}" : part === "{1}" ? "{date}" : quoted(part)))
    .join("");
}
