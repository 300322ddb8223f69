// Each language's route paths in its own module: which paths the client build splits out
// of app/routes.ts, what each language's module adds, and the app's own build.
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleOptions, messageGroupsOf } from "../bundle.mjs";
import { addPathsSource, languagePatterns, splitRoutesSource } from "./route-paths.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

// A routes file as an app writes it; its modules named with "~" so that the import graph's
// check (app/test/importCycles.test.ts) does not take this text for this file's imports.
const ROUTES = `
import { defineRoute, lazy, type Routes } from "~/data/route";
const SHARED = { fr: "/a", en: "/b" };
export const ROUTES = {
  home: defineRoute({ path: "/", screen: lazy(() => import("~/ui/Home")) }),
  status: defineRoute({ path: { fr: "/etat", "en-GB": "/status" } as const, screen: lazy(() => import("~/ui/Status")) }),
  shared: defineRoute({ path: SHARED, screen: lazy(() => import("~/ui/Shared")) }),
  built: defineRoute({ path: { fr: \`/x\${1}\`, en: "/y" }, screen: lazy(() => import("~/ui/Built")) }),
  other: notDefineRoute({ path: { fr: "/z", en: "/w" } }),
} satisfies Routes;
declare module "~/data/router" { interface Register { routes: typeof ROUTES } }
`;

test("only a path written as an object of strings, in `name: defineRoute({…})`, is split out", async () => {
  const { contents, routes } = await splitRoutesSource("/app", ROUTES);
  assert.deepEqual(routes, ["status"]);
  assert.match(contents, /path: __bilingueRoutePaths\("status"\)/);
  assert.doesNotMatch(contents, /"\/etat"/);
  assert.match(contents, /import \{ pathsOf as __bilingueRoutePaths \} from "\/app\/app\/data\/routePaths\.ts";/);
  // What is not a literal object stays as written: correct, and in the first load.
  for (const kept of ['path: "/"', "path: SHARED", '"/y"', '"/z"']) assert.ok(contents.includes(kept), kept);
});

test("a routes file without a translated path is left without the registry", async () => {
  const { contents, routes } = await splitRoutesSource("/app", 'export const ROUTES = { home: defineRoute({ path: "/" }) };');
  assert.deepEqual(routes, []);
  assert.doesNotMatch(contents, /routePaths/);
});

test("each language gets its own patterns of the split routes, as the manifest resolved them", () => {
  const manifest = [
    { name: "home", paths: { fr: "/", en: "/", "fr-CA": "/" } },
    { name: "status", paths: { fr: "/etat", en: "/status", "fr-CA": "/etat" } },
  ];
  assert.deepEqual(languagePatterns(["status"], manifest), { fr: { status: "/etat" }, en: { status: "/status" }, "fr-CA": { status: "/etat" } });
  assert.throws(() => languagePatterns(["gone"], manifest), /"gone" is missing/);
  assert.equal(addPathsSource("/app", { fr: {} }), "");
  assert.equal(
    addPathsSource("/app", { fr: { status: "/etat" }, "fr-XA": { status: "/etat" } }),
    'import { addPaths as __bilingueAddPaths } from "/app/app/data/routePaths.ts";\n__bilingueAddPaths("fr", {"status":"/etat"});\n__bilingueAddPaths("fr-XA", {"status":"/etat"});',
  );
});

test("the app's client build: the first load has no language's words for a path; each language's module has its own", async () => {
  const outDir = await mkdtemp(path.join(os.tmpdir(), "bilingue-route-paths-"));
  try {
    const options = await bundleOptions({ root, outDir, dev: false, buildTime: 0 });
    await messageGroupsOf(root, options);
    const { metafile } = await build({ ...options.client, minify: false });
    const outputs = Object.entries(metafile.outputs);
    const textOf = (entryPoint) => readFile(path.join(root, outputs.find(([, o]) => o.entryPoint === entryPoint)[0]), "utf8");
    const entry = await textOf("app/client.tsx");
    for (const words of ['"/etat"', '"/langues/:code"', '"/languages/:code"']) assert.ok(!entry.includes(words), `the entry has ${words}`);
    assert.match(await textOf("app/i18n/tables/fr.ts"), /"\/etat"[\s\S]*"\/langues\/:code"|"\/langues\/:code"[\s\S]*"\/etat"/);
    const en = await textOf("app/i18n/tables/en.ts");
    assert.ok(en.includes('"/languages/:code"') && !en.includes('"/langues/:code"'));
    assert.ok((await readdir(path.join(outDir, "assets"))).length > 0);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});
