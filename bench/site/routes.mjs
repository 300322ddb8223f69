// The site's routes: what each is, its path in every language, its title and description.
// Forty by default: the home page, the world (the real-size page: ~150 messages, a list of
// 100), the server's time zone (private: the server's time, from the API), three routes
// with parameters and data from the API (a territory, a language, and a locale: a
// language in a territory, the one with 100,000 values), and CLDR's macro-regions, each a
// route named by the region ("Europe du Nord": /fr/europe-du-nord, /en/northern-europe,
// /de/nordeuropa). A path is in the language's words where it writes in Latin letters,
// else in English (`slug`).
import { namesOf } from "./messages.mjs";
import { camelName, capitalised, slug } from "./slugs.mjs";

/** CLDR's macro-regions (and unions), in the order their routes are made. */
const REGIONS = ["002", "019", "142", "150", "009", "015", "011", "017", "014", "018", "202", "021", "003", "013", "029", "005", "419", "030", "143", "035", "034", "145", "151", "154", "039", "155", "053", "054", "057", "061", "QO", "EU", "EZ", "UN"];
const WORLD = "001";

/** The routes always made, before the regions. */
const FIXED = ["home", "world", "territory", "language", "locale", "timeZone"];
export const FEWEST_ROUTES = FIXED.length;

/**
 * The site's `count` routes in `languages` (the default first): [{ name, kind, paths:
 * { code: pattern }, title: { code: text }, description: { code: text }, region? }].
 */
export function planRoutes(languages, count) {
  if (count < FIXED.length || count > FIXED.length + REGIONS.length) {
    throw new Error(`--routes is between ${FIXED.length} and ${FIXED.length + REGIONS.length}`);
  }
  const names = Object.fromEntries(languages.map((language) => [language.code, namesOf(language)]));
  const english = namesOf({ cldr: "en" });
  /** One text per language, from what `text(names, code)` says each. */
  const each = (text) => Object.fromEntries(languages.map(({ code }) => [code, text(names[code], code)]));
  const locale = (code) => languages.find((l) => l.code === code).locale;
  const title = (text) => each((n, code) => capitalised(text(n, code), locale(code)));
  const joined = (n, a, b) => n.localePattern.replace("{0}", a).replace("{1}", b);
  /** A path's segment per language: the language's words, or English's. */
  const segments = (words) => each((n, code) => slug(words(n, code)) ?? slug(words(english, "en")));
  const world = (n) => n.territory(WORLD);

  const routes = [
    { name: "home", kind: "home", paths: each(() => "/"), titleKey: "site.name", title: each(() => "Bilingue"), description: each((n) => joined(n, "Bilingue", world(n))) },
    { name: "world", kind: "world", segments: segments(world), title: title(world), description: each((n) => n.territoryPattern(world(n))) },
    param("territory", { segments: segments((n) => n.word("territory")), params: ["code"], title: title((n) => n.word("territory")) }),
    param("language", { segments: segments((n) => n.word("language")), params: ["code"], title: title((n) => n.word("language")) }),
    param("locale", {
      segments: segments((n) => n.word("language")),
      second: segments((n) => n.word("territory")),
      params: ["language", "territory"],
      title: title((n) => joined(n, n.word("language"), n.word("territory"))),
    }),
    { name: "timeZone", kind: "timeZone", segments: segments((n) => n.keyName("timezone")), title: title((n) => n.keyName("timezone")), description: each((n) => joined(n, n.keyName("timezone"), world(n))) },
    ...REGIONS.slice(0, count - FIXED.length).map((region) => ({
      name: camelName(english.territory(region)),
      kind: "region",
      region,
      segments: segments((n) => n.territory(region)),
      title: title((n) => n.territory(region)),
      description: each((n) => n.territoryPattern(n.territory(region))),
    })),
  ];
  function param(name, { segments: first, second, params, title: titled }) {
    const paths = each((_, code) => (second ? `/${first[code]}/:${params[0]}/${second[code]}/:${params[1]}` : `/${first[code]}/:${params[0]}`));
    return { name, kind: name, paths, params, title: titled, description: each((n, code) => joined(n, titled[code], world(n))) };
  }
  for (const route of routes) {
    route.paths ??= Object.fromEntries(Object.entries(route.segments).map(([code, segment]) => [code, `/${segment}`]));
    route.titleKey ??= `route.${route.name}.title`;
    route.descriptionKey = `route.${route.name}.description`;
  }
  separate(routes, languages);
  return routes;
}

/**
 * No two routes share a path in any pair of languages, and none starts with a language
 * code (the build refuses both): a clash in one language takes the English words there,
 * then English's with the route's name.
 */
function separate(routes, languages) {
  const codes = new Set(languages.map(({ code }) => code));
  const shape = (pattern) => pattern.replace(/\/:[^/]*/g, "/:");
  const owner = new Map();
  for (const route of routes) {
    for (const { code } of languages) {
      const taken = (pattern) => (owner.has(shape(pattern)) && owner.get(shape(pattern)) !== route.name) || codes.has(pattern.split("/")[1]);
      if (taken(route.paths[code])) route.paths[code] = route.paths.en ?? route.paths[languages[0].code];
      if (taken(route.paths[code])) route.paths[code] = route.paths[code].replace(/^\/[^/]+/, (first) => `${first}-${route.name.toLowerCase()}`);
      owner.set(shape(route.paths[code]), route.name);
    }
  }
}
