// Which messages each page ships: the rules on a made-up app (the module graph as esbuild
// gives it, the sources on disk), then the app's own groups.
import assert from "node:assert/strict";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { bundleOptions } from "../bundle.mjs";
import { checkAppCatalogue } from "./catalogue.mjs";
import { clientGraph, groupsJson, keysNamedIn, messageGroups, routeScreens } from "./message-groups.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** esbuild's `inputs` for files importing others: { file: [[imported, kind], …] }. */
const graph = (files) =>
  Object.fromEntries(Object.entries(files).map(([file, imports]) => [file, { imports: imports.map(([p, kind = "import-statement"]) => ({ path: p, kind })) }]));

test("the first load has what its files name; a lazy route its own screen's keys, title and declared keys", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bilingue-groups-"));
  try {
    await mkdir(path.join(dir, "app/ui"), { recursive: true });
    const sources = {
      "app/client.tsx": `t("first.a");`,
      "app/routes.ts": `home: { titleKey: "home.title", descriptionKey: "home.description" }, cart: { titleKey: "cart.title", descriptionKey: "cart.description" }, "not.a.key"`,
      "app/ui/Home.tsx": `t("home.heading"); t('first.b')`,
      "app/ui/Cart.tsx": "t(`cart.heading`); t(\"first.a\"); t(\"item.count\")",
      "app/ui/Item.tsx": `t("item.count"); t("item.name")`,
      "app/ui/Shared.tsx": `t("shared.x")`,
    };
    for (const [file, text] of Object.entries(sources)) await writeFile(path.join(dir, file), text);
    const inputs = graph({
      "app/client.tsx": [["app/routes.ts"], ["app/ui/Shared.tsx"]],
      "app/routes.ts": [["app/ui/Home.tsx"], ["app/ui/Cart.tsx", "dynamic-import"]],
      "app/ui/Home.tsx": [],
      "app/ui/Cart.tsx": [["app/ui/Item.tsx"], ["app/ui/Shared.tsx"]],
      "app/ui/Item.tsx": [],
      "app/ui/Shared.tsx": [],
      "node_modules/react/index.js": [],
    });
    const keys = new Set(["first.a", "first.b", "shared.x", "home.title", "home.description", "home.heading", "cart.title", "cart.description", "cart.heading", "item.count", "item.name", "cart.dynamic", "notFound.title", "unused"]);
    const routes = [
      { name: "home", screenFile: null, owned: ["home.title"], headOnly: ["home.description"] },
      { name: "cart", screenFile: "app/ui/Cart.tsx", owned: ["cart.title", "cart.dynamic"], headOnly: ["cart.description"] },
    ];
    const groups = groupsJson(await messageGroups({ root: dir, inputs, routes, notFound: { name: null, screenFile: null, owned: ["notFound.title"] }, keys }));
    assert.deepEqual(groups, {
      // The first load's files (the eager home screen's, a module the lazy screen shares), the
      // eager routes' and the not-found route's declarations; not the lazy route's title, nor
      // any route's description (the document head's, written by the server).
      firstLoad: ["first.a", "first.b", "home.heading", "home.title", "notFound.title", "shared.x"],
      // Its screen's keys and its imports', less the first load's; its title and declared keys.
      routes: { cart: ["cart.dynamic", "cart.heading", "cart.title", "item.count", "item.name"] },
    });
    // A route with nothing of its own has no group.
    const empty = await messageGroups({ root: dir, inputs, routes: [{ name: "cart", screenFile: "app/ui/Item.tsx", owned: ["first.a"] }], notFound: { name: null, screenFile: null, owned: [] }, keys: new Set(["first.a"]) });
    assert.equal(empty.routes.size, 0);
    // A screen that is not in the graph is named.
    await assert.rejects(
      messageGroups({ root: dir, inputs, routes: [{ name: "gone", screenFile: "app/ui/Gone.tsx", owned: [] }], notFound: { name: null, screenFile: null, owned: [] }, keys }),
      /the screen of the route "gone", app\/ui\/Gone.tsx, is not in the client's module graph/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the app's pages: the first load leaves each lazy route's messages to it, and every key a page names is on hand", async () => {
  const options = await bundleOptions({ root, outDir: path.join(os.tmpdir(), "bilingue-groups-out"), dev: false, buildTime: 0 });
  const [inputs, { routes, notFound }, checked] = await Promise.all([clientGraph(options.client), routeScreens(root), checkAppCatalogue(root)]);
  const keys = new Set(checked.messages.values().next().value.keys());
  const groups = await messageGroups({ root, inputs, routes, notFound, keys });
  const lazy = routes.filter(({ screenFile }) => screenFile);
  assert.ok(lazy.length >= 2);
  for (const { name, owned } of lazy) {
    const own = groups.routes.get(name);
    assert.ok(own, `${name} has messages of its own`);
    for (const key of owned) assert.ok(own.has(key) && !groups.firstLoad.has(key), `${name}: ${key} is its own`);
    assert.ok(!own.has(`${name}.description`) && !groups.firstLoad.has(`${name}.description`), "a description is the head's alone");
    for (const key of own) assert.ok(!groups.firstLoad.has(key), `${name}: ${key} is not the first load's too`);
  }
  assert.ok(groups.firstLoad.has("notFound.heading") && groups.firstLoad.has("language.label"));
  // Every key a source of app/ names is the first load's or a route's: no page misses one.
  const named = new Set([...groups.firstLoad, ...[...groups.routes.values()].flatMap((own) => [...own])]);
  const descriptions = new Set([...routes, notFound].flatMap(({ headOnly }) => headOnly));
  for (const key of keys) {
    if (!named.has(key) && !descriptions.has(key)) assert.equal(key, "app.name", `${key} is on no page (only the unused app.name may be)`);
  }
});

test("a key after an empty or an escaped string on its line is seen: the quotes pair as the code writes them", () => {
  const keys = new Set(["home.title", "home.intro", "home.click", "status.title"]);
  const source = [
    '<img alt="" src={logo} /><h1>{t("home.title")}</h1>',
    "const quote = 'it\\'s', intro = t('home.intro');",
    'const said = "a \\"quoted\\" word", click = t(`home.click`);',
    '// "status.title" in a comment is named too, as before',
  ].join("\n");
  assert.deepEqual(keysNamedIn(source, keys), ["home.title", "home.intro", "home.click", "status.title"]);
});
