// The language switch in a real browser: spinner while the new language's chunks load,
// then every language signal follows; the choice survives a reload; failures can be retried.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useHostAndBrowser, watchedPage } from "./support.mjs";

const ENGLISH_CHUNKS = /\/assets\/en-[^/]*\.js$/;

const running = useHostAndBrowser();

/** Opens a page and waits until React has hydrated it (the counter answers a click). */
async function openHydrated(page, path, { button, clicked }) {
  await page.goto(running.host.baseUrl + path);
  await page.getByRole("button", { name: button, exact: true }).click();
  await page.locator("output").filter({ hasText: clicked }).waitFor({ timeout: 5000 });
}

async function signals(page) {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    meta: document.querySelector('meta[http-equiv="content-language"]')?.getAttribute("content"),
    title: document.title,
    path: location.pathname,
    cookie: document.cookie,
  }));
}

test("switching to English shows the spinner until its chunks load, then English everywhere", async () => {
  const { context, page, problems } = await watchedPage(running.browser);
  await openHydrated(page, "/fr/", { button: "Cliquer", clicked: "1 clic" });

  const historyBefore = await page.evaluate(() => ((window.__samePage = true), history.length));
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  await page.route(ENGLISH_CHUNKS, async (route) => {
    await gate;
    await route.continue();
  });
  await page.getByLabel("Langue").selectOption("en");
  const spinner = page.getByRole("status", { name: "Chargement…" });
  await spinner.waitFor();
  assert.equal(await page.getByRole("heading").count(), 0, "the spinner stands instead of the application");
  assert.equal((await signals(page)).lang, "fr", "nothing switches before the resources are ready");

  release();
  await page.getByRole("heading", { name: "Welcome to Bilingue" }).waitFor();
  assert.equal(await spinner.count(), 0);
  assert.equal(await page.getByLabel("Language").inputValue(), "en");
  const english = await signals(page);
  assert.deepEqual(
    { lang: english.lang, meta: english.meta, title: english.title, path: english.path },
    { lang: "en", meta: "en", title: "Home · Bilingue", path: "/en/" },
  );
  assert.match(english.cookie, /bilingue_lang=en/);
  assert.equal(await page.evaluate(() => history.length), historyBefore, "the URL was replaced, not pushed");
  assert.equal(await page.evaluate(() => window.__samePage), true, "no full reload");

  await page.unroute(ENGLISH_CHUNKS);
  await page.reload();
  await page.getByRole("heading", { name: "Welcome to Bilingue" }).waitFor();
  await page.goto(running.host.baseUrl + "/");
  await page.getByRole("heading", { name: "Welcome to Bilingue" }).waitFor();
  assert.equal((await signals(page)).lang, "en", "a new visit to / keeps the saved choice");

  await openHydrated(page, "/en/", { button: "Click", clicked: "1 click" });
  await page.getByLabel("Language").selectOption("fr");
  await page.getByRole("heading", { name: "Bienvenue sur Bilingue" }).waitFor();
  const french = await signals(page);
  assert.deepEqual(
    { lang: french.lang, meta: french.meta, title: french.title, path: french.path },
    { lang: "fr", meta: "fr", title: "Accueil · Bilingue", path: "/fr/" },
  );
  assert.match(french.cookie, /bilingue_lang=fr/);
  assert.deepEqual(problems, [], "no console error or hydration warning throughout");
  await context.close();
});

test("a chunk that fails to load shows a translated error, and a retry recovers", async () => {
  const { context, page, problems } = await watchedPage(running.browser);
  await openHydrated(page, "/fr/", { button: "Cliquer", clicked: "1 clic" });
  let failing = true;
  await page.route(ENGLISH_CHUNKS, (route) => (failing ? route.abort("failed") : route.continue()));
  await page.getByLabel("Langue").selectOption("en");
  const alert = page.getByRole("alert");
  await alert.filter({ hasText: "Impossible de charger la langue choisie" }).waitFor();
  assert.equal(await page.getByRole("status").count(), 0, "no endless spinner");
  assert.equal((await signals(page)).lang, "fr");

  failing = false;
  await page.getByRole("button", { name: "Réessayer" }).click();
  await page.getByRole("heading", { name: "Welcome to Bilingue" }).waitFor();
  assert.equal((await signals(page)).lang, "en");
  const unexpected = problems.filter((p) => !p.includes("Failed to load resource") && !p.includes("ERR_FAILED"));
  assert.deepEqual(unexpected, []);
  await context.close();
});

test("the language control is a select named in the page's language", async () => {
  const { context, page } = await watchedPage(running.browser);
  for (const [path, name] of [["/fr/", "Langue"], ["/en/", "Language"], ["/en/nowhere", "Language"]]) {
    await page.goto(running.host.baseUrl + path);
    const select = page.getByRole("combobox", { name, exact: true });
    assert.equal(await select.count(), 1, path);
    const options = await select.locator("option").evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
    assert.deepEqual(options, [["fr", "Français"], ["en", "English"]]);
  }
  await context.close();
});
