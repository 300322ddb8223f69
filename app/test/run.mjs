// Runs the app's unit tests (app/**/*.test.ts[x]) with Node's test runner: each file is
// bundled by esbuild first, as the app itself is (its tables compiled by the catalogue
// plugin), so tests see the same module graph. The build code's own tests
// (app/**/*.test.mjs, e.g. the catalogue's corpus) run as they are.
import { build } from "esbuild";
import { catalogue } from "../bundling/catalogue.mjs";
import { stringFizz } from "../bundling/string-fizz.mjs";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
const all = readdirSync(path.join(root, "app"), { recursive: true });
const tests = all.filter((f) => /\.test\.tsx?$/.test(f)).map((f) => path.join("app", f));
const buildTests = all.filter((f) => /\.test\.mjs$/.test(f)).map((f) => path.join(root, "app", f));
if (tests.length === 0) {
  console.error("no test files under app/");
  process.exit(1);
}
const outDir = mkdtempSync(path.join(tmpdir(), "bilingue-unit-"));
try {
  await build({
    absWorkingDir: root,
    entryPoints: tests,
    outdir: outDir,
    outbase: "app",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    jsx: "automatic",
    outExtension: { ".js": ".mjs" },
    define: { BILINGUE_VERSION: '"test"', BILINGUE_BUILD_TIME: "0", BILINGUE_SERVER: "true", BILINGUE_TEST_ROOT: JSON.stringify(root) },
    logLevel: "warning",
    // The server's React renderer, as the server bundle has it (app/server/streaming.ts imports
    // it); its development build, as React itself is here (NODE_ENV is not "production").
    plugins: [catalogue(root), stringFizz(root, true)],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  const files = readdirSync(outDir, { recursive: true }).filter((f) => f.endsWith(".test.mjs")).map((f) => path.join(outDir, f));
  const result = spawnSync(process.execPath, ["--test", ...files, ...buildTests], { stdio: "inherit" });
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
