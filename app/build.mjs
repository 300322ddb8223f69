// Bundles the app for production (see app/bundle.mjs for what it writes). Called by
// build.rs (`node app/build.mjs OUT_DIR`), or by hand.
import { build } from "esbuild";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOptions, checkLanguages, readLanguages, writeManifest } from "./bundle.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outDir = path.resolve(process.argv[2] ?? path.join(root, "dist"));
const buildTime = Number(process.env.BILINGUE_BUILD_TIME ?? Date.now());

const languages = await readLanguages(root);
await checkLanguages(root, languages);
await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const options = await bundleOptions({ root, outDir, dev: false, buildTime });
try {
  await build(options.server);
  const client = await build(options.client);
  await writeManifest({ root, outDir, metafile: client.metafile, languages, buildTime, dev: false });
} catch (error) {
  // esbuild's own report names each file and line.
  console.error(error.message);
  process.exit(1);
}
