// Builds the streaming peer's render (bench/streaming/render.tsx) for Node: the app's
// sources with the server bundle's esbuild options (the same build-time values, the same
// precompiled messages), but React's Node build and axios's own HTTP transport, where the
// host's bundle has its host transport.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOptions } from "../../app/bundle.mjs";

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
/** The server bundle's plugin that puts the host's transport in the shared client's. */
const SUBSTITUTES = "server-substitutes";

/**
 * Writes the streaming render to `outFile` (CommonJS), built as of `buildTime` (ms). It
 * fails when the server bundle no longer has the plugin it leaves out: the peer's loader
 * would then call the host's transport, which only the host can answer.
 */
export async function buildStreamingRender(outFile, buildTime) {
  const { server } = await bundleOptions({ root, outDir: path.dirname(outFile), dev: false, buildTime });
  if (!server.plugins.some((plugin) => plugin.name === SUBSTITUTES)) {
    throw new Error(`the server bundle's options have no "${SUBSTITUTES}" plugin for the streaming peer to leave out (app/bundle.mjs)`);
  }
  await build({
    ...server,
    entryPoints: ["bench/streaming/render.tsx"],
    outfile: outFile,
    platform: "node",
    format: "cjs",
    plugins: server.plugins.filter((plugin) => plugin.name !== SUBSTITUTES),
  });
}
