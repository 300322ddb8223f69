// A route's path segment in a language's words: CLDR's name folded to ASCII ("Europe du
// Nord" → europe-du-nord, "Nordeuropa", "Bắc Âu" → bac-au) for a language written in the
// Latin script; null for another script, whose route then takes the English words (URLs
// in ASCII, as many sites write them).
const FOLDED = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ł: "l", ı: "i", þ: "th", ð: "d" };
const LATIN = /^[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]+$/u;

export function slug(text) {
  if (typeof text !== "string" || !LATIN.test(text)) return null;
  const folded = text
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[ßæœøđłıþð]/g, (c) => FOLDED[c])
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return folded === "" ? null : folded;
}

/** `text` with its first letter a capital, as a title starts in `locale` (no change for scripts without case). */
export const capitalised = (text, locale) => {
  const [first, ...rest] = text;
  return first.toLocaleUpperCase(locale) + rest.join("");
};

/** "camelCase" of an English name: a route's name (its purge key is route-<name>). */
export const camelName = (english) =>
  slug(english)
    .split("-")
    .map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1)))
    .join("");
