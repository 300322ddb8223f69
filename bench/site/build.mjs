// The real-size site: a copy of the app whose routes, screens, languages and tables are
// generated from CLDR's text, built by the copy's own `node app/build.mjs` into a build
// folder the binary serves with `--app-build DIR`. bench/site/README.md says what it is.
//
//   node bench/site/build.mjs DIR                 the full site: 30 languages, every message
//                                                 CLDR has in all of them, 40 routes, 100,000
//                                                 locale pages
//   node bench/site/build.mjs DIR --small         a small one, for smoke tests
//   options: --languages N, --messages N (keys in each table), --routes N, --values N (the
//            locale pages), --keep-source DIR (the generated app, to read or type-check),
//            --check-types (tsc --noEmit on it)
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { importAlone } from "../../app/bundling/import-alone.mjs";
import { assignMessages } from "./assign.mjs";
import { copyApp, frameworkKeys, frameworkOf, removeAppsOwn } from "./copy.mjs";
import { dateFnsExport, SITE_LANGUAGES } from "./languages.mjs";
import { cldrMessages, namesOf } from "./messages.mjs";
import { FEWEST_ROUTES, planRoutes } from "./routes.mjs";
import { componentName, dataScreen, notFoundScreen, staticScreen } from "./screens.mjs";
import { shellMessages } from "./shell-messages.mjs";
import { capitalised } from "./slugs.mjs";
import { languagesSource, mostLocales, routesSource, tableSource, valuesSource } from "./sources.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SMALL = { languages: "3", messages: "300", routes: "8", values: "300" };
const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    small: { type: "boolean" },
    languages: { type: "string" },
    messages: { type: "string" },
    routes: { type: "string" },
    values: { type: "string" },
    "keep-source": { type: "string" },
    "check-types": { type: "boolean" },
  },
});
const number = (name, fallback) => {
  const given = options[name] ?? (options.small ? SMALL[name] : undefined);
  if (given === undefined) return fallback;
  if (!/^\d+$/.test(given)) throw new Error(`--${name} takes a whole number, not ${given}`);
  return Number(given);
};
if (positionals.length !== 1) {
  console.error("usage: node bench/site/build.mjs DIR [--small] [--languages N] [--messages N] [--routes N] [--values N] [--keep-source DIR] [--check-types]");
  process.exit(2);
}
const outDir = path.resolve(positionals[0]);
const languages = SITE_LANGUAGES.slice(0, Math.max(1, number("languages", SITE_LANGUAGES.length)));
const routeCount = number("routes", 40);
const started = performance.now();
const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);

// The text: CLDR's messages in every language, the routes, who uses what.
const cldr = cldrMessages(languages);
const routes = planRoutes(languages, Math.max(FEWEST_ROUTES, routeCount));
const source = options["keep-source"] ? path.resolve(options["keep-source"]) : await mkdtemp(path.join(os.tmpdir(), "bilingue-site-"));
await rm(source, { recursive: true, force: true });
await mkdir(source, { recursive: true });
await copyApp(root, source);
const { kept, screens } = await frameworkOf(source);
await removeAppsOwn(source, screens);
const appTable = async (code) => (await importAlone(root, path.join(root, `app/i18n/tables/${code}.ts`))).module.default;
const [appFr, appEn] = await Promise.all([appTable("fr"), appTable("en")]);
const shell = shellMessages({ languages, routes, keys: await frameworkKeys(source, kept, appFr), appFr, appEn });
const content = assignMessages(routes, cldr, Math.max(0, number("messages", Infinity) - shell.length));
const messages = [...shell, ...content];

// The site's files, in the copy.
const codes = (prefix, form, unwanted) =>
  cldr.filter(({ key }) => key.startsWith(prefix)).map(({ key }) => key.slice(prefix.length)).filter((code) => form.test(code) && !unwanted.includes(code));
const territories = codes("territoryName.", /^[A-Z]{2}$/, ["ZZ"]);
const languageCodes = codes("languageName.", /^[a-z]{2,3}$/, ["und", "zxx", "mul"]);
const localeValues = Math.min(number("values", 100_000), mostLocales(territories, languageCodes));
const write = (file, text) => writeFile(path.join(source, file), text);
await write("app/routes.ts", routesSource(routes, localeValues));
await write("app/ui/siteValues.ts", valuesSource(territories, languageCodes));
for (const route of routes) await write(`app/ui/${componentName(route)}.tsx`, ["territory", "language", "locale", "timeZone"].includes(route.kind) ? dataScreen(route) : staticScreen(route, routes));
await write("app/ui/NotFound.tsx", notFoundScreen());
const declared = JSON.parse(await readFile(path.join(root, "app/i18n/languages.json"), "utf8"));
const ownNames = Object.fromEntries(languages.map((language) => {
  const names = namesOf(language);
  return [language.code, capitalised(names.language(language.code) ?? names.language(language.cldr), language.locale)];
}));
await write("app/i18n/languages.json", languagesSource(languages, ownNames, declared.cookie));
await mkdir(path.join(source, "app/i18n/tables"));
for (const language of languages) {
  const table = messages.map(({ key, texts }) => [key, texts[language.code]]);
  await write(`app/i18n/tables/${language.code}.ts`, tableSource(language, languages[0].code, table, { dateFns: language.dateFns, dateFnsName: dateFnsExport(language.dateFns) }));
}
const generated = seconds(started);

// The copy's own build: the catalogue's declarations (t() is typed from them), then the bundles.
const spawnChecked = (args) => {
  const result = spawnSync(process.execPath, args, { cwd: source, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0) throw Object.assign(new Error("failed"), result);
  return result;
};
const run = (args, what) => {
  const at = performance.now();
  try {
    const { stderr } = spawnChecked(args);
    // The catalogue's and the build's warnings, shown as a build shows them.
    if (stderr.length > 0) process.stderr.write(stderr);
  } catch (error) {
    throw new Error(`${what} failed in ${source}:\n${error.stdout}\n${error.stderr}`);
  }
  return seconds(at);
};
const catalogueSeconds = run(["app/bundling/catalogue.mjs"], "the catalogue");
const buildSeconds = run(["app/build.mjs", outDir], "the build");
const tscSeconds = options["check-types"] ? run([path.join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "."], "the type check") : null;
if (!options["keep-source"]) await rm(source, { recursive: true, force: true });

const sizeOf = async (dir) => {
  let bytes = 0;
  for (const file of await readdir(dir, { recursive: true })) {
    const info = await stat(path.join(dir, file));
    if (info.isFile()) bytes += info.size;
  }
  return bytes;
};
const figures = {
  languages: languages.length,
  messagesPerLanguage: messages.length,
  withPluralOrSelect: messages.filter(({ kind }) => kind === "plural" || kind === "select").length,
  routes: routes.length,
  localeValues,
  sitemapPages: routes.length - 4 + territories.length + languageCodes.length + localeValues,
  seconds: { generate: Number(generated), catalogue: Number(catalogueSeconds), build: Number(buildSeconds), typeCheck: tscSeconds && Number(tscSeconds), total: Number(seconds(started)) },
  bytes: { build: await sizeOf(outDir), manifest: (await stat(path.join(outDir, "manifest.json"))).size },
  source: options["keep-source"] ? source : null,
};
console.log(JSON.stringify(figures));
