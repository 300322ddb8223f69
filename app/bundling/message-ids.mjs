// Production client only: each message key named in the source is written as a short id
// (`"route.locale.title"` → `"1k"`), in the code that names it and in the modules that
// carry its message, in every language alike. A page names its keys twice, once where its
// code asks for a message and once in the module that brings it, and the real-size site's
// keys are long (`unit.duration-millisecond.long`, `emoji.1f602`): with ids its largest
// first load is 0.65 KB of gzip lighter (81,020 → 80,367 B), the demo's 0.26 KB.
//
// A key built at run time (`t.dynamic(…)`, declared by its route's `messages`) keeps its
// name everywhere: no source names it whole. The server bundle keeps every name (it
// renders the same text, and nothing it writes into the page names a key), and so do
// development builds, whose errors name the key a developer wrote.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "acorn";
import { transform } from "esbuild";

/** An id: digits and lower-case letters, shortest first; never a key, which has a dot (catalogue.ts). */
const idAt = (index) => index.toString(36);

/**
 * `keys` (the catalogue's, in its order) to their ids, less `kept` (the keys built at run
 * time): a Map from each key to its id.
 */
export function messageIds(keys, kept) {
  const ids = new Map();
  for (const key of keys) if (!kept.has(key) && key.includes(".")) ids.set(key, idAt(ids.size));
  return ids;
}

/**
 * JavaScript `code` with each string that is a key of `ids` written as its id: each string
 * literal and each template without expressions, wherever it stands (an argument, a
 * property's value or name), and nothing else (a comment, the text of a longer string).
 */
export function withMessageIds(code, ids) {
  const edits = [];
  const visit = (node) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    const text = node.type === "Literal" ? node.value : node.type === "TemplateLiteral" && node.expressions.length === 0 ? node.quasis[0].value.cooked : null;
    const id = typeof text === "string" ? ids.get(text) : undefined;
    if (id !== undefined) {
      edits.push({ start: node.start, end: node.end, id });
      return;
    }
    for (const [key, child] of Object.entries(node)) if (key !== "type" && key !== "start" && key !== "end") visit(child);
  };
  visit(parse(code, { ecmaVersion: "latest", sourceType: "module" }));
  let written = code;
  // From the end, so the earlier offsets hold.
  for (const { start, end, id } of edits.sort((a, b) => b.start - a.start)) written = `${written.slice(0, start)}${JSON.stringify(id)}${written.slice(end)}`;
  return written;
}

/** The name `key` is written with in a module of messages: its id, or itself. */
export const writtenKey = (ids, key) => (ids?.get(key) ?? key);

/**
 * The client's plugin: each of the app's own TypeScript files with its keys written as
 * their ids, once `split.messageIds` is set (a production build, after the groups). The
 * tables become modules of messages (./catalogue.mjs); app/routes.ts, when the route paths'
 * plugin (registered first) reads it, has its ids written by that plugin.
 */
export function messageIdsPlugin(root, split) {
  const app = path.join(root, "app") + path.sep;
  const tables = path.join(root, "app/i18n/tables") + path.sep;
  return {
    name: "message-ids",
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/, namespace: "file" }, async (args) => {
        const ids = split.messageIds;
        if (!ids || !args.path.startsWith(app) || args.path.startsWith(tables)) return undefined;
        // In JavaScript, as the bundle would read it (the TypeScript and JSX gone), where each
        // string is a node of its own.
        const { code } = await transform(await readFile(args.path, "utf8"), {
          loader: args.path.endsWith(".tsx") ? "tsx" : "ts",
          format: "esm",
          target: "es2022",
          jsx: "automatic",
          tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
          sourcefile: path.relative(root, args.path),
        });
        return { contents: withMessageIds(code, ids), loader: "js", resolveDir: path.dirname(args.path) };
      });
    },
  };
}
