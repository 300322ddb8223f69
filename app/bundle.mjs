// How the app is bundled, shared by the one-shot build (app/build.mjs, run by build.rs)
// and the development loop (app/dev.mjs):
//   OUT/server.js      the server bundle, a script V8 runs once per render thread
//   OUT/assets/…       the client: an ES module entry, one chunk per language (its table
//                      and date locale), shared chunks, CSS; names carry a content hash.
//                      A production build joins the first load's chunks into the entry
//                      (app/bundling/first-load-chunk.mjs)
//   OUT/manifest.json  what the host needs: the document's files, the languages, each
//                      route's path in every language, the sitemap's pages (each once, by
//                      its parameters), the crawler list, the build time, the host's own
//                      texts in each language
// In development the bundles are not minified, carry source maps, use React's development
// build, and the client gets one more entry: the reload-and-overlay script; with `--pseudo`
// the languages get their pseudo-languages too (app/bundling/pseudo-languages.mjs).
import { build } from "esbuild";
import { crawlerRules } from "./bundling/crawlers.mjs";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { catalogue, checkAppCatalogue } from "./bundling/catalogue.mjs";
import { formattingDateLocales } from "./bundling/date-locales.mjs";
import { importAlone } from "./bundling/import-alone.mjs";
import { reactBindings } from "./bundling/react-bindings.mjs";
import { reactModules } from "./bundling/react-modules.mjs";
import { stringFizz } from "./bundling/string-fizz.mjs";
import { clientGraph, groupsJson, keysNamedIn, messageGroups, routeScreens } from "./bundling/message-groups.mjs";
import { messageIds, messageIdsPlugin, rewritten } from "./bundling/message-ids.mjs";
import { routeMessagesModule } from "./bundling/message-modules.mjs";
import { languagePatterns, routePathsPlugin, splitRoutes } from "./bundling/route-paths.mjs";
import { pseudoLanguagesPlugin, pseudoMessages, withPseudoHostTexts, withPseudoLanguages } from "./bundling/pseudo-languages.mjs";

/**
 * In the server bundle, the modules it takes in place of those the browser gets, by who
 * imports them and how (bundling/server-substitutes.json): the shared HTTP client's
 * transport is the host there (app/server/transport.ts). The import cycle test
 * (app/test/importCycles.test.ts) counts these as imports too.
 */
function serverSubstitutes(root) {
  const substitutes = JSON.parse(readFileSync(path.join(root, "app/bundling/server-substitutes.json"), "utf8"));
  const specifiers = substitutes.map(({ specifier }) => specifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return {
    name: "server-substitutes",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(?:${specifiers.join("|")})$`) }, (args) => {
        const substitute = substitutes.find(({ importer, specifier }) => args.importer === path.join(root, importer) && args.path === specifier);
        return substitute ? { path: path.join(root, substitute.path) } : undefined;
      });
    },
  };
}

/** The one list of languages. */
export async function readLanguages(root) {
  return JSON.parse(await readFile(path.join(root, "app/i18n/languages.json"), "utf8"));
}

/** Every listed language needs its direction, and its table (with its date locale), found by name. */
export async function checkLanguages(root, languages) {
  const list = languages.languages;
  const codes = list.map(({ code }) => code);
  for (const { code, parent } of list) {
    if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(code)) {
      throw new Error(`app/i18n/languages.json: "${code}" is not a language tag (BCP 47: fr, fr-CA, pt-BR, zh-Hant)`);
    }
    if (codes.filter((other) => other.toLowerCase() === code.toLowerCase()).length > 1) throw new Error(`app/i18n/languages.json: "${code}" is listed twice`);
    if (parent === undefined) continue;
    if (!codes.includes(parent)) throw new Error(`app/i18n/languages.json: "${code}" names the parent "${parent}", which is not one of the languages`);
    if (code === languages.default) throw new Error(`app/i18n/languages.json: the default "${code}" has a parent: every message is its own, and the others fall back to it`);
    const seen = new Set([code]);
    for (let at = parent; at !== undefined; at = list.find((language) => language.code === at)?.parent) {
      if (seen.has(at)) throw new Error(`app/i18n/languages.json: "${code}" is its own parent, through its parents`);
      seen.add(at);
    }
  }
  for (const { code, direction } of list) {
    if (direction !== "ltr" && direction !== "rtl") {
      throw new Error(`app/i18n/languages.json: "${code}" needs "direction": "ltr" or "rtl" (which way its text runs), not ${JSON.stringify(direction)}`);
    }
    const file = `app/i18n/tables/${code}.ts`;
    try {
      await readFile(path.join(root, file));
    } catch {
      throw new Error(`app/i18n/languages.json lists "${code}", but ${file} is missing (see "Add a language" in docs/pages-and-languages.md)`);
    }
  }
}

/**
 * The languages a build serves: the list, and with `pseudo` (development builds) its
 * pseudo-languages too (`checkLanguages` is for the list: a pseudo-language has no table).
 */
export const builtLanguages = (root, languages, pseudo) => (pseudo ? withPseudoLanguages(root, languages) : languages);

/** esbuild's options for the two bundles; `pseudo` (development only): with the pseudo-languages of `languages`, the list. */
export async function bundleOptions({ root, outDir, dev, buildTime, languages, pseudo = false }) {
  const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
  const shared = {
    absWorkingDir: root,
    bundle: true,
    minify: !dev,
    sourcemap: dev ? "linked" : false,
    target: "es2022",
    jsx: "automatic",
    legalComments: "none",
    logLevel: "silent",
    define: {
      "process.env.NODE_ENV": JSON.stringify(dev ? "development" : "production"),
      BILINGUE_VERSION: JSON.stringify(pkg.version),
      BILINGUE_BUILD_TIME: String(buildTime),
    },
  };
  const listed = languages ?? (await readLanguages(root));
  const pseudoLanguages = dev && pseudo ? [pseudoLanguagesPlugin(root, listed)] : [];
  // Which page needs which messages, and each language's route paths: set by the caller
  // before each build (`messageGroupsOf`); the built languages are what the paths resolve in.
  const split = {
    groups: null,
    routePatterns: null,
    // The keys' ids (./bundling/message-ids.mjs), set with the groups in production.
    messageIds: null,
    writesMessageIds: !dev,
    languages: await builtLanguages(root, listed, dev && pseudo),
    pseudo: dev && pseudo ? pseudoMessages(root, listed) : null,
  };
  const side = (name) => ({
    side: name,
    pseudo: split.pseudo,
    get groups() {
      return split.groups;
    },
    get routePatterns() {
      return split.routePatterns;
    },
    get messageIds() {
      return split.messageIds;
    },
  });
  const server = {
    ...shared,
    entryPoints: ["app/server.tsx"],
    outfile: path.join(outDir, "server.js"),
    format: "iife",
    platform: "browser",
    define: { ...shared.define, BILINGUE_SERVER: "true" },
    loader: { ".css": "empty" },
    plugins: [...pseudoLanguages, catalogue(root, side("server")), serverSubstitutes(root), stringFizz(root, dev), reactBindings(root), formattingDateLocales()],
  };
  const client = {
    ...shared,
    entryPoints: dev ? ["app/client.tsx", "app/dev/client.ts"] : ["app/client.tsx"],
    outdir: path.join(outDir, "assets"),
    define: { ...shared.define, BILINGUE_SERVER: "false" },
    format: "esm",
    platform: "browser",
    // Module scripts are UTF-8 by definition, and "é" is shorter than "\\xE9".
    charset: "utf8",
    splitting: true,
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    metafile: true,
    // Development keeps React's development files, whole.
    plugins: [
      ...pseudoLanguages,
      catalogue(root, side("client")),
      routePathsPlugin(root, side("client")),
      messageIdsPlugin(root, side("client")),
      formattingDateLocales(),
      ...(dev ? [] : [reactModules(root)]),
    ],
  };
  return { server, client, split };
}

/**
 * Which page needs which messages (bundling/message-groups.mjs), for the builds of
 * `options` (bundleOptions'), which it sets them for: from the client's module graph
 * (`inputs`, esbuild's metafile's, when a client build has made it; else from a build of
 * the graph alone), the routes' screens and the catalogue's keys; each language's route
 * patterns with them. Whether either changed (a build made before is then out of date).
 */
export async function messageGroupsOf(root, options, inputs = null) {
  const [graph, { routes, notFound }, checked] = await Promise.all([inputs ?? clientGraph(options.client), screensOf(root), checkAppCatalogue(root)]);
  const before = options.split.groups && JSON.stringify(groupsJson(options.split.groups));
  const patternsBefore = JSON.stringify(options.split.routePatterns);
  // A catalogue that fails its check: the builds report it, each error with its file and line.
  const [first] = checked.errors.length > 0 ? [] : checked.messages.values();
  options.split.groups = first ? await messageGroups({ root, inputs: graph, routes, notFound, keys: new Set(first.keys()) }) : null;
  options.split.routePatterns = options.split.groups ? await routePatternsOf(root, options.split.languages) : null;
  options.split.messageIds = options.split.groups && options.split.writesMessageIds ? messageIds(first.keys(), await namedKeysKept(root, graph, [...routes, notFound], new Set(first.keys()))) : null;
  // A route's path edited changes no group, but its words in the language modules.
  const groupsChanged = (options.split.groups && JSON.stringify(groupsJson(options.split.groups))) !== before;
  return groupsChanged || JSON.stringify(options.split.routePatterns) !== patternsBefore;
}

/**
 * Each language's patterns of the routes whose paths the client build splits (./bundling/
 * route-paths.mjs); null when the routes fail their check (the manifest's writing reports
 * it): the paths then stay in the first load, as written.
 */
async function routePatternsOf(root, languages) {
  // A routes file the split cannot read is the build's error, not a silent first load.
  const { routes: split, written } = await splitRoutes(root);
  let routes;
  try {
    ({ routes } = await routesOf(root, languages));
  } catch {
    return null;
  }
  return languagePatterns(split, routes, written);
}

/**
 * The keys that keep their names in a production client (./bundling/message-ids.mjs): those
 * the routes declare as built at run time, and those named in a file of the client's graph
 * under app/ that the ids' plugin does not rewrite (JavaScript, JSON…).
 */
async function namedKeysKept(root, graph, routes, keys) {
  const kept = new Set(routes.flatMap((route) => route.builtAtRunTime));
  for (const file of Object.keys(graph)) {
    if (!file.startsWith("app/") || rewritten(file) || file.startsWith("app/i18n/tables/")) continue;
    for (const key of keysNamedIn(await readFile(path.join(root, file), "utf8"), keys)) kept.add(key);
  }
  return kept;
}

/** The files of the routes' screens loaded when needed (`lazy(() => import(…))`). */
export async function lazyScreenFiles(root) {
  const { routes } = await screensOf(root);
  return routes.map(({ screenFile }) => screenFile).filter((file) => file !== null);
}

/** The routes' screens, read again only when app/routes.ts changes. */
const screens = { source: null, read: null };
async function screensOf(root) {
  const source = `${root}\n${await readFile(path.join(root, "app/routes.ts"), "utf8")}`;
  if (source !== screens.source) {
    screens.read = await routeScreens(root);
    screens.source = source;
  }
  return screens.read;
}

/**
 * What app/routes.ts declares (each route's path in every language, and the sitemap's pages
 * by their parameters), imported again only when the file or the languages change.
 */
const declaredRoutes = { source: null, routes: null };
async function routesOf(root, languages) {
  const file = path.join(root, "app/routes.ts");
  const source = (await readFile(file, "utf8")) + JSON.stringify(languages);
  if (source !== declaredRoutes.source) {
    // The checks refuse a route the host could not serve as declared (app/data/routeCheck.ts).
    const [{ module: routes }, { module: checks }] = await Promise.all([importAlone(root, file), importAlone(root, path.join(root, "app/data/routeCheck.ts"))]);
    declaredRoutes.routes = checks.checkRoutes(await checks.listedPages(routes.ROUTES), routes.NOT_FOUND, languages);
    declaredRoutes.source = source;
  }
  return declaredRoutes.routes;
}

/**
 * Throws what is wrong with app/routes.ts (a route the language list would shadow, paths
 * that collide, parameters that differ between languages...), naming the route: a build
 * calls it before bundling, so such a mistake is reported in a second, not after the
 * bundles. The manifest's writing reads the same result, not computed again.
 */
export async function checkAppRoutes(root, languages) {
  await routesOf(root, languages);
}

/** Writes OUT/manifest.json from the client build's metafile; returns it. */
export async function writeManifest({ root, outDir, metafile, languages, buildTime, dev }) {
  const icon = await copyHashed(root, outDir, "app/ui/icon.svg");
  const { routes } = await screensOf(root);
  const manifest = {
    ...documentFiles(root, outDir, metafile, languages, routes),
    icon,
    declared: languages,
    builtAt: new Date(buildTime).toISOString(),
    contract: await contractStamp(root),
    ...(await routesOf(root, languages)),
    crawlers: crawlerRules(),
    hostTexts: await withPseudoHostTexts(root, await hostTexts(root), languages),
    devClient: dev ? outputName(root, outDir, metafile, "app/dev/client.ts") : null,
  };
  await writeFile(path.join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2));
  return manifest;
}

/**
 * The texts the host writes itself, per language: the tables' `host.` messages, as the
 * catalogue read them (the check the build just ran, not run again), and the home page's
 * title and description, which a page the host could not render carries.
 */
async function hostTexts(root) {
  const [{ errors, hostTexts, textOf }, { routes }] = await Promise.all([checkAppCatalogue(root), screensOf(root)]);
  if (errors.length > 0) throw new Error(`the translation tables fail their check: ${errors.map(({ file, text }) => `${file}: ${text}`).join("; ")}`);
  const home = routes.find((route) => route.home)?.home;
  if (!home) throw new Error("app/routes.ts has no route at \"/\": the home page");
  return Object.fromEntries(
    Object.entries(hostTexts).map(([code, texts]) => [
      code,
      { ...texts, standInTitle: textOf(code, home.titleKey) ?? "", standInDescription: textOf(code, home.descriptionKey) ?? "" },
    ]),
  );
}

/**
 * The stamp of the contract this build is made with: the first 16 hex digits of the
 * SHA-256 of app/contract.ts, as the host computes its own (`render::contract_stamp`); the
 * host refuses a build made for another.
 */
async function contractStamp(root) {
  return createHash("sha256").update(await readFile(path.join(root, "app/contract.ts"))).digest("hex").slice(0, 16);
}

/** Copies a static file into assets/ under a content-hashed name, as esbuild names its own. */
async function copyHashed(root, outDir, file) {
  const bytes = await readFile(path.join(root, file));
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 8).toUpperCase();
  const { name, ext } = path.parse(file);
  const hashed = `${name}-${hash}${ext}`;
  await writeFile(path.join(outDir, "assets", hashed), bytes);
  return hashed;
}

/** The output file of an entry point, relative to assets/. */
function outputName(root, outDir, metafile, entryPoint) {
  const found = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === entryPoint);
  if (!found) throw new Error(`no output for ${entryPoint} in esbuild's metafile`);
  const assetsDir = path.relative(root, path.join(outDir, "assets"));
  return path.relative(assetsDir, found[0]).split(path.sep).join("/");
}

/** Reads esbuild's metafile into what the document needs, file names relative to assets/. */
function documentFiles(root, outDir, metafile, languages, screens) {
  const assetsDir = path.relative(root, path.join(outDir, "assets"));
  const name = (output) => path.relative(assetsDir, output).split(path.sep).join("/");
  const outputs = Object.entries(metafile.outputs);
  const outputOf = (entryPoint) => {
    const found = outputs.find(([, o]) => o.entryPoint === entryPoint);
    if (!found) throw new Error(`no output for ${entryPoint} in esbuild's metafile`);
    return found;
  };
  /** A chunk and every chunk it imports statically: what must be fetched before it runs. */
  const closure = (file, seen = new Set()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const imp of metafile.outputs[file].imports) {
      if (imp.kind === "import-statement") closure(imp.path, seen);
    }
    return seen;
  };
  const [entryFile, entry] = outputOf("app/client.tsx");
  const entryClosure = closure(entryFile);
  /** What `entryPoint`'s chunk needs fetched beyond the first load, or none without one. */
  const beyondFirstLoad = (entryPoint) => {
    const found = outputs.find(([, o]) => o.entryPoint === entryPoint);
    return found ? [...closure(found[0])].filter((f) => !entryClosure.has(f)).map(name) : [];
  };
  const languageChunks = {};
  const messageChunks = {};
  for (const { code, pseudoOf } of languages.languages) {
    languageChunks[code] = beyondFirstLoad(`app/i18n/tables/${pseudoOf ?? code}.ts`);
    messageChunks[code] = {};
    for (const { name: route } of screens) {
      const files = beyondFirstLoad(routeMessagesModule(pseudoOf ?? code, route));
      if (files.length > 0) messageChunks[code][route] = files;
    }
  }
  const routeChunks = {};
  for (const { name: route, screenFile } of screens) routeChunks[route] = screenFile ? beyondFirstLoad(screenFile) : [];
  return {
    entry: name(entryFile),
    css: entry.cssBundle ? [name(entry.cssBundle)] : [],
    preload: [...entryClosure].filter((f) => f !== entryFile).map(name),
    languageChunks,
    routeChunks,
    messageChunks,
  };
}
