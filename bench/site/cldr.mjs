// Reads CLDR's JSON packages (devDependencies, pinned) for one locale. A locale is read
// through its chain: itself, its parent by CLDR's parentLocales (cldr-core), then its
// language, so that a regional variant (fr-CA, en-GB → en-001 → en) added later finds its
// own words where CLDR has them and its parent's elsewhere, as CLDR means it.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const packageDir = (name) => path.dirname(require.resolve(`${name}/package.json`));

const json = (file) => JSON.parse(readFileSync(file, "utf8"));
const parents = json(path.join(packageDir("cldr-core"), "supplemental/parentLocales.json")).supplemental.parentLocales.parentLocale;

/** The locales `id` is read through, most specific first: `en-GB` → en-GB, en-001, en. */
export function cldrChain(id) {
  const chain = [id];
  for (let at = id; ; ) {
    const parent = parents[at] ?? (at.includes("-") ? at.slice(0, at.lastIndexOf("-")) : null);
    if (!parent || parent === "root") return chain;
    chain.push(parent);
    at = parent;
  }
}

/** One CLDR locale's data, read through its chain; each getter gives undefined where CLDR has nothing. */
export function cldrLocale(id) {
  const chain = cldrChain(id);
  const files = new Map();
  /** The `main` data of `file` in package `pkg` for each locale of the chain that has it. */
  const layers = (pkg, file) => {
    const at = `${pkg}/${file}`;
    if (!files.has(at)) {
      files.set(
        at,
        chain
          .map((locale) => {
            const full = path.join(packageDir(pkg), pkg === "cldr-annotations-full" ? "annotations" : "main", locale, `${file}.json`);
            if (!existsSync(full)) return null;
            const data = json(full);
            return pkg === "cldr-annotations-full" ? data.annotations : data.main[locale];
          })
          .filter(Boolean),
      );
    }
    return files.get(at);
  };
  /** The first locale of the chain's value at `pick(layer)`. */
  const first = (pkg, file, pick) => {
    for (const layer of layers(pkg, file)) {
      const value = pick(layer);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  /**
   * Every key of `pick(layer)` along the chain, each with the first value found; a value that
   * is an object is merged too (a variant's layer says only the fields it changes: fr-CA's
   * annotation of an emoji may hold its keywords and not its name).
   */
  const merged = (pkg, file, pick) => {
    const out = {};
    for (const layer of layers(pkg, file).map((layer) => pick(layer) ?? {}).reverse()) {
      for (const [key, value] of Object.entries(layer)) {
        const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
        out[key] = isObject(value) && isObject(out[key]) ? { ...out[key], ...value } : value;
      }
    }
    return out;
  };
  const names = (kind) => merged("cldr-localenames-full", kind, (layer) => layer.localeDisplayNames[kind]);
  return {
    id,
    /** Emoji by code point sequence: { tts: [name], default: [keywords] }. */
    annotations: () => merged("cldr-annotations-full", "annotations", (layer) => layer.annotations),
    languages: () => names("languages"),
    territories: () => names("territories"),
    scripts: () => names("scripts"),
    /** `language`, `script`, `territory`: "Langue : {0}". */
    codePatterns: () => merged("cldr-localenames-full", "localeDisplayNames", (layer) => layer.localeDisplayNames.codePatterns),
    /** "{0} ({1})". */
    localePattern: () => first("cldr-localenames-full", "localeDisplayNames", (layer) => layer.localeDisplayNames.localeDisplayPattern?.localePattern),
    /** What a key such as `timezone` is called: "fuseau horaire". */
    keyName: (key) => first("cldr-localenames-full", "localeDisplayNames", (layer) => layer.localeDisplayNames.keys?.[key]),
    /** A unit of a width: { displayName, "unitPattern-count-one": "{0} kilomètre", …, perUnitPattern }. */
    units: (width) => merged("cldr-units-full", "units", (layer) => layer.units[width]),
    /** Date fields by name (`day`, `day-short`): displayName, relative-type-*, relativeTime-type-*. */
    dateFields: () => merged("cldr-dates-full", "dateFields", (layer) => layer.dates.fields),
    /** How a date and a time are joined, by length: { full: "{1} 'à' {0}", … }, and with "at". */
    dateTimeJoins: () => {
      const gregorian = (layer) => layer.dates.calendars.gregorian;
      const plain = first("cldr-dates-full", "ca-gregorian", (layer) => gregorian(layer).dateTimeFormats);
      const atTime = first("cldr-dates-full", "ca-gregorian", (layer) => gregorian(layer)["dateTimeFormats-atTime"]?.standard);
      const lengths = ["full", "long", "medium", "short"];
      return {
        ...Object.fromEntries(lengths.map((length) => [length, plain?.[length]])),
        ...Object.fromEntries(lengths.map((length) => [`atTime-${length}`, atTime?.[length]])),
      };
    },
  };
}
