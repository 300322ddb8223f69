// Which messages each page needs, so that each page ships only those (docs/translations.md,
// "What a page carries"). The client's module graph says which source files a page runs
// before it shows: the first load (the entry and what it imports statically, eager screens
// among them) and, for a route whose screen is loaded when needed, its screen's module and
// what that imports beyond the first load. A file uses the keys it names as strings (as the
// catalogue reads them for its unused-key warning), and a route owns the keys it declares:
// its title and the keys it builds at run time (`messages`). So:
//   - the first load: every key the first load's files name, and what the eager routes and the
//     not-found route declare;
//   - each lazy route: the keys of its own files and declarations, less the first load's.
// A route's title is named by app/routes.ts, which is in the first load; it is the
// route's, not the first load's (a page needs only its own route's title). Its description is
// the document head's alone, which the server writes: no browser gets it.
import path from "node:path";
import { readFile } from "node:fs/promises";
import { build } from "esbuild";
import { importAlone } from "./import-alone.mjs";

const ENTRY = "app/client.tsx";
const ROUTES = "app/routes.ts";

/**
 * Quoted strings in a source file (as the catalogue's unused-key check reads them), empty
 * and escaped ones too: without them, `alt=""` or `"a\"b"` paired the quotes after it the
 * wrong way round, and a key later on the line went unseen (its page shipped without it).
 */
const QUOTED = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$\n]|\\.)*)`/g;

/** The keys of `keys` (a Set) that `text`, a source file, names as strings, in order. */
export function keysNamedIn(text, keys) {
  const found = [];
  for (const match of text.matchAll(QUOTED)) {
    const quoted = match[1] ?? match[2] ?? match[3];
    if (keys.has(quoted)) found.push(quoted);
  }
  return found;
}

/**
 * The app's routes as the build reads them: each route's name, the keys it declares, and
 * its screen's file when the screen is loaded when needed (null for an eager one). The
 * routes module is bundled alone with each dynamic import it makes stood in for by a
 * module that names the file it would load, so no screen runs.
 */
export async function routeScreens(root) {
  const marker = {
    name: "screen-files",
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData?.resolving) return undefined;
        const resolved = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: { resolving: true } });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, namespace: "screen-file" };
      });
      b.onLoad({ filter: /.*/, namespace: "screen-file" }, (args) => ({
        contents: `export const screenFile = ${JSON.stringify(path.relative(root, args.path).split(path.sep).join("/"))};`,
        loader: "js",
      }));
    },
  };
  const { module } = await importAlone(root, path.join(root, ROUTES), [marker]);
  // A lazy screen's module is the stand-in (Node keeps the module: asked again, it is there).
  const describe = async (name, route) => {
    const screenFile = (await route.screen()).screenFile ?? null;
    const paths = typeof route.path === "string" ? [route.path] : Object.values(route.path);
    return {
      name,
      screenFile,
      owned: [route.titleKey, ...(route.messages ?? [])],
      // The keys its screen builds at run time: named whole by no source.
      builtAtRunTime: route.messages ?? [],
      headOnly: [route.descriptionKey],
      // The home page: its title and description stand in for a page the host could not render.
      home: paths.includes("/") ? { titleKey: route.titleKey, descriptionKey: route.descriptionKey } : null,
    };
  };
  const routes = await Promise.all(Object.entries(module.ROUTES).map(([name, route]) => describe(name, route)));
  return { routes, notFound: await describe(null, module.NOT_FOUND) };
}

/**
 * The client's module graph (esbuild's metafile `inputs`: each source file and what it
 * imports, statically or dynamically), from a build that writes nothing and reads no
 * table: each table module stands in empty (the tables are what the groups are made for).
 */
export async function clientGraph(clientOptions) {
  const emptyTables = {
    name: "empty-tables",
    setup(b) {
      b.onLoad({ filter: /[\\/]app[\\/]i18n[\\/]tables[\\/][\w-]+\.ts$/ }, () => ({ contents: "export default {}; export const dateLocale = {};", loader: "js" }));
    },
  };
  const { metafile } = await build({
    ...clientOptions,
    write: false,
    minify: false,
    sourcemap: false,
    metafile: true,
    plugins: [emptyTables, ...clientOptions.plugins.filter((plugin) => plugin.name !== "catalogue" && plugin.name !== "pseudo-languages")],
  });
  return metafile.inputs;
}

/** The files `from` reaches by static imports (itself included). */
function staticClosure(inputs, from) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !inputs[file]) return;
    seen.add(file);
    for (const { path: imported, kind } of inputs[file].imports) if (kind === "import-statement") visit(imported);
  };
  visit(from);
  return seen;
}

/**
 * The message groups: `firstLoad` (a Set of keys) and `routes` (route name → Set of keys, a
 * route with none of its own left out), from the client's graph (`clientGraph`), the
 * routes (`routeScreens`) and `keys`, the catalogue's.
 */
export async function messageGroups({ root, inputs, routes, notFound, keys }) {
  const texts = new Map();
  const keysOf = async (file) => {
    if (!file.startsWith("app/")) return [];
    if (!texts.has(file)) texts.set(file, await readFile(path.join(root, file), "utf8"));
    return keysNamedIn(texts.get(file), keys);
  };
  const lazy = routes.filter(({ screenFile }) => screenFile !== null);
  // What app/routes.ts names for a route's page alone, or for no page.
  const notFirstLoad = new Set([...lazy.flatMap(({ owned }) => owned), ...[...routes, notFound].flatMap(({ headOnly = [] }) => headOnly)]);
  const first = staticClosure(inputs, ENTRY);
  if (first.size === 0) throw new Error(`${ENTRY} is not in the client's module graph`);
  const firstLoad = new Set();
  for (const file of first) {
    for (const key of await keysOf(file)) if (file !== ROUTES || !notFirstLoad.has(key)) firstLoad.add(key);
  }
  for (const { owned } of [...routes.filter(({ screenFile }) => screenFile === null), notFound]) for (const key of owned) firstLoad.add(key);
  const byRoute = new Map();
  for (const { name, screenFile, owned } of lazy) {
    if (!inputs[screenFile]) throw new Error(`the screen of the route "${name}", ${screenFile}, is not in the client's module graph`);
    const own = new Set(owned);
    for (const file of staticClosure(inputs, screenFile)) {
      if (!first.has(file)) for (const key of await keysOf(file)) own.add(key);
    }
    for (const key of firstLoad) own.delete(key);
    if (own.size > 0) byRoute.set(name, own);
  }
  return { firstLoad, routes: byRoute };
}

/** The groups, as plain JSON (the server bundle's `bilingue:message-groups` module). */
export const groupsJson = ({ firstLoad, routes }) => ({ firstLoad: [...firstLoad].sort(), routes: Object.fromEntries([...routes].map(([name, keys]) => [name, [...keys].sort()])) });
