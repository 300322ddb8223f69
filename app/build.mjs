// Bundles the app for production (see app/bundle.mjs for what it writes). Called by
// build.rs (`node app/build.mjs OUT_DIR`), or by hand.
import { build } from "esbuild";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOptions, checkAppRoutes, checkLanguages, lazyScreenFiles, messageGroupsOf, readLanguages, writeManifest } from "./bundle.mjs";
import { joinFirstLoad } from "./bundling/first-load-chunk.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outDir = path.resolve(process.argv[2] ?? path.join(root, "dist"));
const buildTime = Number(process.env.BILINGUE_BUILD_TIME ?? Date.now());

const languages = await readLanguages(root);
await checkLanguages(root, languages);
await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const options = await bundleOptions({ root, outDir, dev: false, buildTime });
try {
  await checkAppRoutes(root, languages);
  // Which page needs which messages, for both bundles: each page ships only its own.
  await messageGroupsOf(root, options);
  await build(options.server);
  // esbuild's chunks, before the first load's are joined into one (assets/ gets the result).
  const chunksDir = path.join(outDir, "esbuild-chunks");
  const client = await build({ ...options.client, outdir: chunksDir });
  const metafile = await joinFirstLoad({
    root,
    fromDir: chunksDir,
    toDir: path.join(outDir, "assets"),
    metafile: client.metafile,
    entryPoint: "app/client.tsx",
    languageEntries: languages.languages.map(({ code }) => `app/i18n/tables/${code}.ts`),
    screenEntries: await lazyScreenFiles(root),
  });
  await rm(chunksDir, { recursive: true });
  await writeManifest({ root, outDir, metafile, languages, buildTime, dev: false });
} catch (error) {
  // esbuild's own report names each file and line.
  console.error(error.message);
  process.exit(1);
}
