// Builds the heavy page's server bundle (bench only): the app's own server bundle, with
// bench/heavy/HeavyHome.tsx standing in for the home screen. The binary renders it with
// `--server-bundle`, the Node peer from the same file.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOptions } from "../../app/bundle.mjs";

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/** Writes the heavy server bundle to `outFile`. */
export async function buildHeavyBundle(outFile) {
  const { server } = await bundleOptions({ root, outDir: path.dirname(outFile), dev: false, buildTime: Date.now() });
  const heavyHome = {
    name: "heavy-home",
    setup(b) {
      b.onResolve({ filter: /^\.\/ui\/Home$/ }, (args) =>
        args.importer === path.join(root, "app/App.tsx") ? { path: path.join(root, "bench/heavy/HeavyHome.tsx") } : undefined,
      );
    },
  };
  await build({ ...server, outfile: outFile, plugins: [heavyHome, ...server.plugins] });
}
