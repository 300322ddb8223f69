// Build code reads some of the app's own TypeScript modules (its routes, the catalogue's
// checks) as Node modules: esbuild bundles each alone, in memory, and Node imports that.
import { build } from "esbuild";

/** `file`, bundled alone (with esbuild's `plugins`, if any) and imported: { module, warnings } (esbuild's, about it). */
export async function importAlone(root, file, plugins = []) {
  const alone = await build({ absWorkingDir: root, entryPoints: [file], bundle: true, write: false, format: "esm", platform: "node", logLevel: "silent", plugins });
  const module = await import(`data:text/javascript;base64,${Buffer.from(alone.outputFiles[0].text).toString("base64")}`);
  return { module, warnings: alone.warnings };
}
