// A copy of the app to make the site in, as the end-to-end tests copy it (e2e/devloop.mjs):
// app/, the package files and a link to node_modules. The site replaces what a site owns
// (its routes, its screens, its languages and their tables) and keeps the framework: the
// entries, navigation, the i18n machinery, data/, http/, and the parts of app/ui/ the
// framework itself imports (the spinner, the language select, notifications…), found by
// following imports from everything outside app/ui/ but the routes. The app's own tests
// are left out: they test the app's screens and words, not the site's.
import { cp, readdir, readFile, rm, symlink } from "node:fs/promises";
import path from "node:path";

/** Copies the app at `root` into `dir` (which exists): app/, package.json, tsconfig.json, node_modules linked. */
export async function copyApp(root, dir) {
  await cp(path.join(root, "app"), path.join(dir, "app"), {
    recursive: true,
    filter: (source) => !/\.test\.[cm]?[jt]sx?$/.test(source) && !source.endsWith(`${path.sep}app${path.sep}test`),
  });
  for (const file of ["package.json", "tsconfig.json"]) await cp(path.join(root, file), path.join(dir, file));
  await symlink(path.join(root, "node_modules"), path.join(dir, "node_modules"));
}

const CODE = /\.(?:tsx?|mjs)$/;
const IMPORTS = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** A relative import of `from`, as a file of the app (the extensions esbuild tries). */
function resolved(files, from, specifier) {
  const base = path.posix.join(path.posix.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((file) => files.has(file)) ?? null;
}

/**
 * What the framework keeps of the app in `dir`: { kept: files of app/ (relative to
 * `dir`, posix) that are the framework's, screens: the app's own screens, to remove }.
 */
export async function frameworkOf(dir) {
  const files = new Set((await readdir(path.join(dir, "app"), { recursive: true })).map((file) => `app/${file.split(path.sep).join("/")}`));
  const isScreenSide = (file) => file.startsWith("app/ui/") || file === "app/routes.ts";
  const reached = new Set([...files].filter((file) => CODE.test(file) && !isScreenSide(file) && !file.includes("/corpus/")));
  const queue = [...reached];
  while (queue.length > 0) {
    const file = queue.pop();
    const text = await readFile(path.join(dir, file), "utf8");
    for (const [, specifier] of text.matchAll(IMPORTS)) {
      const target = resolved(files, file, specifier);
      if (target && target !== "app/routes.ts" && !reached.has(target)) {
        reached.add(target);
        if (CODE.test(target)) queue.push(target);
      }
    }
  }
  const screens = [...files].filter((file) => file.startsWith("app/ui/") && CODE.test(file) && !reached.has(file));
  return { kept: [...reached].filter((file) => CODE.test(file)), screens };
}

/** Removes the app's screens and tables from the copy in `dir`: the site writes its own. */
export async function removeAppsOwn(dir, screens) {
  for (const file of screens) await rm(path.join(dir, file));
  await rm(path.join(dir, "app/i18n/tables"), { recursive: true });
}

/**
 * The keys of `table` (the app's default table) that the framework's files name as a
 * string, as the catalogue sees a key used (build code aside), and the host's own (`host.`).
 */
export async function frameworkKeys(dir, kept, table) {
  const texts = await Promise.all(kept.filter((file) => !/^app\/(i18n\/tables|bundling)\/|\.generated\.ts$/.test(file)).map((file) => readFile(path.join(dir, file), "utf8")));
  return Object.keys(table).filter((key) => key.startsWith("host.") || texts.some((text) => text.includes(`"${key}"`) || text.includes(`'${key}'`)));
}
