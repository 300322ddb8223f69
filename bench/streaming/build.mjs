// Builds the streaming peer's render (bench/streaming/render.tsx) for Node: the app's
// sources with the server bundle's esbuild options (the same build-time values, the same
// precompiled messages), but React's Node build and axios's own HTTP transport, where the
// host's bundle has its host transport.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOptions } from "../../app/bundle.mjs";

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/** Writes the streaming render to `outFile` (CommonJS), built as of `buildTime` (ms). */
export async function buildStreamingRender(outFile, buildTime) {
  const { server } = await bundleOptions({ root, outDir: path.dirname(outFile), dev: false, buildTime });
  await build({
    ...server,
    entryPoints: ["bench/streaming/render.tsx"],
    outfile: outFile,
    platform: "node",
    format: "cjs",
    plugins: server.plugins.filter((plugin) => plugin.name !== "host-transport"),
  });
}
