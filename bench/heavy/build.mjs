// Builds the heavy page's server bundle (bench only): the app's own server bundle, with
// bench/heavy/HeavyHome.tsx standing in for the home screen. The binary renders it with
// `--server-bundle`, the Node peer from the same file.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOptions } from "../../app/bundle.mjs";

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/** Where the app's routes import the home screen, which the heavy page stands in for. */
const ROUTES = path.join(root, "app/routes.ts");
const HOME = "./ui/Home";

/**
 * Writes the heavy server bundle to `outFile`. It fails when the home screen is no longer
 * imported where it is looked for: the heavy rows would then time the home page unnoticed.
 */
export async function buildHeavyBundle(outFile) {
  const { server } = await bundleOptions({ root, outDir: path.dirname(outFile), dev: false, buildTime: Date.now() });
  let replaced = false;
  const heavyHome = {
    name: "heavy-home",
    setup(b) {
      b.onResolve({ filter: /^\.\/ui\// }, (args) => {
        if (args.importer !== ROUTES || args.path !== HOME) return undefined;
        replaced = true;
        return { path: path.join(root, "bench/heavy/HeavyHome.tsx") };
      });
    },
  };
  await build({ ...server, outfile: outFile, plugins: [heavyHome, ...server.plugins] });
  if (!replaced) throw new Error(`the heavy page stands in for the home screen, but ${path.relative(root, ROUTES)} no longer imports "${HOME}"`);
}
