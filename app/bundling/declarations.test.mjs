// app/i18n/messages.generated.ts is committed, so a fresh clone type-checks with no step
// first; this test holds it to what the tables make, as host/render/contract.rs holds
// app/contract.ts to the Rust types. Run by `node app/test/run.mjs` (so `cargo test`),
// which builds without writing it.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkAppCatalogue, DECLARATIONS } from "./catalogue.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

test(`${DECLARATIONS} is what the tables make`, async () => {
  const { errors, declarations } = await checkAppCatalogue(root);
  assert.equal(errors.length, 0, "the tables build (corpus.test.mjs names their errors)");
  const committed = await readFile(path.join(root, DECLARATIONS), "utf8").catch(() => null);
  if (committed === declarations) return;
  assert.ok(committed !== null, `${DECLARATIONS} is missing: run \`node app/bundling/catalogue.mjs\` and commit it`);
  const lines = committed.split("\n");
  const made = declarations.split("\n");
  let at = 0;
  while (lines[at] === made[at]) at++;
  assert.fail(
    `${DECLARATIONS} is not what the tables make: run \`node app/bundling/catalogue.mjs\` and commit it.\n` +
      `First difference, line ${at + 1}:\n  the file:   ${lines[at] ?? "(missing)"}\n  the tables: ${made[at]}`,
  );
});

test("a check writes no declarations (a build then cannot hide a stale file from the test above)", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "bilingue-declarations-"));
  try {
    const declarations = path.join(dir, "messages.generated.ts");
    const { errors } = await checkAppCatalogue(root, { declarations });
    assert.equal(errors.length, 0);
    assert.equal(existsSync(declarations), false, "only `node app/bundling/catalogue.mjs` (and npm run dev) write them");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
