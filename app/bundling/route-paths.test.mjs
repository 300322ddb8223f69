// Each language's route paths in its own module: which paths the client build splits out
// of app/routes.ts, what each language's module adds, and the app's own build.
import assert from "node:assert/strict";
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { build, transform } from "esbuild";
import { bundleOptions, messageGroupsOf } from "../bundle.mjs";
import { addPathsSource, languagePatterns, SERVER_ONLY, splitRoutes, splitRoutesSource } from "./route-paths.mjs";

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

test("the fields only the server reads are left out of the client's routes, wherever they are written, and nothing else", async () => {
  const source = `export const ROUTES = {
  home: defineRoute({ indexable: true, path: "/", titleKey: "site.name", descriptionKey: "home.description", sharing: { kind: "public" } }),
  status: defineRoute({ path: { fr: "/etat", en: "/status" }, descriptionKey: "status.description", indexable: async () => [{ code: "x" }], screen: lazy(() => import("~/ui/Status")), sharing: { kind: "private" } }),
  plain: defineRoute({ path: "/plain", titleKey: "plain.title" }),
  other: notDefineRoute({ path: "/w", sharing: { kind: "public" } }),
};
export const NOT_FOUND = defineRoute({ path: "", status: 404, titleKey: "notFound.title", descriptionKey: "notFound.description", indexable: false, sharing: { kind: "public" } });`;
  const { contents, routes } = await splitRoutesSource("/app", source);
  assert.deepEqual(routes, ["status"]);
  for (const field of SERVER_ONLY) assert.equal(contents.split(`${field}:`).length - 1, field === "sharing" ? 1 : 0, `${field} in ${contents}`);
  // What the client reads stays, as written; what is not `defineRoute` is not touched.
  for (const kept of ['path: "/"', 'titleKey: "site.name"', 'path: __bilingueRoutePaths("status")', 'screen: lazy(() => import("~/ui/Status"))', 'path: "/plain", titleKey: "plain.title"', 'path: "", status: 404, titleKey: "notFound.title" }', 'notDefineRoute({ path: "/w", sharing: { kind: "public" } })']) {
    assert.ok(contents.includes(kept), `${kept} in ${contents}`);
  }
  // The rewritten routes are still JavaScript.
  await transform(contents, { loader: "js", format: "esm" });
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
  // A split path is its route's own: a defineRoute elsewhere under a route's name is refused.
  const own = { route: "status", written: { fr: "/etat", en: "/status" } };
  assert.doesNotThrow(() => languagePatterns(["status"], manifest, [own]));
  assert.throws(
    () => languagePatterns(["status"], manifest, [{ route: "status", written: { fr: "/ancien-etat", en: "/old-status" } }]),
    /a defineRoute under the name "status" is not the route "status" of ROUTES \(its path in "fr" is "\/ancien-etat", the route's is "\/etat"\)/,
  );
  assert.throws(() => languagePatterns(["status", "status"], manifest, [own, own]), /"status" is not the route "status" of ROUTES \(it is written twice\)/);
  assert.equal(addPathsSource("/app", { fr: {} }), "");
  assert.equal(
    addPathsSource("/app", { fr: { status: "/etat" }, "fr-XA": { status: "/etat" } }),
    'import { addPaths as __bilingueAddPaths } from "/app/app/data/routePaths.ts";\n__bilingueAddPaths("fr", {"status":"/etat"});\n__bilingueAddPaths("fr-XA", {"status":"/etat"});',
  );
});

test("the app's client build: each language's module carries its own patterns and no other's; the entry carries fewer of them than the routes write", async () => {
  const outDir = await mkdtemp(path.join(os.tmpdir(), "bilingue-route-paths-"));
  try {
    const options = await bundleOptions({ root, outDir, dev: false, buildTime: 0 });
    await messageGroupsOf(root, options);
    const patterns = options.split.routePatterns;
    const { routes: split } = await splitRoutes(root);
    assert.ok(patterns && split.length > 0, "the app has translated routes, split");
    const built = async (client) => {
      const { metafile } = await build({ ...client, minify: false });
      const outputs = Object.entries(metafile.outputs);
      return (entryPoint) => readFile(path.join(root, outputs.find(([, o]) => o.entryPoint === entryPoint)[0]), "utf8");
    };
    const textOf = await built(options.client);
    const count = (text, pattern) => text.split(JSON.stringify(pattern)).length - 1;
    for (const [code, own] of Object.entries(patterns)) {
      const module = await textOf(`app/i18n/tables/${code}.ts`);
      for (const pattern of Object.values(own)) assert.ok(count(module, pattern) > 0, `${code}'s module has ${pattern}`);
      const others = Object.entries(patterns).flatMap(([other, theirs]) => (other === code ? [] : Object.values(theirs)));
      for (const pattern of others.filter((p) => !Object.values(own).includes(p))) assert.equal(count(module, pattern), 0, `${code}'s module has another's ${pattern}`);
    }
    // The same build with the paths left as written: every pattern a path object writes is there once more per language that writes it.
    const whole = await built({ ...options.client, plugins: options.client.plugins.filter((plugin) => plugin.name !== "route-paths") });
    const [entry, entryWhole] = await Promise.all([textOf("app/client.tsx"), whole("app/client.tsx")]);
    for (const pattern of new Set(Object.values(patterns).flatMap((own) => Object.values(own)))) {
      if (count(entryWhole, pattern) > 0) assert.ok(count(entry, pattern) < count(entryWhole, pattern), `the entry still has ${pattern}`);
    }
    assert.ok((await readdir(path.join(outDir, "assets"))).length > 0);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});

test("a route's path edited, and nothing else: the options are out of date, so the development loop builds again", async () => {
  // The loop builds with the patterns it had, then reads them again; a path's words are in
  // the language modules, so a new word must ask for the build once more.
  const copy = await mkdtemp(path.join(os.tmpdir(), "bilingue-route-edit-"));
  try {
    await cp(path.join(root, "app"), path.join(copy, "app"), { recursive: true });
    for (const file of ["package.json", "tsconfig.json"]) await cp(path.join(root, file), path.join(copy, file));
    await symlink(path.join(root, "node_modules"), path.join(copy, "node_modules"));
    const options = await bundleOptions({ root: copy, outDir: path.join(copy, "out"), dev: true, buildTime: 0 });
    await messageGroupsOf(copy, options);
    const french = options.split.routePatterns.fr.status;
    assert.equal(await messageGroupsOf(copy, options), false, "nothing changed");
    const routes = path.join(copy, "app/routes.ts");
    const source = await readFile(routes, "utf8");
    const edited = source.replace(`fr: ${JSON.stringify(french)}`, 'fr: "/statut"');
    assert.notEqual(edited, source, "the status route's French path is found");
    await writeFile(routes, edited);
    assert.equal(await messageGroupsOf(copy, options), true, "the path's new word asks for a build");
    assert.equal(options.split.routePatterns.fr.status, "/statut");
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
});
