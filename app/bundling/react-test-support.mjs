// What the tests of the React plugins share (react-bindings.test.mjs,
// react-modules.test.mjs): the repository's root, and an entry bundled as the production
// builds bundle React, with or without a plugin.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** `contents`, an entry of app/, bundled for production into one script with `plugins`: its text. */
export async function bundled(contents, plugins) {
  const { outputFiles } = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: path.join(root, "app"), sourcefile: "app/entry.js" },
    bundle: true,
    format: "iife",
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
    plugins,
  });
  return outputFiles[0].text;
}
