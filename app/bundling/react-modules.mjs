// React, React DOM and the scheduler ship as CommonJS, and esbuild keeps a CommonJS module
// whole: the browser got every export of `react` (Children, cloneElement, memo,
// forwardRef, the compiler runtime, every hook) and of `react-dom` (createPortal,
// flushSync, the resource hints), whether the app used them or not, and the interop code
// that wraps CommonJS. For the production client, their production files are read as ES
// modules here (each `require` of a sibling an `import * as`, each `exports.name` an
// export), so esbuild keeps only what something imports. React DOM's client reads `react`
// and `react-dom` for their internals alone. The code is React's own,
// unchanged but for those lines; a file that no longer has the shape read here fails the
// build, naming what it found.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

/** Each package name the app or React imports, and the production file it stands for. */
const PRODUCTION_FILES = {
  react: ["react", "cjs/react.production.js"],
  "react-dom": ["react-dom", "cjs/react-dom.production.js"],
  "react-dom/client": ["react-dom", "cjs/react-dom-client.production.js"],
  "react/jsx-runtime": ["react", "cjs/react-jsx-runtime.production.js"],
  scheduler: ["scheduler", "cjs/scheduler.production.js"],
};
const NAMES = new RegExp(`^(?:${Object.keys(PRODUCTION_FILES).join("|")})$`);
const NAMESPACE = "react-modules";

/** The esbuild plugin, for the production client build. */
export function reactModules(root) {
  const require = createRequire(path.join(root, "package.json"));
  return {
    name: "react-modules",
    setup(b) {
      // The packages' `exports` do not list their files: found beside their package.json.
      b.onResolve({ filter: NAMES }, (args) => {
        const [pkg, file] = PRODUCTION_FILES[/** @type {keyof typeof PRODUCTION_FILES} */ (args.path)];
        return { path: path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file), namespace: NAMESPACE };
      });
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => ({
        contents: asModule(await readFile(args.path, "utf8"), args.path),
        resolveDir: path.dirname(args.path),
        loader: "js",
      }));
    },
  };
}

/**
 * A production file of React's as an ES module: its leading `var A = require("a"), …;` as
 * imports of namespaces, its top-level `exports.name =` as constants it exports.
 * @param {string} source
 * @param {string} file named in errors
 */
export function asModule(source, file) {
  let code = source.replace(/^var ((?:\w+ = require\("[\w/-]+"\),?\s*)+);/m, (_, list) =>
    [...list.matchAll(/(\w+) = require\("([\w/-]+)"\)/g)].map(([, name, from]) => `import * as ${name} from ${JSON.stringify(from)};`).join("\n"),
  );
  // An export set once, at the top level, is a constant (esbuild drops it unused); one set
  // in a branch, set again or read back (the scheduler's clock) is a variable.
  const counts = new Map();
  for (const [, name] of code.matchAll(/\bexports\.(\w+)/g)) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts.keys()];
  const once = new Set(names.filter((name) => counts.get(name) === 1 && new RegExp(`^exports\\.${name} =`, "m").test(code)));
  code = code.replace(/^exports\.(\w+) =/gm, (whole, name) => (once.has(name) ? `const __export_${name} =` : whole));
  code = code.replace(/\bexports\.(\w+)/g, (_, name) => `__export_${name}`);
  const variables = names.filter((name) => !once.has(name));
  if (variables.length > 0) code = `let ${variables.map((name) => `__export_${name}`).join(", ")};\n${code}`;
  const left = code.match(/.{0,40}\b(?:require\(|exports\b|module\.).{0,40}/);
  if (left || names.length === 0) {
    throw new Error(`react-modules: ${file} is not a module this build can read as ES (${left ? `it still has: ${left[0].trim()}` : "it exports nothing"}); React changed its files' shape`);
  }
  return `${code}\nexport { ${names.map((name) => `__export_${name} as ${name}`).join(", ")} };\n`;
}
