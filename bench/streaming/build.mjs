// Builds the streaming peer's render (bench/streaming/render.tsx) for Node: the app's
// sources with the server bundle's esbuild options (the same build-time values, the same
// precompiled messages), but React's Node build and axios's own HTTP transport, where the
// host's bundle has its host transport. The sources are this repository's app, or another
// copy of it: the real-size site's generated app (`bench/site/build.mjs --keep-source DIR`),
// whose own bundle options build it, render.tsx reading that copy's app/ as it reads ours.
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
const RENDER = path.join(root, "bench/streaming/render.tsx");
/** The server bundle's plugin that puts the host's transport in the shared client's. */
const SUBSTITUTES = "server-substitutes";

/**
 * Writes the streaming render to `outFile` (CommonJS), built as of `buildTime` (ms) from the
 * app in `sourceRoot` (a folder with the repository's layout: app/, package.json,
 * node_modules). It fails when the server bundle no longer has the plugin it leaves out: the
 * peer's loader would then call the host's transport, which only the host can answer.
 */
export async function buildStreamingRender(outFile, buildTime, { sourceRoot = root } = {}) {
  const { bundleOptions } = await import(pathToFileURL(path.join(sourceRoot, "app/bundle.mjs")).href);
  const { server } = await bundleOptions({ root: sourceRoot, outDir: path.dirname(outFile), dev: false, buildTime });
  if (!server.plugins.some((plugin) => plugin.name === SUBSTITUTES)) {
    throw new Error(`the server bundle's options have no "${SUBSTITUTES}" plugin for the streaming peer to leave out (app/bundle.mjs)`);
  }
  // render.tsx imports the app as ../../app/…: read from the source root, those are that
  // copy's files.
  const fromSource = {
    name: "render-from-source",
    setup(b) {
      b.onLoad({ filter: /[\\/]bench[\\/]streaming[\\/]render\.tsx$/ }, async (args) =>
        args.path === RENDER ? { contents: (await readFile(RENDER, "utf8")).replaceAll("../../app/", "./app/"), loader: "tsx", resolveDir: sourceRoot } : undefined,
      );
    },
  };
  await build({
    ...server,
    entryPoints: [RENDER],
    outfile: outFile,
    platform: "node",
    format: "cjs",
    plugins: [fromSource, ...server.plugins.filter((plugin) => plugin.name !== SUBSTITUTES)],
  });
}
