// What the catalogue's typing costs the type check: a copy of the app whose tables carry
// 5,000 more keys (plain text, arguments, plurals, selects, in French and English) and a
// file that calls t() once for each, type-checked with the generated declarations
// (app/i18n/messages.generated.ts, as `node app/bundling/catalogue.mjs` writes them) and
// without them (t taking any string, as before the catalogue was typed), in turns. Writes
// its section of BENCHMARKS.md (run it under the heavy lock: it keeps a core busy).
//   node bench/catalogue-tsc.mjs [--keys 5000] [--rounds 5] [--no-write]   (KEEP=1 keeps the copy)
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeSection } from "./support.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const option = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const KEYS = Number(option("--keys", 5000));
const ROUNDS = Number(option("--rounds", 5));
const write = !process.argv.includes("--no-write");
const BENCHMARKS = path.join(root, "BENCHMARKS.md");
const MARKER = "<!-- bench/catalogue-tsc.mjs -->";

/** One generated message per key, of four kinds, and the call that uses it. */
function message(i) {
  const key = `generated.k${String(i).padStart(5, "0")}`;
  switch (i % 4) {
    case 0:
      return { key, fr: `Texte numéro ${i}`, en: `Text number ${i}`, call: `t("${key}")` };
    case 1:
      return { key, fr: `Bonjour {name}, voici ${i}`, en: `Hello {name}, here is ${i}`, call: `t("${key}", { name: "Zoé" })` };
    case 2:
      return {
        key,
        fr: `{count, plural, one {# objet ${i}} many {# d’objets ${i}} other {# objets ${i}}}`,
        en: `{count, plural, one {# thing ${i}} other {# things ${i}}}`,
        call: `t("${key}", { count: ${i} })`,
      };
    default:
      return {
        key,
        fr: `{kind, select, a {Un ${i}} b {Deux} other {Autre}} : {n, number}`,
        en: `{kind, select, a {One ${i}} b {Two} other {Other}}: {n, number}`,
        call: `t("${key}", { kind: "a", n: 1 })`,
      };
  }
}

function withKeys(source, language, messages) {
  const end = source.lastIndexOf("\n};\n");
  const lines = messages.map((m) => `  ${JSON.stringify(m.key)}: ${JSON.stringify(m[language])},`);
  return `${source.slice(0, end)}\n${lines.join("\n")}${source.slice(end)}`;
}

const LOOSE = [
  "// Without the generated types: any key, any arguments.",
  "export type Messages = Record<string, any>;",
  "export type PlainKey = string;",
  "",
].join("\n");

const dir = mkdtempSync(path.join(tmpdir(), "bilingue-catalogue-tsc-"));
try {
  cpSync(path.join(root, "app"), path.join(dir, "app"), {
    recursive: true,
    // Its tests left out: one expects a type error that only the generated types give.
    filter: (file) => !file.includes(`${path.sep}corpus`) && !/\.generated\.ts$|\.test\.tsx?$/.test(file),
  });
  for (const file of ["package.json"]) cpSync(path.join(root, file), path.join(dir, file));
  const tsconfig = JSON.parse(readFileSync(path.join(root, "tsconfig.json"), "utf8"));
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ ...tsconfig, include: ["app"], exclude: ["app/bundling/corpus"] }, null, 2));
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));

  const messages = Array.from({ length: KEYS }, (_, i) => message(i));
  for (const language of ["fr", "en"]) {
    const file = path.join(dir, `app/i18n/tables/${language}.ts`);
    writeFileSync(file, withKeys(readFileSync(file, "utf8"), language, messages));
  }
  writeFileSync(
    path.join(dir, "app/generatedCalls.ts"),
    [
      'import { createTranslator } from "./i18n/translate";',
      'import fr from "./i18n/tables/fr";',
      "",
      'const t = createTranslator(fr, "fr-FR");',
      "export const texts = [",
      ...messages.map((m) => `  ${m.call},`),
      "];",
      "",
    ].join("\n"),
  );

  // Wall time, and, when GNU time is there, the CPU time of the process and its children:
  // on a shared machine the CPU time is the steadier of the two.
  const gnuTime = existsSync("/usr/bin/time");
  const time = (command, args) => {
    const cpuFile = path.join(dir, "cpu.txt");
    const started = performance.now();
    const run = gnuTime
      ? spawnSync("/usr/bin/time", ["-f", "%U %S", "-o", cpuFile, command, ...args], { cwd: dir, encoding: "utf8" })
      : spawnSync(command, args, { cwd: dir, encoding: "utf8" });
    const wall = performance.now() - started;
    if (run.status !== 0) throw new Error(`${args.join(" ")} failed:\n${run.stdout}\n${run.stderr}`);
    const cpu = gnuTime ? readFileSync(cpuFile, "utf8").trim().split(/\s+/).reduce((sum, s) => sum + Number(s) * 1000, 0) : null;
    return { wall, cpu };
  };
  const generation = time(process.execPath, ["app/bundling/catalogue.mjs"]);
  const declarations = path.join(dir, "app/i18n/messages.generated.ts");
  const typed = readFileSync(declarations, "utf8");
  const tsc = () => time(process.execPath, ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."]);
  const samples = { typed: [], loose: [] };
  tsc(); // warms the file cache
  for (let round = 0; round < ROUNDS; round++) {
    writeFileSync(declarations, LOOSE);
    samples.loose.push(tsc());
    writeFileSync(declarations, typed);
    samples.typed.push(tsc());
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const seconds = (ms) => (ms === null ? "–" : `${(ms / 1000).toFixed(2)} s`);
  const percent = (a, b) => (a === null ? "–" : `${((a / b) * 100).toFixed(0)}%`);
  const of = (kind, measure) => median(samples[kind].map((s) => s[measure]));
  const cpu = gnuTime ? { loose: of("loose", "cpu"), typed: of("typed", "cpu") } : null;
  const wall = { loose: of("loose", "wall"), typed: of("typed", "wall") };
  const typescript = JSON.parse(readFileSync(path.join(root, "node_modules/typescript/package.json"), "utf8")).version;
  const section = [
    MARKER,
    "## The type check with a large catalogue",
    "",
    `Run ${new Date().toISOString()} by \`node bench/catalogue-tsc.mjs\`: the app with ${KEYS} more keys in each table (a quarter each plain, with an argument, plural, select)`,
    `and one t() call per key (the app's tests left out), \`tsc --noEmit\` (TypeScript ${typescript}), median of ${ROUNDS} runs each, in turns.`,
    "Without the generated types, t() takes any key and any arguments; with them, keys and arguments are checked.",
    "",
    "| What | CPU time | Wall time | We aim for |",
    "|---|---:|---:|---:|",
    `| tsc without the generated types | ${seconds(cpu?.loose ?? null)} | ${seconds(wall.loose)} | |`,
    `| tsc with the generated types | ${seconds(cpu?.typed ?? null)} | ${seconds(wall.typed)} | |`,
    `| With ÷ without | ${percent(cpu?.typed ?? null, cpu?.loose)} | ${percent(wall.typed, wall.loose)} | ≤ 110% |`,
    `| The build's catalogue check and declarations (\`node app/bundling/catalogue.mjs\`, ${KEYS} keys × 2 languages) | ${seconds(generation.cpu)} | ${seconds(generation.wall)} | |`,
    "",
    `Samples, wall (s), without: ${samples.loose.map((s) => (s.wall / 1000).toFixed(2)).join(", ")}; with: ${samples.typed.map((s) => (s.wall / 1000).toFixed(2)).join(", ")}.`,
    "",
  ].join("\n");
  console.log(section);
  if (write) writeSection(BENCHMARKS, section);
} finally {
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  else console.log(dir);
}
