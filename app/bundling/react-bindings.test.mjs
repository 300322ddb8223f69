// The server bundle's React imports are constants read once (react-bindings.mjs), not
// reads through esbuild's interop getters at every call; React's values themselves.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import vm from "node:vm";
import { bundled, root } from "./react-test-support.mjs";
import { reactBindings } from "./react-bindings.mjs";

const require = createRequire(`${root}/package.json`);

/** The entry these tests bundle. */
const ENTRY = `import React, { useState } from "react";\nimport { jsx } from "react/jsx-runtime";\nglobalThis.seen = { React, useState, jsx };\n`;

test("the app's React imports are React's own values, bound once", async () => {
  const code = await bundled(ENTRY, [reactBindings(root)]);
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
  assert.match(await bundled(ENTRY, []), /import_react\d*\.useState/);
});
