// Production client only: each message key named in the source is written as a short id
// (`"route.locale.title"` → `"1k"`), in the code that names it and in the modules that
// carry its message, in every language alike. A page names its keys twice, once where its
// code asks for a message and once in the module that brings it, and the real-size site's
// keys are long (`unit.duration-millisecond.long`, `emoji.1f602`): with ids its largest
// first load is 0.65 KB of gzip lighter (81,020 → 80,367 B), the demo's 0.26 KB.
//
// What keeps its name everywhere: a key built at run time or received at run time (a key
// a screen's data carries, which the server wrote into the page with its name), which its
// route declares in `messages`; a key named in a file this plugin does not rewrite (not
// TypeScript: a .js, .json… under app/); and a key without a dot. The server bundle keeps
// every name, and so do development builds, whose errors name the key a developer wrote.
// A key must therefore reach `t` as written in the code, or be declared: code that takes
// one apart (`key.split(".")`) or compares it with outside data sees the id instead.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "acorn";
import { transform } from "esbuild";
import { eachNode, withEdits } from "./source-edits.mjs";

/**
 * `keys` (the catalogue's, in its order) to their ids, less `kept` (the keys that keep
 * their names): a Map from each key to its id. An id is digits and lower-case letters,
 * shortest first, never digits alone (an object would list it before the others, where the
 * key's place was its own) and never one of the catalogue's keys (`ok`, say).
 */
export function messageIds(keys, kept) {
  const all = new Set(keys);
  const ids = new Map();
  let next = 0;
  const nextId = () => {
    for (;;) {
      const id = (next++).toString(36);
      if (!/^\d+$/.test(id) && !all.has(id)) return id;
    }
  };
  for (const key of all) if (!kept.has(key) && key.includes(".")) ids.set(key, nextId());
  return ids;
}

/** Whether the plugin below rewrites `file` (a path under app/): the app's TypeScript, not its tables. */
export const rewritten = (file) => /\.tsx?$/.test(file) && !file.startsWith("app/i18n/tables/");

/**
 * JavaScript `code` with each string that is a key of `ids` written as its id: each string
 * literal and each template without expressions, wherever it stands (an argument, a
 * property's value or name), and nothing else (a comment, the text of a longer string).
 */
export function withMessageIds(code, ids) {
  const edits = [];
  eachNode(parse(code, { ecmaVersion: "latest", sourceType: "module" }), (node) => {
    // A tagged template is its tag's to read (`String.raw`), not a string.
    if (node.type === "TaggedTemplateExpression") return [node.tag, node.quasi.expressions];
    const text = node.type === "Literal" ? node.value : node.type === "TemplateLiteral" && node.expressions.length === 0 ? node.quasis[0].value.cooked : null;
    const id = typeof text === "string" ? ids.get(text) : undefined;
    if (id === undefined) return undefined;
    edits.push({ start: node.start, end: node.end, text: JSON.stringify(id) });
    return [];
  });
  return withEdits(code, edits);
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
  let tsconfig = null;
  return {
    name: "message-ids",
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/, namespace: "file" }, async (args) => {
        const ids = split.messageIds;
        const file = path.relative(root, args.path).split(path.sep).join("/");
        if (!ids || !args.path.startsWith(app) || !rewritten(file)) return undefined;
        // In JavaScript, as the bundle would read it (the TypeScript and JSX gone, with the
        // project's own settings), where each string is a node of its own.
        tsconfig ??= readFile(path.join(root, "tsconfig.json"), "utf8").catch(() => "{}");
        const { code } = await transform(await readFile(args.path, "utf8"), {
          loader: args.path.endsWith(".tsx") ? "tsx" : "ts",
          format: "esm",
          target: "es2022",
          jsx: "automatic",
          tsconfigRaw: await tsconfig,
          sourcefile: file,
        });
        return { contents: withMessageIds(code, ids), loader: "js", resolveDir: path.dirname(args.path) };
      });
    },
  };
}
