// No module of app/ imports itself through others: a cycle makes the order modules run in
// depend on which one is reached first (a value used before it is set), and ties files
// that should be apart. Every import counts: static, type-only, re-exports, and dynamic
// ones (a pattern such as `./tables/${code}.ts` reaches every file it matches).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

declare const BILINGUE_TEST_ROOT: string;

const SOURCE = /\.(tsx?|mjs)$/;
const IMPORT = /(?:\bimport|\bexport)\s[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']|\b(?:import|require)\(\s*(?:["']([^"']+)["']|`([^`]+)`)\s*\)/g;

/** The files of app/ a module's specifier (or template) names. */
function targets(from: string, specifier: string, files: Set<string>): string[] {
  if (!specifier.startsWith(".")) return [];
  const base = path.resolve(path.dirname(from), specifier);
  if (specifier.includes("${")) {
    const [head, tail] = base.split(/\$\{[^}]*\}/);
    return [...files].filter((file) => file.startsWith(head) && file.endsWith(tail) && !file.slice(head.length).includes("/"));
  }
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].filter((file) => files.has(file)).slice(0, 1);
}

/** Each cycle among the modules under `dir` (but `skip`), as the files it goes through. */
export function importCycles(dir: string, skip?: string): string[][] {
  const files = new Set(
    readdirSync(dir, { recursive: true })
      .map((file) => path.join(dir, String(file)))
      .filter((file) => SOURCE.test(file) && statSync(file).isFile() && !(skip && file.startsWith(skip))),
  );
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(file, "utf8").replace(/^\s*\/\/.*$/gm, "");
    const reached = [...source.matchAll(IMPORT)].flatMap((m) => targets(file, m[1] ?? m[2] ?? m[3] ?? m[4], files));
    edges.set(file, [...new Set(reached)]);
  }
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
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

test("no module of app/ imports itself through others", () => {
  const app = path.join(BILINGUE_TEST_ROOT, "app");
  assert.ok(existsSync(path.join(app, "routes.ts")), app);
  assert.deepEqual(importCycles(app, path.join(app, "test/cycle-fixture")), [], "import cycles in app/ (each line is one cycle's files)");
});

test("a cycle is found, through a dynamic import and a type-only one", () => {
  const cycles = importCycles(path.join(BILINGUE_TEST_ROOT, "app/test/cycle-fixture"));
  assert.deepEqual(cycles, [["a.ts", "b.ts"]]);
});
