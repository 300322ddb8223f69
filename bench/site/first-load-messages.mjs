// The site's messages that are not a screen's own: the framework's (the keys the kept
// parts of the app name, and the host's), the site's name, the not-found page, and each
// route's title and description (from CLDR: bench/site/routes.mjs). The framework's texts
// are the app's own in French and English, bench/site/first-load-texts.mjs's in the other languages,
// and "Language" is CLDR's word for it; a key neither has (one the app added since) takes
// the app's English there, and the build says so.
import { namesOf } from "./messages.mjs";
import { quoted } from "./icu.mjs";
import { FIRST_LOAD_TEXTS } from "./first-load-texts.mjs";
import { capitalised } from "./slugs.mjs";

/** [{ key, kind: "first-load", texts: { code: icu } }] for `languages`. */
export function firstLoadMessages({ languages, routes, keys, appFr, appEn }) {
  const missing = new Set();
  const text = (key, { code, locale, ...language }) => {
    // A variant's framework texts are its parent's (its table keeps only what differs).
    const parent = languages.find((other) => other.code === language.parent);
    if (parent) return text(key, parent);
    if (code === "fr" && appFr[key] !== undefined) return appFr[key];
    if (code === "en" && appEn[key] !== undefined) return appEn[key];
    // A framework text with arguments keeps the app's, whose arguments every language must take.
    const own = /[{}]/.test(appFr[key] ?? "") ? undefined : FIRST_LOAD_TEXTS[code]?.[key];
    if (own !== undefined) return quoted(own);
    if (key === "language.label") return quoted(capitalised(namesOf({ code, locale, ...language }).word("language"), locale));
    missing.add(key);
    return appEn[key] ?? appFr[key];
  };
  const each = (key) => ({ key, kind: "first-load", texts: Object.fromEntries(languages.map((language) => [language.code, text(key, language)])) });
  const fixed = (key, value) => ({ key, kind: "first-load", texts: Object.fromEntries(languages.map(({ code }) => [code, value(code)])) });
  const messages = [
    ...keys.map(each),
    fixed("site.name", () => "Bilingue"),
    each("notFound.title"),
    each("notFound.text"),
    ...routes.flatMap((route) => [
      ...(route.titleKey === "site.name" ? [] : [fixed(route.titleKey, (code) => quoted(route.title[code]))]),
      fixed(route.descriptionKey, (code) => quoted(route.description[code])),
    ]),
  ];
  if (missing.size > 0) console.warn(`bench/site: no translation of ${[...missing].join(", ")} in bench/site/first-load-texts.mjs: the app's English stands in`);
  return messages;
}
