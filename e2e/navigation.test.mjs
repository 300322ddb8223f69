// Moving between screens as people expect, in every engine: the languages screen (its data
// in the first paint, then loaded on navigation), a navigation shown as pending (and said
// so to screen readers) until its screen and data are there, a navigation superseded by a
// newer one (its call aborted, its data dropped), the scroll position restored per history
// entry once the data is there, and links that fetch their screen's module beforehand; in
// French too, where each page is at its route's French path.
import assert from "node:assert/strict";
import { inEachEngine } from "./engines/index.mjs";
import { appPage, startHost } from "./support.mjs";

/** The page's requests to /api. */
const apiCalls = (page) => page.requests().filter((r) => r.path.startsWith("/api/")).map((r) => r.path);

/**
 * Holds the page's calls to `pattern` until `release()`; `held` settles with the first
 * one's intercepted request (and fails if none comes within 10 s: a scenario never hangs on it).
 */
function hold(page, pattern) {
  let release;
  const released = new Promise((resolve) => (release = resolve));
  let arrived;
  const arrival = new Promise((resolve) => (arrived = resolve));
  const remove = page.intercept(pattern, async (intercepted) => {
    arrived(intercepted);
    await released;
    await intercepted.forward();
  });
  const held = Promise.race([
    arrival,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`no call to ${pattern} came`)), 10_000)),
  ]);
  return { held, release: () => (remove(), release()) };
}

/** Follows a link the way a click does, without the driver scrolling it into view first. */
const follow = (page, name) => page.evaluateOn({ role: "link", name }, (link) => link.click());

const announced = (page) => page.text({ css: ".navigation-announcement" });

/** How many times the page fetched the file `file` (a path), as it saw its fetches (a browser may keep a chunk in its cache from an earlier run). */
const fetched = (file) => `performance.getEntriesByType("resource").filter((entry) => new URL(entry.name).pathname === ${JSON.stringify(file)}).length`;

/** The screen's module of the page at `path` (`screen-<hash>.js`), as its document preloads it. */
async function screenOf(site, path) {
  const html = await (await fetch(site.baseUrl + path)).text();
  const screens = [...html.matchAll(/<link rel="modulepreload" href="(\/assets\/screen-\w+\.js)"/g)].map(([, href]) => href);
  assert.equal(screens.length, 1, `${path} preloads one screen: ${screens}`);
  return screens[0];
}

const scrollY = (page) => page.evaluate("Math.round(window.scrollY)");

inEachEngine({ site: () => startHost() }, ({ scenario }) => {
  // First in the file: a fresh browser has none of the screens' chunks in its cache yet.
  scenario("pointing at a link, or focusing it, fetches its screen's module before the click", async ({ page, site }) => {
    const Status = await screenOf(site, await appPage("en", "status"));
    const Language = await screenOf(site, await appPage("en", "languages", { code: "fr" }));
    await page.goto("/en/");
    await page.idle();
    await page.hydrated();
    const chunks = (file) => page.evaluate(fetched(file));
    assert.equal(await chunks(Status), 0, "not in the first load");
    assert.equal(await chunks(Language), 0, "not in the first load");
    await page.evaluateOn({ role: "link", name: "The server’s status" }, (link) =>
      link.dispatchEvent(new MouseEvent("mouseover", { bubbles: true, relatedTarget: document.body })),
    );
    await page.waitUntil(new Function(`return ${fetched(Status)} === 1`));
    assert.equal(await chunks(Language), 0, "pointing at one link fetched its screen alone");
    await page.evaluateOn({ role: "link", name: "Français" }, (link) => link.focus());
    await page.waitUntil(new Function(`return ${fetched(Language)} === 1`));
    await follow(page, "Français");
    await page.waitFor({ role: "heading", name: "Français" });
    assert.equal(await chunks(Language), 1, "the click fetched it no more");
    assert.deepEqual(await page.problems(), []);
  });

  scenario("a language's page hydrates with its data, and another's loads on navigation", async ({ page }) => {
    const served = await page.goto(await appPage("en", "languages", { code: "en" }));
    assert.equal(served?.status, 200);
    assert.match(served.text, /<dd class="sample-plural" lang="en" dir="ltr">2 languages spoken<\/dd>/, "the data is in the server's HTML");
    await page.idle();
    await page.hydrated();
    assert.deepEqual(apiCalls(page), [], "hydration called nothing");
    await page.evaluate(() => (window.__samePage = true));
    await follow(page, "Français");
    await page.waitFor({ role: "heading", name: "Français" });
    assert.equal(await page.text({ css: ".sample-date" }), "jeudi 15 janvier 2026");
    assert.equal(await page.text({ css: ".sample-plural" }), "2 langues parlées");
    assert.equal(await page.evaluate("location.pathname"), await appPage("en", "languages", { code: "fr" }));
    await page.waitUntil((title) => document.title === title, "A language of Bilingue · Bilingue"); // set in an effect, after the paint
    assert.deepEqual(apiCalls(page), ["/api/languages/fr"]);
    assert.equal(await page.evaluate("window.__samePage"), true, "no page load");
    assert.deepEqual(await page.problems(), []);
  });

  scenario("an unknown language is a 404 page, linked back to the others", async ({ page }) => {
    const served = await page.goto(await appPage("fr", "languages", { code: "zz" }));
    assert.equal(served?.status, 404);
    await page.hydrated();
    await page.waitFor({ role: "heading", name: "Langue inconnue" });
    await follow(page, "English");
    await page.waitFor({ role: "heading", name: "English" });
    assert.equal(await page.text({ css: ".sample-plural" }), "2 languages spoken");
    // Chromium reports the document's own 404 in the console; nothing else may appear.
    assert.deepEqual((await page.problems()).filter((p) => !/Failed to load resource.*404/.test(p)), []);
  });

  scenario("a navigation shows as pending, and is announced, until its screen and data are there", async ({ page }) => {
    await page.goto("/en/");
    await page.hydrated();
    assert.equal(await announced(page), "", "nothing to announce before");
    const { held, release } = hold(page, /^\/api\/languages\/fr$/);
    await follow(page, "Français");
    await held;
    await page.waitUntil(() => document.querySelector(".navigation-announcement")?.textContent === "Loading the page…");
    assert.equal(await page.evaluate(() => document.querySelector(".navigation-pending").hidden), false, "the bar shows");
    assert.equal(await page.count({ role: "heading", name: "Welcome to Bilingue" }), 1, "the screen on show stays until the next is ready");
    assert.equal(await page.evaluate("location.pathname"), "/en/");
    release();
    await page.waitFor({ role: "heading", name: "Français" });
    assert.equal(await announced(page), "");
    assert.equal(await page.evaluate(() => document.querySelector(".navigation-pending").hidden), true);
    assert.equal(await page.evaluate("location.pathname"), await appPage("en", "languages", { code: "fr" }));
    assert.deepEqual(await page.problems(), []);
  });

  scenario("a navigation superseded by a newer one is cancelled: its call aborted, its data dropped", async ({ page }) => {
    await page.goto("/en/");
    await page.hydrated();
    const { held, release } = hold(page, /^\/api\/languages\/fr$/);
    // Clicks of the driver's: some engines skip, on back, entries no user gesture made.
    await page.click({ role: "link", name: "Français" });
    const first = await held;
    await page.click({ role: "link", name: "English" });
    await page.waitFor({ role: "heading", name: "English" });
    const english = await appPage("en", "languages", { code: "en" });
    assert.equal(await page.evaluate("location.pathname"), english);
    await Promise.race([
      first.clientGone,
      new Promise((_, reject) => setTimeout(() => reject(new Error("the superseded call was not aborted")), 5000)),
    ]);
    release();
    await page.idle();
    assert.equal(await page.count({ role: "heading", name: "English" }), 1, "the superseded data never lands");
    assert.equal(await page.evaluate("location.pathname"), english);
    // One entry for the one arrival: back leads home, not to the cancelled page.
    await page.back();
    await page.waitFor({ role: "heading", name: "Welcome to Bilingue" });
    assert.equal(await page.evaluate("location.pathname"), "/en/");
    assert.deepEqual(await page.problems(), []);
  });

  scenario("back and forward restore each entry's scroll position once its data is there", async ({ page }) => {
    await page.goto("/en/");
    await page.hydrated();
    await page.evaluate(() => (document.body.style.padding = "1500px 0 5000px"));
    // The link in the middle of the view, where the driver's click needs no scrolling.
    const at = await page.evaluateOn({ role: "link", name: "The server’s status" }, (link) => {
      link.scrollIntoView({ block: "center" });
      return Math.round(window.scrollY);
    });
    assert.ok(at > 1000, `scrolled down: ${at}`);
    await page.click({ role: "link", name: "The server’s status" });
    await page.waitFor({ css: "dl.status time" });
    assert.equal(await scrollY(page), 0, "a new entry starts at the top");
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitUntil(() => Math.round(window.scrollY) === 300);
    await page.back();
    await page.waitFor({ role: "heading", name: "Welcome to Bilingue" });
    await page.waitUntil((y) => Math.round(window.scrollY) === y, at);
    // Forward again, the data held back (the status is fresh at each request): the
    // position waits for it.
    const { held, release } = hold(page, /^\/api\/status$/);
    await page.evaluate(() => history.forward());
    await held;
    assert.equal(await page.count({ role: "heading", name: "Welcome to Bilingue" }), 1);
    assert.equal(await scrollY(page), at, "the screen on show keeps its place while the next one loads");
    release();
    await page.waitFor({ role: "heading", name: "Server status" });
    await page.waitUntil(() => Math.round(window.scrollY) === 300);
    assert.deepEqual(await page.problems(), []);
  });

  scenario("in French, links lead to the French paths, fetched beforehand and in place, and back and forward walk them, scroll and all", async ({ page, site }) => {
    const [home, status, english] = await Promise.all([appPage("fr", "home"), appPage("fr", "status"), appPage("fr", "languages", { code: "en" })]);
    const statusScreen = await screenOf(site, status);
    assert.notEqual(status.slice(3), (await appPage("en", "status")).slice(3), "the status page has a French path of its own");
    await page.goto(home);
    await page.hydrated();
    await page.evaluate(() => (window.__samePage = true));
    const href = (name) => page.evaluateOn({ role: "link", name }, (link) => new URL(link.href).pathname);
    assert.equal(await href("L’état du serveur"), status, "a link is its route's path in the page's language");
    assert.equal(await href("English"), english);
    await page.evaluateOn({ role: "link", name: "L’état du serveur" }, (link) => link.focus());
    await page.waitUntil(new Function(`return ${fetched(statusScreen)} === 1`));
    await page.evaluate(() => (document.body.style.padding = "1500px 0 5000px"));
    const at = await page.evaluateOn({ role: "link", name: "L’état du serveur" }, (link) => {
      link.scrollIntoView({ block: "center" });
      return Math.round(window.scrollY);
    });
    await page.click({ role: "link", name: "L’état du serveur" });
    await page.waitFor({ css: "dl.status time" });
    assert.equal(await page.evaluate("location.pathname"), status);
    assert.equal(await scrollY(page), 0, "a new entry starts at the top");
    await page.back();
    await page.waitFor({ role: "heading", name: "Bienvenue sur Bilingue" });
    assert.equal(await page.evaluate("location.pathname"), home);
    await page.waitUntil((y) => Math.round(window.scrollY) === y, at);
    await page.evaluate(() => history.forward());
    await page.waitFor({ role: "heading", name: "État du serveur" });
    assert.equal(await page.evaluate("location.pathname"), status);
    await follow(page, "Retour à l’accueil");
    await page.waitFor({ role: "heading", name: "Bienvenue sur Bilingue" });
    await follow(page, "English");
    await page.waitFor({ role: "heading", name: "English" });
    assert.equal(await page.evaluate("location.pathname"), english);
    await page.waitUntil((title) => document.title === title, "Une langue de Bilingue · Bilingue"); // set in an effect, after the paint
    assert.equal(await page.evaluate("window.__samePage"), true, "no page load");
    assert.deepEqual(await page.problems(), []);
  });

  scenario("an entry the previous build wrote, landed on by back, then a change of language: the URL follows", async ({ page }) => {
    // After a deploy, a reload brings this build; the entries behind it keep the shape the
    // build before wrote ({ key, urls, route }, before b93708f).
    const [frenchStatus, englishStatus, frenchLanguage, englishLanguage] = await Promise.all([
      appPage("fr", "status"),
      appPage("en", "status"),
      appPage("fr", "languages", { code: "en" }),
      appPage("en", "languages", { code: "en" }),
    ]);
    await page.goto("/fr/");
    await page.hydrated();
    await page.evaluate(`(() => {
      history.pushState({ key: "before-1", urls: { fr: ${JSON.stringify(frenchStatus)}, en: ${JSON.stringify(englishStatus)} }, route: "status" }, "", ${JSON.stringify(frenchStatus)});
      history.pushState({ key: "before-2", urls: { fr: ${JSON.stringify(frenchLanguage)}, en: ${JSON.stringify(englishLanguage)} }, route: "languages" }, "", ${JSON.stringify(frenchLanguage)});
    })()`);
    await page.reload();
    await page.hydrated();
    // The page's own back: WebKit's driver skips the entries a script pushed.
    await page.evaluate(() => history.back());
    await page.waitFor({ role: "heading", name: "État du serveur" });
    await page.select({ label: "Langue" }, "en");
    await page.waitFor({ role: "heading", name: "Server status" });
    await page.waitUntil((path) => location.pathname === path, englishStatus);
  });
});
