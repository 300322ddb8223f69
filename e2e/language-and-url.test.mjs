// The URL and the page speak one language, in every engine, whatever the order of events:
// a change of language made while a navigation is on its way (its data slow to come) lands
// the navigation in the chosen language, and back and forward bring the language of the
// entry they land on. A reload of the URL then shows what was on show. Each URL is the
// page's own in its language (the route's path in that language's words, which differ
// between French and English). The host's API is an upstream whose languages take two
// seconds to answer.
import assert from "node:assert/strict";
import http from "node:http";
import { inEachEngine } from "./engines/index.mjs";
import { appPage, startHost } from "./support.mjs";

const SLOW_MS = 2000;
const KNOWN = {
  fr: { code: "fr", locale: "fr-FR", name: "Français", direction: "ltr" },
  en: { code: "en", locale: "en-US", name: "English", direction: "ltr" },
};

/** An upstream API: the status at once, a language after SLOW_MS. */
async function slowApi() {
  const server = http.createServer((request, response) => {
    const answer = (status, body) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const path = new URL(request.url ?? "/", "http://upstream").pathname;
    if (path === "/api/status") {
      answer(200, { version: "0.1.0", languages: ["fr", "en"], serverTime: new Date().toISOString() });
      return;
    }
    const code = /^\/api\/languages\/([^/]+)$/.exec(path)?.[1] ?? "";
    setTimeout(() => (code in KNOWN ? answer(200, KNOWN[code]) : answer(404, { error: `no such language: ${code}` })), SLOW_MS);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

async function site() {
  const api = await slowApi();
  const host = await startHost(["--render-threads", "1", "--api-upstream", api.url]);
  return { baseUrl: host.baseUrl, stop: async () => (await host.stop(), await api.close()) };
}

/** What says which language the page is in, once <html lang> is `lang`. */
async function languageSignals(page, lang) {
  await page.waitUntil((lang) => document.documentElement.lang === lang, lang);
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    path: location.pathname,
    title: document.title,
    chosen: document.querySelector("select")?.value,
  }));
}

inEachEngine({ site }, ({ scenario }) => {
  scenario("a change of language while a navigation is on its way: it lands in the chosen language", async ({ page }) => {
    await page.goto("/fr/");
    await page.hydrated();
    await page.click({ role: "link", name: "English" });
    await page.waitUntil(() => !document.querySelector(".navigation-pending").hidden);
    await page.select({ label: "Langue" }, "en");
    await page.waitFor({ role: "heading", name: "Welcome to Bilingue" });
    assert.equal((await languageSignals(page, "en")).path, "/en/", "the page on show follows the change");
    assert.equal(await page.evaluate(() => document.querySelector(".navigation-pending").hidden), false, "the navigation is still on its way");

    await page.waitFor({ role: "heading", name: "English" }, { timeout: 3 * SLOW_MS });
    const english = await appPage("en", "languages", { code: "en" });
    assert.notEqual(english.slice(3), (await appPage("fr", "languages", { code: "en" })).slice(3), "a path of its own in each language");
    assert.deepEqual(await languageSignals(page, "en"), {
      lang: "en",
      path: english,
      title: "A language of Bilingue · Bilingue",
      chosen: "en",
    });
    // Its data, loaded in French, is loaded again in English.
    await page.waitUntil(() => performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/api/languages/en")).length === 2, undefined, { timeout: 3 * SLOW_MS });
    await page.idle();
    assert.equal(await page.evaluate("location.pathname"), english);

    const served = await page.reload();
    assert.equal(served?.status, 200);
    await page.waitFor({ role: "heading", name: "English" });
    assert.deepEqual(await languageSignals(page, "en"), {
      lang: "en",
      path: english,
      title: "A language of Bilingue · Bilingue",
      chosen: "en",
    });
    assert.deepEqual(await page.problems(), []);
  });

  scenario("back and forward across a change of language bring the language of the entry they land on", async ({ page }) => {
    await page.goto("/fr/");
    await page.hydrated();
    await page.select({ label: "Langue" }, "en");
    await page.waitFor({ role: "heading", name: "Welcome to Bilingue" });
    assert.equal((await languageSignals(page, "en")).path, "/en/");
    await page.click({ role: "link", name: "The server’s status" });
    await page.waitFor({ role: "heading", name: "Server status" });
    await page.select({ label: "Language" }, "fr");
    await page.waitFor({ role: "heading", name: "État du serveur" });
    const french = await appPage("fr", "status", {});
    assert.equal((await languageSignals(page, "fr")).path, french, "the same page, at its French path");

    await page.back();
    await page.waitFor({ role: "heading", name: "Welcome to Bilingue" });
    assert.deepEqual(await languageSignals(page, "en"), { lang: "en", path: "/en/", title: "Home · Bilingue", chosen: "en" });

    await page.evaluate(() => history.forward());
    await page.waitFor({ role: "heading", name: "État du serveur" });
    assert.deepEqual(await languageSignals(page, "fr"), { lang: "fr", path: french, title: "État du serveur · Bilingue", chosen: "fr" });
    await page.waitFor({ css: "dl.status time" });
    assert.match(await page.text({ css: "dl.status time" }), /^\d{1,2} [a-zéû]+\.? \d{4}/, "the data in French");

    await page.back();
    await page.waitFor({ role: "heading", name: "Welcome to Bilingue" });
    assert.equal((await languageSignals(page, "en")).path, "/en/");
    await page.reload();
    await page.waitFor({ role: "heading", name: "Welcome to Bilingue" });
    assert.deepEqual(await page.problems(), []);
  });
});
