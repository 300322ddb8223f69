// The development loop on a temporary copy of the app, for tests that edit it: the copy
// has the app, the package files and a link to node_modules, and runs its own
// app/dev.mjs with the binary under test.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BINARY } from "./support.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** A copy of the app to edit; `prepare(dir)` may change it before the loop starts. */
export async function copyOfTheApp(prepare = async () => {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bilingue-dev-"));
  await cp(path.join(root, "app"), path.join(dir, "app"), { recursive: true });
  for (const file of ["package.json", "tsconfig.json"]) await cp(path.join(root, file), path.join(dir, file));
  await symlink(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  await prepare(dir);
  return {
    dir,
    file: (relative) => path.join(dir, relative),
    read: (relative) => readFile(path.join(dir, relative), "utf8"),
    write: (relative, text) => writeFile(path.join(dir, relative), text),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * A copy of the app with one more language, added as docs/pages-and-languages.md says:
 * its entry in the one list, and its table, made from the English one with `messages` in
 * place of its own and `dateLocale` (a date-fns locale's export name) as its date locale.
 */
export function copyWithLanguage({ code, locale, name, direction, dateLocale, messages }) {
  return copyOfTheApp(async (dir) => {
    const file = (relative) => path.join(dir, relative);
    const list = JSON.parse(await readFile(file("app/i18n/languages.json"), "utf8"));
    list.languages.push({ code, locale, name, direction });
    await writeFile(file("app/i18n/languages.json"), JSON.stringify(list, null, 2));
    const translated = Object.entries(messages).reduce(
      (table, [key, value]) => table.replace(new RegExp(`"${key.replace(".", "\\.")}": "[^"]*"`), `"${key}": ${JSON.stringify(value)}`),
      await readFile(file("app/i18n/tables/en.ts"), "utf8"),
    );
    const table = [
      ["const en", `const ${code}`],
      ["export default en;", `export default ${code};`],
      ['export { enUS as dateLocale } from "date-fns/locale/en-US";', `export { ${dateLocale} as dateLocale } from "date-fns/locale/${dateLocale}";`],
    ].reduce((text, [from, to]) => {
      assert.ok(text.includes(from), `app/i18n/tables/en.ts no longer has ${from}`);
      return text.replaceAll(from, to);
    }, translated);
    await writeFile(file(`app/i18n/tables/${code}.ts`), table);
  });
}

/**
 * One copy (made by `makeCopy`) and one loop for a whole test file, started by the first
 * scenario that asks: `loop()` resolves to it, `stop()` ends it and removes the copy.
 */
export function oneLoopPerFile(makeCopy) {
  /** @type {Promise<{ baseUrl: string, dir: string, stop: () => Promise<void> }> | undefined} */
  let running;
  return {
    loop() {
      running ??= makeCopy().then(async (copy) => {
        const loop = await startDevLoop(copy);
        return {
          baseUrl: loop.baseUrl,
          dir: copy.dir,
          output: loop.output,
          async stop() {
            await loop.stop();
            await copy.remove();
          },
        };
      });
      return running;
    },
    stop: async () => (await running)?.stop(),
  };
}

/**
 * Runs the copy's `app/dev.mjs` with the binary under test (and `hostOptions` for it, and
 * `flags` for the loop, e.g. `--pseudo`); resolves once the host listens.
 */
export async function startDevLoop(copy, hostOptions = [], flags = []) {
  const loopOptions = ["--binary", BINARY, "--port", "0", "--out", copy.file("dev-app"), ...flags];
  const child = spawn(process.execPath, [copy.file("app/dev.mjs"), ...loopOptions, "--", ...hostOptions], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const baseUrl = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the loop did not start in 60 s:\n${output}`)), 60_000);
    const look = () => {
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        child.stdout.off("data", look);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", look);
    child.on("exit", (code) => reject(new Error(`the loop exited with ${code}:\n${output}`)));
  });
  // The host warms up after it listens.
  for (let ready = false; !ready; await new Promise((r) => setTimeout(r, 50))) {
    ready = await fetch(`${baseUrl}/readyz`).then((r) => r.ok, () => false);
  }
  return {
    baseUrl,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
