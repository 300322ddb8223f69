// A route the app adds is the app's, whatever it looks like: a three-letter first segment
// (`/xyz`, as `/faq` or `/cgu` would be) is never read as a language the host does not
// offer. The route is added to a copy of the app, served by the development loop with the
// binary under test. A route the language list would shadow, one whose paths collide with
// another's, or one translated with other parameters, is refused by the build, naming it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, test } from "node:test";
import { copyOfTheApp, startDevLoop } from "./devloop.mjs";

/**
 * Adds the route `name` at `path` (a pattern, or one per language), showing the home screen
 * (unless `declaration` says otherwise), first in the copy's routes.
 */
async function addRoute(copy, name, path, declaration = "") {
  const routes = await copy.read("app/routes.ts");
  const added = routes.replace(
    "export const ROUTES = {",
    `export const ROUTES = {\n  ${name}: defineRoute({ path: ${JSON.stringify(path)}, screen: eager(home), titleKey: "home.title", descriptionKey: "home.description", indexable: true, sharing: { kind: "public" }${declaration ? `, ${declaration}` : ""} }),`,
  );
  assert.notEqual(added, routes, "the routes table was found");
  await copy.write("app/routes.ts", added);
}

let copy;
let loop;
before(async () => {
  copy = await copyOfTheApp();
  await addRoute(copy, "xyz", "/xyz");
  loop = await startDevLoop(copy);
});
after(async () => {
  await loop?.stop();
  await copy?.remove();
});

test("a three-letter route is served at /xyz, /fr/xyz and /en/xyz", async () => {
  for (const [url, language] of [["/xyz", "fr"], ["/fr/xyz", "fr"], ["/en/xyz", "en"]]) {
    // Unprefixed, it leads to the prefixed page, as every page does.
    const answer = await fetch(loop.baseUrl + url);
    assert.equal(answer.status, 200, url);
    assert.equal(new URL(answer.url).pathname, `/${language}/xyz`);
    assert.equal(answer.headers.get("content-language"), language, url);
    assert.match(await answer.text(), language === "fr" ? /<h1>Bienvenue sur Bilingue<\/h1>/ : /<h1>Welcome to Bilingue<\/h1>/, url);
  }
  assert.equal((await fetch(`${loop.baseUrl}/xyw`)).status, 404, "a three-letter path the app does not route is still a language we do not offer");
});

test("its alternates and the sitemap name it, x-default included", async () => {
  const origin = loop.baseUrl.replace("127.0.0.1", "localhost");
  const html = await (await fetch(`${loop.baseUrl}/en/xyz`)).text();
  assert.match(html, new RegExp(`<link rel="alternate" hreflang="x-default" href="${origin}/xyz">`));
  assert.match(html, new RegExp(`<link rel="alternate" hreflang="fr" href="${origin}/fr/xyz">`));
  const sitemap = await (await fetch(`${loop.baseUrl}/sitemap.xml`)).text();
  assert.match(sitemap, new RegExp(`<loc>${origin}/fr/xyz</loc>`));
  assert.match(sitemap, new RegExp(`<xhtml:link rel="alternate" hreflang="x-default" href="${origin}/xyz"/>`));
});

test("the build refuses a route the language list would shadow, one that collides, or one the host cannot share as declared, naming it", async () => {
  for (const [name, path, reason, declaration] of [
    ["about", { fr: "/a-propos", en: "/en/about" }, /the route "about": its path in "en", "\/en\/about", starts with "en", a language of app\/i18n\/languages\.json/],
    ["slug", "/:slug", /the route "slug": its path in "fr", "\/:slug", starts with a parameter/, "indexable: false"],
    ["about", "/about/:id", /the route "about" has parameters, so the sitemap cannot list it by its pattern/],
    [
      "about",
      "/about",
      /the route "about" has a loader and declares its page public with no "maxSeconds"/,
      'loader: { load: ({ http }) => http.get("/status") }, screen: lazy(() => import("./ui/Status"))',
    ],
    // Another route's path in one language: the status page's French path.
    ["about", { fr: "/a-propos", en: "/etat" }, /the route "status" collides with the route "about"/],
    ["about", { fr: "/a-propos/:id", en: "/about/:slug" }, /the route "about": its path in "en", "\/about\/:slug", has the parameters \(slug\), its path in "fr" has \(id\)/, "indexable: false"],
  ]) {
    const shadowed = await copyOfTheApp();
    try {
      await addRoute(shadowed, name, path, declaration);
      const built = spawnSync(process.execPath, [shadowed.file("app/build.mjs"), shadowed.file("out")], { encoding: "utf8" });
      assert.notEqual(built.status, 0, JSON.stringify(path));
      assert.match(built.stderr, reason);
    } finally {
      await shadowed.remove();
    }
  }
});
