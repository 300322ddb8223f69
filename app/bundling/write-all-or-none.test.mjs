// The tables are written all or none (write-all-or-none.mjs): a failure at any step, the
// one between two tables' renames included, leaves every file as it was and nothing
// beside them; the import (translators-command.mjs) writes so.
import assert from "node:assert/strict";
import { copyFile, mkdtemp, readdir, readFile, rename, rm, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { exportMessages, importMessages } from "./translators-command.mjs";
import { copyOfTheTables, editPo, entry, languages } from "./translators-test-support.mjs";
import { writeAllOrNone } from "./write-all-or-none.mjs";

const folders = [];
after(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

async function threeFiles() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bilingue-all-or-none-"));
  folders.push(dir);
  for (const name of ["a.ts", "b.ts", "c.ts"]) await writeFile(path.join(dir, name), `old ${name}\n`);
  const contents = async () => Object.fromEntries(await Promise.all((await readdir(dir)).sort().map(async (name) => [name, await readFile(path.join(dir, name), "utf8")])));
  return { dir, contents, texts: new Map(["a.ts", "b.ts", "c.ts"].map((name) => [name, `new ${name}\n`])) };
}

/** node:fs/promises, but `step` fails on its `nth` call (1-based), as a full disk would. */
function failingOn(step, nth) {
  let calls = 0;
  const real = { copyFile, rename, unlink, writeFile };
  return {
    ...real,
    [step]: (...args) => {
      calls += 1;
      if (calls === nth) return Promise.reject(Object.assign(new Error("EIO: i/o error"), { code: "EIO", path: args[0] }));
      return real[step](...args);
    },
  };
}

test("every file written, and nothing left beside them", async () => {
  const { dir, contents, texts } = await threeFiles();
  await writeAllOrNone(dir, texts);
  assert.deepEqual(await contents(), { "a.ts": "new a.ts\n", "b.ts": "new b.ts\n", "c.ts": "new c.ts\n" });
});

for (const [step, nth, what] of [
  ["rename", 2, "between the first table's rename and the second's"],
  ["rename", 3, "before the last rename"],
  ["writeFile", 2, "while the new texts are written"],
  ["copyFile", 3, "while the old texts are kept"],
]) {
  test(`a failure ${what}: no file changed, none left`, async () => {
    const { dir, contents, texts } = await threeFiles();
    const before = await contents();
    await assert.rejects(writeAllOrNone(dir, texts, failingOn(step, nth)), /^Error: could not write [abc]\.ts \(EIO\), so no table was changed$/);
    assert.deepEqual(await contents(), before);
  });
}

test("the import writes its tables so: a failure between two leaves both as they were", async () => {
  const { codes, first, other } = await languages();
  const app = await copyOfTheTables();
  const before = await app.snapshot();
  await exportMessages(app.dir, "po", app.files);
  for (const code of [first.code, other.code]) {
    await editPo(path.join(app.files, `${code}.po`), (translations) => void (entry(translations, "home.click").msgstr = [`Changed ${code}`]));
  }
  assert.ok(codes.length >= 2);
  await assert.rejects(importMessages(app.dir, app.files, { fileSystem: failingOn("rename", 2) }), /^Error: could not write app\/i18n\/tables\/\w+\.ts \(EIO\), so no table was changed$/);
  assert.deepEqual(await app.snapshot(), before);
  const imported = await importMessages(app.dir, app.files);
  assert.equal(imported.written.length, 2, "and without the failure, both are written");
});
