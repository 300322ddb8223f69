// React's server renderer in the server bundle, as React builds it for Bun: the same
// renderer as its browser build, but it writes a page as the strings it makes, where the
// browser build encodes every piece to UTF-8 (into 2 KB buffers) for a ReadableStream,
// which the bundle then decoded back to text for the host. The bundle imports it as
// `bilingue:react-dom-strings` (its types: app/server/react-dom-strings.d.ts): the Bun
// build's renderers that write to a destination (resume, render, and prerender, whose
// `prerenderToNodeStream` react-dom's package does not export), and renderToString.
// The Bun build asks of its runtime what bare V8 lacks; this plugin gives it, local to
// its module (nothing global changes for the rest of the bundle):
//   - `Buffer.byteLength(chunk, "utf8")`: the exact UTF-8 length of each piece, as the
//     browser build's `chunk.byteLength` (React decides with it which parts to send
//     apart, so the page is the one the browser build writes);
//   - `setTimeout(work, 0)`: where the browser build schedules the same work through
//     MessageChannel, which the host runs as a microtask; so here;
//   - `util`, `crypto`, `stream`: app/server/react-node-builtins.ts.
import path from "node:path";
import { readFile } from "node:fs/promises";

const SPECIFIER = "bilingue:react-dom-strings";
const BUN_BUILD = /[\\/]node_modules[\\/]react-dom[\\/]cjs[\\/]react-dom-server\.bun\.(?:production|development)\.js$/;

const RUNTIME = `var Buffer = { byteLength: function (text) { return __bilingueUtf8Length(text); } };
var setTimeout = function (work, delay) {
  if (delay !== 0) throw new Error("React's server renderer asked for a timer of " + delay + " ms; the bundle gives it 0 only (app/bundling/string-fizz.mjs)");
  queueMicrotask(work);
};
`;

export function stringFizz(root, dev) {
  const build = dev ? "development" : "production";
  const reactDom = path.join(root, "node_modules/react-dom/cjs");
  const renderers = path.join(reactDom, `react-dom-server.bun.${build}.js`);
  const legacy = path.join(reactDom, `react-dom-server-legacy.browser.${build}.js`);
  const builtins = path.join(root, "app/server/react-node-builtins.ts");
  const utf8 = path.join(root, "app/server/utf8-length.ts");
  return {
    name: "string-fizz",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${SPECIFIER}$`) }, () => ({ path: SPECIFIER, namespace: "string-fizz" }));
      b.onLoad({ filter: /.*/, namespace: "string-fizz" }, () => ({
        contents: `var fizz = require(${JSON.stringify(renderers)});
module.exports = {
  renderToString: require(${JSON.stringify(legacy)}).renderToString,
  renderToPipeableStream: fizz.renderToPipeableStream,
  resumeToPipeableStream: fizz.resumeToPipeableStream,
  prerenderToNodeStream: fizz.prerenderToNodeStream,
};
`,
        loader: "js",
        resolveDir: root,
      }));
      b.onResolve({ filter: /^(?:util|crypto|stream)$/ }, (args) => (BUN_BUILD.test(args.importer) ? { path: builtins } : undefined));
      b.onLoad({ filter: BUN_BUILD }, async (args) => {
        const source = await readFile(args.path, "utf8");
        // Its own "use strict" must stay first to be a directive: the lines given go after it.
        const imported = `"use strict";\nvar __bilingueUtf8Length = require(${JSON.stringify(utf8)}).utf8Length;\n`;
        return { contents: imported + RUNTIME + source, loader: "js", resolveDir: path.dirname(args.path) };
      });
    },
  };
}
