// The production client reads React's CommonJS files as ES modules (react-modules.mjs), so
// what nothing imports is left out; what is imported is React's own.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import vm from "node:vm";
import { bundled, root } from "./react-test-support.mjs";
import { asModule, reactModules } from "./react-modules.mjs";

const require = createRequire(`${root}/package.json`);

/** Exports of react, react-dom and the scheduler that nothing here imports. */
const UNUSED = ["cloneElement", "forwardRef", "createPortal", "preinitModule", "unstable_forceFrameRate", "unstable_wrapCallback"];

/** The entry these tests bundle. */
const ENTRY = `import { useState, version } from "react";\nimport { hydrateRoot } from "react-dom/client";\nglobalThis.seen = { useState, version, hydrateRoot };\n`;

test("React's modules keep what is imported, React's own, and leave the rest out", async () => {
  const code = await bundled(ENTRY, [reactModules(root)]);
  const context = vm.createContext({ window: {} });
  vm.runInContext(code, context);
  const { useState, version, hydrateRoot } = context.seen;
  assert.equal(version, require("react").version);
  assert.match(useState.toString(), /ReactSharedInternals\.H\.useState\(initialState\)/, "React's own production function");
  assert.equal(typeof hydrateRoot, "function");
  for (const unused of UNUSED) {
    assert.doesNotMatch(code, new RegExp(`\\b${unused}\\b`), `${unused} is left out`);
  }
});

test("without the plugin, React's modules come whole (what the test above can tell apart)", async () => {
  const code = await bundled(ENTRY, []);
  for (const unused of UNUSED) {
    assert.match(code, new RegExp(`\\b${unused}\\b`));
  }
});

test("a file of another shape fails the build, saying what is left", () => {
  assert.throws(() => asModule(`"use strict";\nmodule.exports = {};\n`, "react/index.js"), /react\/index\.js is not a module this build can read as ES \(it still has: module\.exports = \{\};\)/);
  assert.throws(() => asModule(`var a = 1;\n`, "empty.js"), /it exports nothing/);
  // An export set in a branch and read back, as the scheduler's clock is: a variable.
  assert.equal(
    asModule(`exports.now = void 0;\nif (a) exports.now = () => 1;\nelse exports.now = () => 2;\nexports.at = () => exports.now();\n`, "s.js"),
    `let __export_now;\n__export_now = void 0;\nif (a) __export_now = () => 1;\nelse __export_now = () => 2;\nconst __export_at = () => __export_now();\n\nexport { __export_now as now, __export_at as at };\n`,
  );
  assert.equal(
    asModule(`"use strict";\nvar A = require("a"),\n  B = require("b/c");\nexports.x = A.y;\nexports.z = function () {};\n`, "f.js"),
    `"use strict";\nimport * as A from "a";\nimport * as B from "b/c";\nconst __export_x = A.y;\nconst __export_z = function () {};\n\nexport { __export_x as x, __export_z as z };\n`,
  );
});
