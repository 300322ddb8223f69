// A date-fns locale as the app's bundles carry it: what formatting needs (its words and long
// formats) and nothing more. The app only formats (app/i18n/dates.ts), with the tokens
// y M L d E a h H m s z, so a locale's parsing and distance code is left out, and of its
// `localize` what those tokens never ask for: the era and the quarter, and of the day
// periods all but am and pm (`midnight`, `morning`… are asked by the tokens b and B).
// On the real-size site each language's module, in every page's first load, is 0.1 to
// 0.2 KB of gzip lighter (Ukrainian: 2,395 → 2,176 B). A locale's module of another shape
// is bundled as it is.
import { readFile } from "node:fs/promises";
import { parse } from "acorn";
import { withEdits } from "./source-edits.mjs";

/** The parts of a locale the app never calls (its index module's properties). */
const UNUSED_LOCALE_PARTS = ["formatDistance", "formatRelative", "match"];
/** The functions of a locale's `localize` the app never calls. */
const UNUSED_LOCALIZE = ["era", "quarter"];
/** The day periods the app asks for (the token `a`). */
const DAY_PERIODS = ["am", "pm"];

/** A locale's index module without its parsing and distance parts; null when it is of another shape. */
export function formattingLocaleIndex(source) {
  let written = source;
  for (const part of UNUSED_LOCALE_PARTS) {
    written = written.replace(new RegExp(`^import \\{ ${part} \\} from "\\./[\\w-]+/_lib/${part}\\.js";\\n`, "m"), "").replace(new RegExp(`^  ${part}: ${part},\\n`, "m"), "");
  }
  return UNUSED_LOCALE_PARTS.some((part) => new RegExp(`\\b${part}\\b`).test(written)) ? null : written;
}

/** The name a property is written with, or null. */
const nameOf = (property) => (property.type === "Property" && !property.computed ? (property.key.name ?? property.key.value ?? null) : null);

/** `{ … }` written again from `node`'s properties that `keep` keeps, each as `source` writes it. */
const objectKeeping = (source, node, keep) => `{ ${node.properties.filter(keep).map((property) => source.slice(property.start, property.end)).join(", ")} }`;

/**
 * A locale's `_lib/localize.js` without what the app never asks for: `export const localize
 * = { … }` without its era and quarter, and the day periods' values (the objects its
 * `dayPeriod` names) with am and pm alone. Null when it is of another shape.
 */
export function formattingLocalize(source) {
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  const declared = new Map();
  let localize = null;
  for (const statement of program.body) {
    const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
    if (declaration?.type !== "VariableDeclaration") continue;
    for (const { id, init } of declaration.declarations) {
      if (id.type !== "Identifier" || init?.type !== "ObjectExpression") continue;
      if (id.name === "localize" && statement.type === "ExportNamedDeclaration") localize = init;
      else declared.set(id.name, init);
    }
  }
  if (!localize || !UNUSED_LOCALIZE.every((name) => localize.properties.some((property) => nameOf(property) === name))) return null;
  const edits = [{ start: localize.start, end: localize.end, text: objectKeeping(source, localize, (property) => !UNUSED_LOCALIZE.includes(nameOf(property))) }];
  const dayPeriod = localize.properties.find((property) => nameOf(property) === "dayPeriod")?.value;
  const options = dayPeriod?.type === "CallExpression" ? dayPeriod.arguments[0] : null;
  if (options?.type !== "ObjectExpression") return null;
  for (const property of options.properties) {
    if (!["values", "formattingValues"].includes(nameOf(property))) continue;
    const values = property.value.type === "Identifier" ? declared.get(property.value.name) : null;
    // Each width's periods: { am: "…", pm: "…", midnight: "…", … }.
    const widths = values?.properties.map((width) => width.value);
    if (!widths?.every((periods) => periods?.type === "ObjectExpression" && DAY_PERIODS.every((period) => periods.properties.some((p) => nameOf(p) === period)))) return null;
    for (const periods of widths) edits.push({ start: periods.start, end: periods.end, text: objectKeeping(source, periods, (p) => DAY_PERIODS.includes(nameOf(p))) });
  }
  return withEdits(source, edits);
}

/** The bundles' plugin: each date-fns locale as formatting needs it, for both bundles. */
export function formattingDateLocales() {
  return {
    name: "formatting-date-locales",
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]date-fns[\\/]locale[\\/][\w-]+\.js$/ }, async (args) => {
        const contents = formattingLocaleIndex(await readFile(args.path, "utf8"));
        return contents === null ? undefined : { contents, loader: "js" };
      });
      b.onLoad({ filter: /[\\/]node_modules[\\/]date-fns[\\/]locale[\\/][\w-]+[\\/]_lib[\\/]localize\.js$/ }, async (args) => {
        const contents = formattingLocalize(await readFile(args.path, "utf8"));
        return contents === null ? undefined : { contents, loader: "js" };
      });
    },
  };
}
