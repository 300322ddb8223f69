// The "Add a screen" recipe of docs/screens.md, followed block by block on a copy of the
// app (each block goes where its `<!-- recipe: … -->` line says): it touches three files
// and the tables, type-checks, and makes a page that is server-rendered with its data in
// both languages, at its path in each (as the build declares it), listed in the sitemap.
// The copy runs in the development loop, with the binary under test.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { copyOfTheApp, startDevLoop } from "./devloop.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The recipe's steps: where each block goes, and the block. */
async function recipe() {
  const doc = await readFile(path.join(root, "docs/screens.md"), "utf8");
  const steps = [...doc.matchAll(/<!-- recipe: (\{.*\}) -->\n```\w*\n([\s\S]*?)```/g)].map(([, where, block]) => ({ ...JSON.parse(where), block }));
  assert.ok(steps.length > 0, "docs/screens.md has no recipe blocks");
  return steps;
}

/** Puts each block where the recipe says, in the copy; the files it touched. */
async function follow(copy, steps) {
  const touched = new Set();
  for (const { file, after: anchorAfter, before: anchorBefore, block } of steps) {
    touched.add(file);
    if (anchorAfter === undefined && anchorBefore === undefined) {
      await copy.write(file, block);
      continue;
    }
    const text = await copy.read(file);
    const anchor = anchorAfter ?? anchorBefore;
    const at = text.indexOf(anchor);
    assert.notEqual(at, -1, `${file} no longer has ${JSON.stringify(anchor)}: update docs/screens.md`);
    const cut = anchorAfter !== undefined ? at + anchor.length : at + 1;
    await copy.write(file, text.slice(0, cut) + block + text.slice(cut));
  }
  return [...touched].sort();
}

let copy;
let loop;
let touched;
before(async () => {
  const steps = await recipe();
  copy = await copyOfTheApp(async () => {});
  touched = await follow(copy, steps);
  loop = await startDevLoop(copy);
});
after(async () => {
  await loop?.stop();
  await copy?.remove();
});

test("the recipe touches the screen, its route and the tables, and nothing else", () => {
  assert.deepEqual(touched, ["app/i18n/tables/en.ts", "app/i18n/tables/fr.ts", "app/routes.ts", "app/ui/Clock.tsx"]);
});

test("the app it makes type-checks: the screen's data is typed from its check, with no cast", () => {
  const checked = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", copy.dir], { encoding: "utf8" });
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
});

test("the app's own unit tests stay green on the copy, with no other edit (npm test)", () => {
  const ran = spawnSync(process.execPath, [path.join(copy.dir, "app/test/run.mjs")], { cwd: copy.dir, encoding: "utf8" });
  assert.equal(ran.status, 0, (ran.stdout + ran.stderr).split("\n").filter((l) => /^not ok|# fail|Error/.test(l)).join("\n"));
});

test("the new page is rendered on the server with its data, in both languages, at its path in each", async () => {
  const manifest = JSON.parse(await copy.read("dev-app/manifest.json"));
  const { paths } = manifest.routes.find(({ name }) => name === "clock");
  assert.notEqual(paths.fr, paths.en, "the recipe translates the path");
  const sitemap = await (await fetch(`${loop.baseUrl}/sitemap.xml`)).text();
  for (const [language, text] of [["fr", /Sur le serveur, il est [^<]*\d{4}[^<]*\./], ["en", /On the server, it is [^<]*\d{4}[^<]*\./]]) {
    const url = `/${language}${paths[language]}`;
    const answer = await fetch(loop.baseUrl + url);
    assert.equal(answer.status, 200, url);
    const html = await answer.text();
    assert.match(html, text, url);
    assert.match(html, /"serverTime":"20/, `${url}: the boot state carries the data`);
    assert.ok(sitemap.includes(`${url}</loc>`), `${url} in the sitemap`);
  }
  // The other language's words under a prefix lead to the page's own path there.
  const elsewhere = await fetch(`${loop.baseUrl}/fr${paths.en}`, { redirect: "manual" });
  assert.equal(elsewhere.status, 308);
  assert.equal(elsewhere.headers.get("location"), `/fr${paths.fr}`);
});
