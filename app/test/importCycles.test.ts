// No module of app/ imports itself through others: a cycle makes the order modules run in
// depend on which one is reached first (a value used before it is set), and ties files
// that should be apart. Every import counts: static, type-only, re-exports, dynamic ones
// (a pattern such as `./tables/${code}.ts` reaches every file it matches), and the modules
// the server bundle takes in place of others (bundling/server-substitutes.json). Every file
// of app/ is in the graph: a module, read for its imports, or data that imports nothing;
// an import that names no file fails, so that no edge is left out unseen.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import SERVER_SUBSTITUTES from "../bundling/server-substitutes.json";

declare const BILINGUE_TEST_ROOT: string;

/** Modules, whatever their flavour of JavaScript or TypeScript. */
const MODULE = /\.[cm]?[jt]sx?$/;
/** Files that import nothing. */
const DATA = /\.(json|css|svg)$/;
const IMPORT = /(?:\bimport|\bexport)\s[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']|\b(?:import|require)\(\s*(?:["']([^"']+)["']|`([^`]+)`)\s*\)/g;

/** The files of app/ a module's specifier (or template) names. */
function targets(from: string, specifier: string, files: Set<string>): string[] {
  const base = path.resolve(path.dirname(from), specifier);
  if (specifier.includes("${")) {
    const [head, tail] = base.split(/\$\{[^}]*\}/);
    return [...files].filter((file) => file.startsWith(head) && file.endsWith(tail) && !file.slice(head.length).includes("/"));
  }
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].filter((file) => files.has(file)).slice(0, 1);
}

/**
 * The modules under `dir` (but `skip`) and what each imports, with the files that are
 * neither a module nor data (`unread`) and the imports that name no file (`unresolved`,
 * as "file: specifier").
 */
export function importGraph(dir: string, skip?: string) {
  const all = readdirSync(dir, { recursive: true })
    .map((file) => path.join(dir, String(file)))
    .filter((file) => statSync(file).isFile() && !(skip && file.startsWith(skip)));
  const modules = all.filter((file) => MODULE.test(file));
  const files = new Set(all);
  const substitutes = SERVER_SUBSTITUTES.map((s) => ({ ...s, importer: path.join(dir, path.relative("app", s.importer)), path: path.join(dir, path.relative("app", s.path)) }));
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of modules) {
    const source = readFileSync(file, "utf8").replace(/^\s*\/\/.*$/gm, "");
    const reached = [...source.matchAll(IMPORT)].flatMap((m) => {
      const specifier = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (!specifier.startsWith(".")) return [];
      const found = targets(file, specifier, files);
      if (found.length === 0) unresolved.push(`${path.relative(dir, file)}: ${specifier}`);
      const substitute = substitutes.filter((s) => s.importer === file && s.specifier === specifier).map((s) => s.path);
      return [...found, ...substitute].filter((target) => MODULE.test(target));
    });
    edges.set(file, [...new Set(reached)]);
  }
  const unread = all.filter((file) => !MODULE.test(file) && !DATA.test(file)).map((file) => path.relative(dir, file));
  return { edges, unread, unresolved };
}

/** Each cycle among the modules under `dir` (but `skip`), as the files it goes through. */
export function importCycles(dir: string, skip?: string): string[][] {
  const { edges } = importGraph(dir, skip);
  // Tarjan's strongly connected components: each of more than one file (or a file that
  // imports itself) is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of edges.get(file)!) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      for (let top = ""; top !== file; ) component.push((top = stack.pop()!));
      if (component.length > 1 || edges.get(file)!.includes(file)) cycles.push(component.map((f) => path.relative(dir, f)).sort());
    }
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

const app = () => path.join(BILINGUE_TEST_ROOT, "app");
const fixture = () => path.join(BILINGUE_TEST_ROOT, "app/test/cycle-fixture");

test("no module of app/ imports itself through others", () => {
  assert.ok(existsSync(path.join(app(), "routes.ts")), app());
  assert.deepEqual(importCycles(app(), fixture()), [], "import cycles in app/ (each line is one cycle's files)");
});

/**
 * The declarations the corpus test writes beside the corpus's call sites when it runs
 * (git-ignored): on a fresh clone they are not there yet, whichever test runs first.
 */
const WRITTEN_BY_A_TEST = /^bundling\/corpus\/calls\/[^/]+\.ts: \.\/messages\.generated$/;

test("every file of app/ is in the graph, and every import names a file", () => {
  const { edges, unread, unresolved } = importGraph(app(), fixture());
  assert.deepEqual(unread, [], "files of app/ that are neither a module nor data (add their kind to MODULE or DATA)");
  const missing = unresolved.filter((entry) => !WRITTEN_BY_A_TEST.test(entry));
  assert.deepEqual(missing, [], "imports that name no file of app/");
  const reached = (from: string, to: string) => edges.get(path.join(app(), from))?.includes(path.join(app(), to));
  assert.ok(reached("bundle.mjs", "bundling/catalogue.mjs") && reached("server.tsx", "server/polyfills.ts"), "build code and the app are read alike");
  assert.ok(reached("http/client.ts", "server/transport.ts"), "the server bundle's substitute counts as an import");
});

test("a cycle is found, through a dynamic import and a type-only one", () => {
  assert.deepEqual(importCycles(fixture()), [["a.ts", "b.ts"]]);
});
