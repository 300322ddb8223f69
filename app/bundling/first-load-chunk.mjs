// Production only: the client's first load as one file. esbuild splits code by which entry
// points reach it, and offers no say in it; every screen or library loaded later reaches
// a different part of the modules the first paint needs, so the first load came as seven
// files (React, the app's shared code, esbuild's helpers, a few hundred bytes each of
// others), each compressed on its own. Rollup takes esbuild's chunks as they are (already
// minified, plain ES modules) and joins every chunk the first load fetches whatever the
// language into the entry; the chunks loaded later stay apart and import from it. One
// file compresses ~1.1 KB smaller (gzip -9, the home page in French) and is one request.
import { copyFile, mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { rollup } from "rollup";
import { minify } from "terser";
import { ROUTE_MESSAGES, routeIndexOf, routeMessagesOf } from "./message-modules.mjs";

/**
 * A chunk minified once more, by terser, after esbuild's minifier and Rollup's join:
 * terser's passes (names mangled across the joined scope, constants folded twice) take
 * another 1.06 KB of gzip off the first load (77.67 → 76.61 KB, the demo's entry), which
 * esbuild's one pass leaves. Its safe transforms only: the code is the same program.
 */
async function minified(code, name) {
  const { code: smaller } = await minify(code, { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: false } }).catch((error) => {
    throw new Error(`terser, minifying ${name}: ${error.message}`);
  });
  return smaller ?? code;
}

/**
 * Rewrites esbuild's client output in `fromDir` (its `metafile`, paths relative to
 * `root`) into `toDir`; returns a metafile of the same shape for what was written
 * (`outputs` keyed by path relative to `root`, each with `imports`, and `entryPoint` for
 * entries), which is what the manifest is made from. `entryPoint`: the client's entry;
 * `languageEntries`: each language's table module (app/i18n/tables/<code>.ts);
 * `screenEntries`: the screens loaded when needed (`lazy(() => import(…))`).
 *
 * A route's screen and its messages in a language are named by their kind and hash alone
 * (`screen-<hash>.js`, `messages-fr-<hash>.js`), not by the route: the first load names
 * each screen by URL, so a route's name in them was in every page's first load, twice
 * (the screens, and the routes' messages when a language's module named them) on the
 * real-size site's 40 routes (0.28 KB of gzip). The manifest says which file is whose.
 */
export async function joinFirstLoad({ root, fromDir, toDir, metafile, entryPoint, languageEntries, screenEntries = [] }) {
  const outputs = metafile.outputs;
  const fileOf = (source) => {
    const found = Object.keys(outputs).find((file) => outputs[file].entryPoint === source);
    if (!found) throw new Error(`no output for ${source} in esbuild's metafile`);
    return found;
  };
  /** A chunk and every chunk it imports statically. */
  const closure = (file, seen = new Set()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const { path: imported, kind } of outputs[file].imports) if (kind === "import-statement") closure(imported, seen);
    return seen;
  };
  const entryFile = fileOf(entryPoint);
  const joined = closure(entryFile);
  // What every language's chunk imports is fetched on every first load too.
  const languageClosures = languageEntries.map((source) => {
    const file = fileOf(source);
    const files = closure(file);
    files.delete(file);
    return files;
  });
  for (const file of languageClosures[0] ?? []) if (languageClosures.every((files) => files.has(file))) joined.add(file);
  const joinedPaths = new Set([...joined].map((file) => path.resolve(root, file)));

  const bundle = await rollup({
    input: path.resolve(root, entryFile),
    // The entry exports nothing, and nothing is loaded from outside the bundle.
    preserveEntrySignatures: false,
    onwarn: (warning) => {
      throw new Error(`rollup, joining the first-load chunks: ${warning.message}`);
    },
  });
  const entryPointOf = (facade) => (facade ? outputs[path.relative(root, facade).split(path.sep).join("/")]?.entryPoint : undefined);
  const screens = new Set(screenEntries);
  // Names as esbuild gave them, without esbuild's hash (rollup hashes what it writes); a
  // route's screen and messages by their kind (see above).
  const unhashed = ({ facadeModuleId, name }) => {
    const source = entryPointOf(facadeModuleId);
    if (screens.has(source)) return "screen";
    if (source?.startsWith(`${ROUTE_MESSAGES}:`)) {
      const module = source.slice(ROUTE_MESSAGES.length + 1);
      const indexOf = routeIndexOf(module);
      return indexOf === null ? `messages-${routeMessagesOf(module).code}` : `message-index-${indexOf}`;
    }
    return (facadeModuleId ? path.basename(facadeModuleId, ".js") : name).replace(/-[A-Z0-9]{8}$/, "");
  };
  const { output } = await bundle.generate({
    format: "es",
    compact: true,
    manualChunks: (id) => (joinedPaths.has(id) ? "client" : undefined),
    // Letters and digits, as esbuild's: base64's "-" and "_" would end a `\w+` pattern.
    hashCharacters: "base36",
    entryFileNames: (chunk) => `${unhashed(chunk)}-[hash].js`,
    chunkFileNames: (chunk) => `${unhashed(chunk)}-[hash].js`,
  });
  await bundle.close();

  await mkdir(toDir, { recursive: true });
  const relative = (file) => path.relative(root, path.join(toDir, file)).split(path.sep).join("/");
  const written = {};
  for (const chunk of output) {
    if (chunk.type !== "chunk") throw new Error(`rollup wrote an unexpected asset: ${chunk.fileName}`);
    await writeFile(path.join(toDir, chunk.fileName), await minified(chunk.code, chunk.fileName));
    const entry = chunk.isEntry || chunk.isDynamicEntry ? entryPointOf(chunk.facadeModuleId) : undefined;
    written[relative(chunk.fileName)] = {
      ...(entry ? { entryPoint: entry } : {}),
      imports: [
        ...chunk.imports.map((file) => ({ path: relative(file), kind: "import-statement" })),
        ...chunk.dynamicImports.map((file) => ({ path: relative(file), kind: "dynamic-import" })),
      ],
    };
  }
  // Everything else esbuild wrote (the stylesheet, files the styles refer to) as it is.
  for (const name of await readdir(fromDir)) {
    if (name.endsWith(".js")) continue;
    await copyFile(path.join(fromDir, name), path.join(toDir, name));
  }
  const entryOut = Object.keys(written).find((file) => written[file].entryPoint === entryPoint);
  if (!entryOut) throw new Error(`rollup wrote no chunk for the entry ${entryPoint}`);
  const css = outputs[entryFile].cssBundle;
  if (css) written[entryOut].cssBundle = relative(path.basename(css));
  for (const source of languageEntries) {
    if (!Object.values(written).some((chunk) => chunk.entryPoint === source)) throw new Error(`rollup wrote no chunk for ${source}`);
  }
  return { outputs: written };
}
