// The catalogue's corpus (app/bundling/corpus/): a good catalogue that passes, broken tables
// that each fail the build's check, and broken call sites that each fail the type check,
// every one with the message its first line (or its `// expect:` comment) says, naming
// the file, the line, the key and the language. Run by `node app/test/run.mjs`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkAppCatalogue } from "./catalogue.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const corpus = "app/bundling/corpus";
const LOCALES = { fr: "fr-FR", en: "en-US" };
const good = [
  { code: "fr", locale: LOCALES.fr, file: `${corpus}/good/fr.ts` },
  { code: "en", locale: LOCALES.en, file: `${corpus}/good/en.ts` },
];
const describe = ({ file, line, text }) => `${file}${line ? `:${line}` : ""}: ${text}`;
const check = (tables) => checkAppCatalogue(root, { tables, sources: [], declarations: null });

test("the corpus's good catalogue passes, without a warning", async () => {
  const { errors, warnings } = await check(good);
  assert.deepEqual(errors.map(describe), []);
  // Its keys are used by no source given: that is all it is warned of.
  assert.deepEqual(warnings.filter((w) => !/is used nowhere/.test(w.text)).map(describe), []);
});

test("the app's own catalogue passes", async () => {
  const { errors } = await checkAppCatalogue(root, { declarations: null });
  assert.deepEqual(errors.map(describe), []);
});

test("the host's texts are each language's host. messages, as plain text, and no key is unused for being the host's", async () => {
  const { hostTexts, warnings } = await checkAppCatalogue(root, { declarations: null });
  const keys = ["comeBackLater", "errorPageText", "errorPageTitle", "serverError"];
  for (const language of ["fr", "en"]) assert.deepEqual(Object.keys(hostTexts[language]).sort(), keys, language);
  assert.equal(hostTexts.en.errorPageTitle, "Server error");
  assert.equal(hostTexts.fr.errorPageTitle, "Erreur du serveur");
  assert.deepEqual(warnings.filter((w) => w.text.includes('"host.')).map(describe), []);
});

test("a language may be partial: what it lacks is its chain's, marked as such, and the build says how much it has", async () => {
  const partial = [good[0], { ...good[1], file: `${corpus}/broken/key-missing-in-a-complete-language.en.ts` }];
  const { errors, coverage, messages, fallbacks } = await check(partial);
  assert.deepEqual(errors.map(describe), []);
  assert.equal(coverage.length, 1);
  assert.deepEqual({ ...coverage[0], missing: coverage[0].missing }, { language: "en", translated: 6, total: 7, fallsBackTo: ["fr"], missing: ["user.greeting"] });
  assert.equal(messages.get("en").get("user.greeting"), messages.get("fr").get("user.greeting"), "the French message, in English pages");
  assert.deepEqual([...fallbacks.get("en")], [["user.greeting", "fr"]]);
  assert.deepEqual([...fallbacks.get("fr")], []);
});

test("a regional variant says what differs: the rest is its parent's, then the default's", async () => {
  const variant = { code: "en-GB", locale: "en-GB", parent: "en", file: `${corpus}/good/en-GB.ts` };
  const { errors, coverage, messages, fallbacks } = await check([...good, variant]);
  assert.deepEqual(errors.map(describe), []);
  assert.equal(coverage.find(({ language }) => language === "en-GB").translated, 1);
  assert.deepEqual(coverage.find(({ language }) => language === "en-GB").fallsBackTo, ["en", "fr"]);
  assert.equal(messages.get("en-GB").get("page.title"), JSON.stringify("Home page"));
  assert.equal(messages.get("en-GB").get("cart.items"), messages.get("en").get("cart.items"));
  // What it inherits from its parent is its own language's, unmarked.
  assert.deepEqual([...fallbacks.get("en-GB")], []);
  // What comes from another language, through a partial parent, is marked with it.
  const partialParent = { ...good[1], file: `${corpus}/broken/key-missing-in-a-complete-language.en.ts` };
  const throughPartial = await check([good[0], partialParent, variant]);
  assert.deepEqual([...throughPartial.fallbacks.get("en-GB")], [["user.greeting", "fr"]]);
});

const broken = readdirSync(path.join(root, corpus, "broken")).sort();

test("the corpus has at least 20 broken catalogues and call sites", () => {
  const calls = readdirSync(path.join(root, corpus, "calls")).filter((f) => /^(?!good)[\w-]+\.ts$/.test(f) && !f.endsWith(".generated.ts"));
  assert.ok(broken.length + calls.length >= 20, `${broken.length} tables, ${calls.length} call sites`);
});

for (const name of broken) {
  const [, language] = name.match(/\.(\w+)\.ts$/);
  const file = `${corpus}/broken/${name}`;
  const source = readFileSync(path.join(root, file), "utf8");
  const [, kind, expected] = source.match(/^\/\/ expect (error|warning): (.+)$/m);
  test(`broken table ${name}: ${kind} "${expected}"`, async () => {
    // A table whose source says `// complete: true` is of a language promised whole.
    const complete = /^\/\/ complete: true$/m.test(source);
    const tables = good.map((table) => (table.code === language ? { ...table, file, complete } : table));
    const { errors, warnings } = await check(tables);
    const found = (kind === "error" ? errors : warnings).filter((p) => describe(p).includes(expected));
    assert.equal(found.length, 1, `expected one ${kind} with "${expected}", got:\n${[...errors, ...warnings].map(describe).join("\n")}`);
    if (kind === "warning") assert.deepEqual(errors.map(describe), [], "a warning only");
    const [problem] = found;
    assert.equal(problem.file, file, `names the file the mistake is in: ${describe(problem)}`);
    const key = problem.text.match(/^message "([^"]+)"/)?.[1];
    if (key) {
      assert.match(problem.text, new RegExp(`\\b(${Object.keys(LOCALES).join("|")})\\b`), "names the language");
      if (problem.line) {
        const lineText = readFileSync(path.join(root, problem.file), "utf8").split("\n")[problem.line - 1];
        assert.ok(lineText.includes(`"${key}"`), `its line is the key's: ${problem.line}: ${lineText}`);
      }
    }
  });
}

test("every broken call site fails the type check where it says, and the good ones pass", async () => {
  // The good catalogue's declarations, beside the call sites, as the build writes the app's.
  const declarations = path.join(root, corpus, "calls/messages.generated.ts");
  const { errors } = await checkAppCatalogue(root, { tables: good, sources: [], declarations, write: true });
  assert.deepEqual(errors, []);
  const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "--noEmit", "--pretty", "false", "-p", `${corpus}/calls`], {
    cwd: root,
    encoding: "utf8",
  });
  const reported = tsc.stdout.split("\n").filter(Boolean);
  const expected = [];
  for (const name of readdirSync(path.join(root, corpus, "calls")).filter((f) => f.endsWith(".ts") && !f.endsWith(".generated.ts"))) {
    const lines = readFileSync(path.join(root, corpus, "calls", name), "utf8").split("\n");
    lines.forEach((line, index) => {
      const marked = line.match(/\/\/ expect: (.+)$/);
      if (marked) expected.push({ at: `${corpus}/calls/${name}(${index + 1},`, text: marked[1] });
    });
  }
  assert.ok(expected.length >= 10, `${expected.length} marked call sites`);
  for (const { at, text } of expected) {
    assert.ok(
      reported.some((line) => line.startsWith(at) && line.includes(text)),
      `${at}…) should fail with "${text}"; tsc said:\n${reported.join("\n")}`,
    );
  }
  const unexpected = reported.filter((line) => !expected.some(({ at }) => line.startsWith(at)));
  assert.deepEqual(unexpected, [], "no other error (good.ts passes)");
});
