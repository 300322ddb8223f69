// A path whose parameter cannot name anything (an encoded separator, NUL, look-alike dots)
// or is not of the form its route declares, in every engine: the not-found page, served as
// a 404 and hydrated as one, and the same after a navigation in the browser, with no call
// to the API either way. (Plain and encoded dot segments never leave a browser, which
// resolves them itself: tests/screens.rs sends them over HTTP.)
import assert from "node:assert/strict";
import { inEachEngine } from "./engines/index.mjs";
import { appPage, startHost } from "./support.mjs";

/** The language route's page, in French, for codes that name nothing or not a language. */
const hostile = () =>
  Promise.all(["en%2f", "a%2Fb", "..%2fstatus", "en%00", "%EF%BC%8E%EF%BC%8E", "a%5Cb", "english"].map((code) => appPage("fr", "languages", { code })));

const apiCalls = (page) => page.requests().filter((r) => r.path.startsWith("/api/")).map((r) => r.path);
/** The engine's own console line about a document answered 404 (Chromium's) is expected. */
const unexpected = async (page) => (await page.problems()).filter((p) => !/Failed to load resource.*404/.test(p));

/** Moves to `path` in the page, as back or forward to an entry at that URL would. */
const arriveAt = (page, path) =>
  page.evaluate((path) => {
    history.pushState(null, "", path);
    window.dispatchEvent(new PopStateEvent("popstate", { state: null }));
  }, path);

inEachEngine({ site: () => startHost() }, ({ scenario }) => {
  scenario("a parameter that cannot name anything is the not-found page, served as a 404", async ({ page }) => {
    for (const path of await hostile()) {
      const served = await page.goto(path);
      // WebKit writes the escapes in capitals, which changes nothing.
      assert.equal(served?.path.toLowerCase(), path.toLowerCase(), "the browser asked for the path as it is");
      assert.equal(served.status, 404, path);
      await page.hydrated();
      await page.waitFor({ role: "heading", name: "Page introuvable" });
      assert.equal(await page.evaluate("document.title"), "Page introuvable · Bilingue", path);
      assert.equal(await page.count({ css: 'link[rel="canonical"], link[rel="alternate"]' }), 0, path);
      assert.doesNotMatch(await page.evaluate("document.body.innerText"), /segment|slash|NUL/, path);
    }
    assert.deepEqual(apiCalls(page), [], "no call to the API, on the server's page nor in the browser");
    assert.deepEqual(await unexpected(page), [], "no hydration mismatch");
  });

  scenario("a navigation to such a path shows the not-found page too, without calling the API", async ({ page }) => {
    await page.goto("/fr/");
    await page.hydrated();
    // The way in works: a language's page is shown with its data.
    await arriveAt(page, await appPage("fr", "languages", { code: "en" }));
    await page.waitFor({ role: "heading", name: "English" });
    assert.deepEqual(apiCalls(page), ["/api/languages/en"]);
    for (const path of await hostile()) {
      await arriveAt(page, path);
      await page.waitFor({ role: "heading", name: "Page introuvable" });
      assert.equal((await page.evaluate("location.pathname")).toLowerCase(), path.toLowerCase());
      await arriveAt(page, "/fr/");
      await page.waitFor({ role: "heading", name: "Bienvenue sur Bilingue" });
    }
    assert.deepEqual(apiCalls(page), ["/api/languages/en"], "no call for a path that names no language");
    assert.deepEqual(await unexpected(page), []);
  });
});
