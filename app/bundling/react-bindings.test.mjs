// The server bundle's React imports are constants read once (react-bindings.mjs), not
// reads through esbuild's interop getters at every call; React's values themselves.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { build } from "esbuild";
import { reactBindings } from "./react-bindings.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(path.join(root, "package.json"));

async function bundled(plugins) {
  const { outputFiles } = await build({
    absWorkingDir: root,
    stdin: {
      contents: `import React, { useState } from "react";\nimport { jsx } from "react/jsx-runtime";\nglobalThis.seen = { React, useState, jsx };\n`,
      resolveDir: path.join(root, "app"),
      sourcefile: "app/entry.js",
    },
    bundle: true,
    format: "iife",
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
    plugins,
  });
  return outputFiles[0].text;
}

test("the app's React imports are React's own values, bound once", async () => {
  const code = await bundled([reactBindings(root)]);
  const context = vm.createContext({});
  vm.runInContext(code, context);
  const { React, useState, jsx } = context.seen;
  assert.equal(React.version, require("react").version, "the default import is React's module");
  assert.equal(useState, React.useState);
  assert.equal(typeof jsx, "function");
  assert.equal(jsx("p", { children: "x" }).type, "p");
  assert.doesNotMatch(code, /import_react\d*\.useState|import_jsx_runtime\d*\.jsx/, "no read through the interop object at the use site");
});

test("without the plugin, the same imports are read through the interop object (what the test above can tell apart)", async () => {
  assert.match(await bundled([]), /import_react\d*\.useState/);
});
