// The keys' ids of a production client: which keys get one, where a key is rewritten and
// where it is not, and the app's own build, whose pages show the same text with them.
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleOptions, messageGroupsOf } from "../bundle.mjs";
import { messageIds, rewritten, withMessageIds } from "./message-ids.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

test("each key named whole gets an id, shortest first; a key built at run time, or without a dot, keeps its name", () => {
  const ids = messageIds(["site.name", "emoji.1f602", "route.home.title", "plain"], new Set(["emoji.1f602"]));
  assert.deepEqual([...ids], [
    ["site.name", "a"],
    ["route.home.title", "b"],
  ]);
});

test("an id is never digits alone (an object would list it first) nor one of the catalogue's keys", () => {
  const keys = Array.from({ length: 40 }, (_, i) => `k.${i}`);
  const ids = messageIds(["a", "c", ...keys], new Set());
  const written = [...ids.values()];
  assert.equal(written.length, 40);
  assert.ok(written.every((id) => !/^\d+$/.test(id) && id !== "a" && id !== "c"), written.join(" "));
  assert.equal(new Set(written).size, 40, "each id once");
  assert.deepEqual(Object.keys(Object.fromEntries(written.map((id) => [id, 0]))), written, "an object keeps them in the catalogue's order");
});

test("the plugin rewrites the app's TypeScript, not its tables, JavaScript or JSON (whose keys keep their names)", () => {
  assert.ok(rewritten("app/ui/Home.tsx") && rewritten("app/routes.ts"));
  for (const file of ["app/i18n/tables/fr.ts", "app/ui/labels.js", "app/i18n/languages.json", "app/x.mts"]) assert.ok(!rewritten(file), file);
});

test("a key is rewritten where it is a string of its own, and nowhere else", () => {
  const ids = new Map([
    ["site.name", "0"],
    ["home.title", "1"],
  ]);
  const code = [
    'const a = t("site.name"), b = t(`home.title`, { n: 1 });',
    'const c = { "site.name": "home.title", d: "" , e: "x" };',
    "// site.name in a comment, 'home.title' too",
    'const f = "the site.name", g = `home.title${1}`, h = "home.titles";',
    'const i = "", j = "a\\"b", k = t("home.title"), l = String.raw`home.title`;',
  ].join("\n");
  const written = withMessageIds(code, ids);
  assert.equal(
    written,
    [
      'const a = t("0"), b = t("1", { n: 1 });',
      'const c = { "0": "1", d: "" , e: "x" };',
      "// site.name in a comment, 'home.title' too",
      'const f = "the site.name", g = `home.title${1}`, h = "home.titles";',
      'const i = "", j = "a\\"b", k = t("1"), l = String.raw`home.title`;',
    ].join("\n"),
  );
});

test("the app's production client: no key it names whole is left in its assets, and its modules of messages are keyed by the same ids as its code", async () => {
  const outDir = await mkdtemp(path.join(os.tmpdir(), "bilingue-message-ids-"));
  try {
    const options = await bundleOptions({ root, outDir, dev: false, buildTime: 0 });
    await messageGroupsOf(root, options);
    const ids = options.split.messageIds;
    assert.ok(ids && ids.size > 20, "the production client has ids");
    await build(options.client);
    const assets = path.join(outDir, "assets");
    const texts = await Promise.all((await readdir(assets)).filter((file) => file.endsWith(".js")).map((file) => readFile(path.join(assets, file), "utf8")));
    const all = texts.join("\n");
    for (const key of ids.keys()) assert.ok(!all.includes(JSON.stringify(key)), `${key} is in the assets`);
    // The status page's heading, asked for in its screen and carried by its messages, in both.
    // An id is a name a minifier may write bare as a property (`{c1:…}`), quoted elsewhere.
    const id = ids.get("status.heading");
    assert.ok(texts.some((text) => text.includes(`"${id}":`) || new RegExp(`[{,]${id}:`).test(text)), "a module of messages keyed by the heading's id");
    assert.ok(texts.some((text) => text.includes(`("${id}")`) || text.includes(`("${id}",`)), "a screen asking for the heading's id");
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});

test("a development client keeps the keys' names", async () => {
  const options = await bundleOptions({ root, outDir: path.join(os.tmpdir(), "bilingue-message-ids-dev"), dev: true, buildTime: 0 });
  await messageGroupsOf(root, options);
  assert.equal(options.split.messageIds, null);
});
