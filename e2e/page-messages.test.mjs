// Each page ships only the messages it uses (docs/translations.md, "What a page carries"):
// the first load of a route's page fetches its language's module (the first load's messages)
// and that route's own messages in that language, never another route's or language's, nor
// the language's index of every route's (the boot state names the page's own); a
// navigation fetches the next route's messages beside its screen, the index once; a change
// of language on a page fetches the new language's module, its index and that page's
// messages, no others; and every text shows, hydrated cleanly, in every engine.
import assert from "node:assert/strict";
import { inEachEngine } from "./engines/index.mjs";
import { appPage, startHost } from "./support.mjs";

/** A route's messages in a language: `messages-<language>-<hash>.js` (the manifest says whose route). */
const MESSAGES = /^\/assets\/messages-[\w-]+-\w+\.js$/;

/** A language's index of its routes' messages: `message-index-<language>-<hash>.js`. */
const INDEX = /^\/assets\/message-index-([\w-]+)-\w+\.js$/;

/** The modules of messages `page` fetched since `from` (an index in its requests). */
function messagesFetched(page, from = 0, kind = MESSAGES) {
  return page
    .requests()
    .slice(from)
    .map((request) => request.path)
    .filter((path) => kind.test(path));
}

/** The languages whose index `page` fetched since `from`, in order. */
const indexesFetched = (page, from) => messagesFetched(page, from, INDEX).map((path) => INDEX.exec(path)[1]);

/** The modules of messages the document of `path` preloads: its route's, in its language. */
async function messagesOf(site, path) {
  const html = await (await fetch(site.baseUrl + path)).text();
  return [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map(([, href]) => href).filter((href) => MESSAGES.test(href));
}

inEachEngine({ site: () => startHost() }, ({ scenario }) => {
  scenario("a route's first load fetches its own messages in its language, and no others", async ({ page, site }) => {
    for (const [language, route, params, heading] of [
      ["fr", "status", {}, "État du serveur"],
      ["en", "status", {}, "Server status"],
      ["en", "languages", { code: "fr" }, "Français"],
      ["fr", "home", {}, "Bienvenue sur Bilingue"],
    ]) {
      const from = page.requests().length;
      await page.goto(await appPage(language, route, params));
      await page.hydrated();
      await page.waitFor({ role: "heading", name: heading });
      const fetched = messagesFetched(page, from);
      const own = await messagesOf(site, await appPage(language, route, params));
      // The home page's messages are the first load's: it fetches no route's.
      assert.equal(own.length, route === "home" ? 0 : 1, `${language} ${route} preloads ${own}`);
      assert.ok(own.every((file) => file.startsWith(`/assets/messages-${language}-`)), `${language} ${route}: ${own}`);
      assert.deepEqual(fetched, own, `${language} ${route}`);
      assert.deepEqual(indexesFetched(page, from), [], `${language} ${route}: no index in the first load`);
      const boot = JSON.parse(await page.evaluate("document.getElementById('bilingue-boot').textContent"));
      assert.deepEqual(boot.messages === undefined ? [] : [boot.messages], own, `${language} ${route}: the boot state names its own`);
    }
  });

  scenario("a navigation fetches the next route's messages beside its screen", async ({ page, site }) => {
    await page.goto(await appPage("fr", "home"));
    await page.hydrated();
    const from = page.requests().length;
    await page.click({ role: "link", name: "L’état du serveur" });
    await page.waitFor({ role: "heading", name: "État du serveur" });
    // The title follows in an effect, after the screen is painted: a poll may see the screen first.
    await page.waitUntil((title) => document.title === title, "État du serveur · Bilingue");
    assert.deepEqual(messagesFetched(page, from), await messagesOf(site, await appPage("fr", "status")));
    assert.deepEqual(indexesFetched(page, from), ["fr"]);
  });

  scenario("a change of language fetches that page's messages in the new language, and no others", async ({ page, site }) => {
    await page.goto(await appPage("fr", "status"));
    await page.hydrated();
    await page.waitFor({ role: "heading", name: "État du serveur" });
    const from = page.requests().length;
    await page.select({ label: "Langue" }, "en");
    await page.waitFor({ role: "heading", name: "Server status" });
    await page.waitFor({ role: "button", name: "Reload" });
    // The title follows in an effect, after the screen is painted: a poll may see the screen first.
    await page.waitUntil((title) => document.title === title, "Server status · Bilingue");
    assert.deepEqual(messagesFetched(page, from), await messagesOf(site, await appPage("en", "status")));
    const fetched = page.requests().slice(from).map(({ path }) => path);
    assert.ok(fetched.some((path) => /^\/assets\/en-\w+\.js$/.test(path)), `the English module: ${fetched}`);
    assert.deepEqual(indexesFetched(page, from), ["en"]);
    // Back to French: everything is there already, nothing more is fetched.
    const again = page.requests().length;
    await page.select({ label: "Language" }, "fr");
    await page.waitFor({ role: "heading", name: "État du serveur" });
    assert.deepEqual(messagesFetched(page, again), []);
  });
});
