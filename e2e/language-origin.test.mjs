// A language on an origin of its own (`--language-origin`), in Chromium: the browser asks
// for two names (Chromium's resolver maps both to the one host), as it would for two real
// domains. French sits at the root of its origin; the language control crosses origins;
// the choice is kept on the site's origin only; both origins' pages hydrate clean. Chromium
// alone can map names to an address; the other engines' placement is the app's unit tests'.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "./engines/chromium.mjs";
import { chosenEngines } from "./engines/index.mjs";
import { appPage, startHost } from "./support.mjs";

const SITE = "http://www.example.test";
const FRENCH = "http://exemple.test";
const skip = chosenEngines().includes("chromium") ? false : "BILINGUE_ENGINES leaves Chromium out";

/** @type {{ stop: () => Promise<void>, baseUrl: string } | undefined} */
let host;
/** @type {import("playwright-core").Browser | undefined} */
let browser;

before(async () => {
  if (skip) return;
  host = await startHost(["--render-threads", "1", "--public-url", SITE, "--language-origin", `fr=${FRENCH}`]);
  const port = new URL(host.baseUrl).port;
  const rules = `MAP www.example.test 127.0.0.1:${port}, MAP exemple.test 127.0.0.1:${port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, `--host-resolver-rules=${rules}`] });
});

after(async () => {
  await browser?.close();
  await host?.stop();
});

/** A page in a context of its own that sends a person's user agent, and what its console says. */
async function openContext() {
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;
  const context = await browser.newContext({ userAgent, extraHTTPHeaders: { "accept-language": "en-US,en;q=0.9" } });
  const page = await context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return { context, page, problems };
}

/** Clicks the counter until React answers: the page has hydrated. */
async function hydrated(page, button, clicked) {
  await page.getByRole("button", { name: button, exact: true }).click();
  await page.locator("output", { hasText: clicked }).waitFor();
}

test("the language control crosses origins, and each origin's page hydrates clean", { skip, timeout: 90_000 }, async () => {
  const { context, page, problems } = await openContext();
  try {
    await page.goto(`${SITE}/`);
    assert.equal(page.url(), `${SITE}/en/`, "a browser asking for English lands on the site's origin");
    await hydrated(page, "Click", "1 click");

    // To French: another origin, so another document, at French's root.
    await page.getByLabel("Language", { exact: true }).selectOption("fr");
    await page.waitForURL(`${FRENCH}/`);
    await page.getByRole("heading", { name: "Bienvenue sur Bilingue" }).waitFor();
    assert.equal(await page.getAttribute("html", "lang"), "fr");
    await hydrated(page, "Cliquer", "1 clic");
    const cookies = await context.cookies([SITE, FRENCH]);
    assert.deepEqual(
      cookies.filter(({ name }) => name === "bilingue_lang").map(({ domain, value }) => [domain, value]),
      [["www.example.test", "fr"]],
      "the choice is kept on the site's origin, where / reads it; French's origin is the choice",
    );

    // A link inside French's origin stays there, with no prefix.
    const status = (await appPage("fr", "status")).slice("/fr".length);
    await page.getByRole("link", { name: "L’état du serveur" }).click();
    await page.waitForURL(`${FRENCH}${status}`);
    await page.goBack();
    await page.waitForURL(`${FRENCH}/`);
    await page.getByRole("heading", { name: "Bienvenue sur Bilingue" }).waitFor();

    // Back to English: the site's origin, the page's own path there.
    await page.getByLabel("Langue", { exact: true }).selectOption("en");
    await page.waitForURL(`${SITE}/en/`);
    await page.getByRole("heading", { name: "Welcome to Bilingue" }).waitFor();
    await hydrated(page, "Click", "1 click");
    assert.deepEqual(
      (await context.cookies([FRENCH])).filter(({ name }) => name === "bilingue_lang"),
      [],
      "leaving French's origin writes no cookie there",
    );

    // The site's origin keeps the choice the switch brought from French's origin: its /
    // leads to English now, and the mark that brought it has left the URL.
    await page.waitForFunction(() => location.hash === "");
    assert.equal(page.url(), `${SITE}/en/`);
    assert.deepEqual(
      (await context.cookies([SITE])).filter(({ name }) => name === "bilingue_lang").map(({ value }) => value),
      ["en"],
      "the site's origin keeps the visitor's last choice",
    );
    await page.goto(`${SITE}/`);
    assert.equal(page.url(), `${SITE}/en/`);
    // Choosing French again there leads across once more.
    await page.getByLabel("Language", { exact: true }).selectOption("fr");
    await page.waitForURL(`${FRENCH}/`);
    await page.goto(`${SITE}/`);
    assert.equal(page.url(), `${FRENCH}/`);
    // French's prefix on the site's origin moves to French's origin.
    await page.goto(`${SITE}/fr${status}`);
    assert.equal(page.url(), `${FRENCH}${status}`);
    await page.getByRole("heading", { name: "État du serveur" }).waitFor();
    assert.deepEqual(problems, [], "no console error or hydration warning on either origin");
  } finally {
    await context.close();
  }
});

test("while the module of a language on its own origin comes, the spinner shows; then the page leaves for that origin", { skip, timeout: 90_000 }, async () => {
  const { context, page, problems } = await openContext();
  try {
    await page.goto(`${SITE}/en/`);
    await hydrated(page, "Click", "1 click");
    let release = () => {};
    const held = new Promise((resolve) => (release = resolve));
    await page.route(/\/assets\/fr-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel("Language", { exact: true }).selectOption("fr");
    // The choice shows as any language's load does: the spinner, over the page and its
    // control (so no other choice can be made meanwhile).
    await page.getByRole("status", { name: "Loading…" }).waitFor();
    assert.equal(await page.getByRole("heading").count(), 0, "the spinner stands instead of the application");
    assert.equal(new URL(page.url()).origin, SITE, "still here while French's module comes");
    release();
    await page.waitForURL(`${FRENCH}/`);
    await page.getByRole("heading", { name: "Bienvenue sur Bilingue" }).waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
