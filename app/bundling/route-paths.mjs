// app/routes.ts as the client bundle reads it: each language's route paths in its own
// module, and the fields only the server reads left out, neither in every page's first load.
//
// Paths: app/routes.ts writes a translated route's path as one object, its pattern in every
// language; in the client bundle each such object becomes `pathsOf("<route>")`
// (app/data/routePaths.ts), and each language's module (./message-modules.mjs) adds its
// language's patterns, resolved along its chain as the manifest has them. A site of 40
// routes in 30 languages thus keeps ~7 KB gzip of other languages' words out of every page.
//
// Server-only fields (`SERVER_ONLY`): which pages the sitemap lists, how a page may be
// kept, the document's description. The server bundle writes the head, the headers and
// the sitemap from them; the client never reads them (app/server.tsx does, and the build's
// own checks). On the real-size site's 40 routes they were 0.37 KB gzip of every page's
// entry.
//
// The server bundle, the build's own reading of the routes and the tests keep
// app/routes.ts as written. Only a route written as `name: defineRoute({ … })` (or
// `const NAME = defineRoute({ … })`) is rewritten, and only a path of the first, written
// as an object of string literals, is split; any other
// form stays as it is (correct, and in the first load).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "acorn";
import { transform } from "esbuild";
import { withMessageIds } from "./message-ids.mjs";
import { eachNode, withEdits } from "./source-edits.mjs";

const ROUTES = "app/routes.ts";
const PATHS_MODULE = "app/data/routePaths.ts";

/** The name a property is written with (`fr`, `"fr-CA"`), or null when it is computed or not a name. */
function keyName(property) {
  if (property.type !== "Property" || property.computed || property.kind !== "init" || property.method) return null;
  if (property.key.type === "Identifier") return property.key.name;
  if (property.key.type === "Literal" && typeof property.key.value === "string") return property.key.value;
  return null;
}

/** The fields of a route the client never reads (see the module's comment). */
export const SERVER_ONLY = ["indexable", "sharing", "descriptionKey"];

/** Whether `node` is `{ fr: "…", en: "…" }`: names and string literals only. */
const isPathObject = (node) =>
  node.type === "ObjectExpression" &&
  node.properties.length > 0 &&
  node.properties.every((property) => keyName(property) !== null && property.value.type === "Literal" && typeof property.value.value === "string");

/**
 * Each `defineRoute({ … })` of `program` whose client form differs from its source:
 * its argument (`start`, `end`), its `path` object when it is split (`written`, what it
 * writes), and the properties the client keeps (`kept`).
 */
function routeDefinitions(program) {
  const found = [];
  eachNode(program, (node) => {
    // `name: defineRoute({…})` in the routes, or `const NOT_FOUND = defineRoute({…})`, whose
    // path is not split (it is not a route of ROUTES).
    const inRoutes = node.type === "Property" && node.value?.type === "CallExpression";
    const alone = node.type === "VariableDeclarator" && node.init?.type === "CallExpression";
    if (inRoutes || alone) {
      const route = inRoutes ? keyName(node) : null;
      const call = inRoutes ? node.value : node.init;
      const [argument] = call.arguments;
      if ((route !== null || alone) && call.callee.type === "Identifier" && call.callee.name === "defineRoute" && argument?.type === "ObjectExpression") {
        const pathProperty = argument.properties.find((property) => keyName(property) === "path");
        const split = route !== null && pathProperty && isPathObject(pathProperty.value) ? pathProperty : null;
        const kept = argument.properties.filter((property) => !SERVER_ONLY.includes(keyName(property)));
        if (split || kept.length < argument.properties.length) {
          const written = split ? Object.fromEntries(split.value.properties.map((property) => [keyName(property), property.value.value])) : null;
          found.push({ route, written, split, kept, start: argument.start, end: argument.end });
        }
      }
    }
    return undefined;
  });
  return found;
}

/**
 * app/routes.ts for the client: its source in JavaScript with each split path written as
 * `pathsOf(route)` and each route's server-only fields left out, the names of the routes
 * whose paths are split, and the patterns each such path writes.
 */
export async function splitRoutesSource(root, source) {
  const { code } = await transform(source, { loader: "ts", format: "esm", target: "es2022", sourcefile: ROUTES });
  const definitions = routeDefinitions(parse(code, { ecmaVersion: "latest", sourceType: "module" }));
  const found = definitions.filter(({ split }) => split !== null);
  // Each argument written again with what the client keeps of it.
  let contents = withEdits(
    code,
    definitions.map(({ route, split, kept, start, end }) => {
      const properties = kept.map((property) => (property === split ? `path: __bilingueRoutePaths(${JSON.stringify(route)})` : code.slice(property.start, property.end)));
      return { start, end, text: `{ ${properties.join(", ")} }` };
    }),
  );
  if (found.length > 0) {
    const registry = path.join(root, PATHS_MODULE).split(path.sep).join("/");
    contents = `import { pathsOf as __bilingueRoutePaths } from ${JSON.stringify(registry)};\n${contents}`;
  }
  return { contents, routes: found.map(({ route }) => route), written: found.map(({ route, written }) => ({ route, written })) };
}

/** The routes app/routes.ts's client build splits, read again only when the file (or the app) changes. */
const last = { key: null, split: null };
export async function splitRoutes(root) {
  const source = await readFile(path.join(root, ROUTES), "utf8");
  // The split names the registry by its path under `root`: the same file in another app is another split.
  const key = `${root}\n${source}`;
  if (key !== last.key) {
    last.split = await splitRoutesSource(root, source);
    last.key = key;
  }
  return last.split;
}

/**
 * Each language's patterns of the split routes (`{ code: { route: pattern } }`), from the
 * manifest's routes (each route's path in every built language, resolved along its chain).
 * With `written` (the split's own reading), each split path must be its route's: a
 * `defineRoute` under a route's name outside ROUTES would otherwise take that route's paths.
 */
export function languagePatterns(splitRouteNames, manifestRoutes, written = []) {
  const byName = new Map(manifestRoutes.map((route) => [route.name, route.paths]));
  const patterns = {};
  for (const route of splitRouteNames) {
    const paths = byName.get(route);
    if (!paths) throw new Error(`${ROUTES}: the route "${route}" is missing from the build's reading of the routes`);
    for (const [code, pattern] of Object.entries(paths)) (patterns[code] ??= {})[route] = pattern;
  }
  const seen = new Set();
  for (const { route, written: own } of written) {
    const paths = byName.get(route) ?? {};
    const other = Object.entries(own).find(([code, pattern]) => paths[code] !== pattern);
    if (seen.has(route) || other) {
      const why = other ? `its path in "${other[0]}" is ${JSON.stringify(other[1])}, the route's is ${JSON.stringify(paths[other[0]] ?? null)}` : "it is written twice";
      throw new Error(`${ROUTES}: a defineRoute under the name "${route}" is not the route "${route}" of ROUTES (${why}): give it a name of its own`);
    }
    seen.add(route);
  }
  return patterns;
}

/**
 * The client's plugin: app/routes.ts, its split paths left to the language modules, when
 * `split.routePatterns` (the same condition the catalogue's plugin adds them to the
 * language modules on) is set.
 */
export function routePathsPlugin(root, split) {
  return {
    name: "route-paths",
    setup(b) {
      const file = path.join(root, ROUTES);
      b.onLoad({ filter: /[\\/]app[\\/]routes\.ts$/ }, async (args) => {
        if (args.path !== file || !split.groups || !split.routePatterns) return undefined;
        const { contents } = await splitRoutes(root);
        // The keys it names (route titles) as the modules of messages write them.
        return { contents: split.messageIds ? withMessageIds(contents, split.messageIds) : contents, loader: "js", resolveDir: path.dirname(file) };
      });
    },
  };
}

/** `import { addPaths } …; addPaths("<code>", {…});` for a language module: its languages' patterns (a pseudo-language's too). */
export function addPathsSource(root, patternsByCode) {
  const entries = Object.entries(patternsByCode).filter(([, patterns]) => Object.keys(patterns).length > 0);
  if (entries.length === 0) return "";
  const registry = path.join(root, PATHS_MODULE).split(path.sep).join("/");
  return [
    `import { addPaths as __bilingueAddPaths } from ${JSON.stringify(registry)};`,
    ...entries.map(([code, patterns]) => `__bilingueAddPaths(${JSON.stringify(code)}, ${JSON.stringify(patterns)});`),
  ].join("\n");
}
