// A third language, added as docs/pages-and-languages.md says (one entry in the one list
// of languages, its table, which exports its date locale) to a copy of the app, with no
// change to the host: it renders, hydrates, and shows up in the language control, the
// alternates, Open Graph and the sitemap. The copy runs in the development loop, with the
// binary under test.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { copyWithLanguage, oneLoopPerFile } from "./devloop.mjs";
import { inEachEngine } from "./engines/index.mjs";

/**
 * German, as docs/pages-and-languages.md adds a language: the one people add next, so the
 * app's own tests meet it (a test that took `de` for a language the list lacks fails here).
 */
const LANGUAGE = {
  code: "de",
  locale: "de-DE",
  name: "Deutsch",
  direction: "ltr",
  dateLocale: "de",
  messages: {
    "language.label": "Sprache",
    "loading.label": "Wird geladen…",
    "home.title": "Startseite · Bilingue",
    "home.description": "Bilingue zeigt jede Seite in ihrer Sprache.",
    "home.heading": "Willkommen bei Bilingue",
    "home.languages": "Diese Anwendung spricht {count, plural, one {# Sprache} other {# Sprachen}}.",
    "home.clicks": "{count, plural, =0 {Noch keine Klicks} one {# Klick} other {# Klicks}}",
    "home.click": "Klicken",
    "host.errorPageTitle": "Serverfehler",
    "host.errorPageText": "Diese Seite konnte nicht erstellt werden. Versuchen Sie es gleich noch einmal.",
  },
};
/** A language the copy does not list, for its 404. */
const UNLISTED = "it";

// The host's test-only trigger (debug builds): a request carrying `x-test-panic: handler`
// panics in its handler, and gets the 500 page the host writes itself.
process.env.BILINGUE_TEST_PANICS = "1";

const thirdLoopShared = oneLoopPerFile(() => copyWithLanguage(LANGUAGE));
const thirdLoop = () => thirdLoopShared.loop();
after(thirdLoopShared.stop);

describe("on the server", () => {
  let loop;
  before(async () => {
    loop = await thirdLoop();
  });

  test("the third language renders on the server, with its language signals", async () => {
    const answer = await fetch(`${loop.baseUrl}/de/`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("content-language"), "de");
    const html = await answer.text();
    assert.match(html, /<html lang="de">/);
    assert.match(html, /<h1>Willkommen bei Bilingue<\/h1>/);
    assert.match(html, /Diese Anwendung spricht 3 Sprachen\./, "the plural in German, and three languages");
    assert.match(html, /(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d+\. [A-Za-zä]+ \d{4}/, "the build date in German words");
    assert.match(html, /<meta property="og:locale" content="de_DE">/);
  });

  test("the app's own unit tests stay green on the copy, with no other edit (npm test)", () => {
    // The loop has rewritten the declarations for the new table, as `npm run dev` does.
    const ran = spawnSync(process.execPath, [path.join(loop.dir, "app/test/run.mjs")], { cwd: loop.dir, encoding: "utf8" });
    assert.equal(ran.status, 0, (ran.stdout + ran.stderr).split("\n").filter((l) => /^not ok|# fail|Error/.test(l)).join("\n"));
  });

  test("every page names the third language among its alternates, and the sitemap lists it", async () => {
    const french = await (await fetch(`${loop.baseUrl}/fr/`)).text();
    const origin = loop.baseUrl.replace("127.0.0.1", "localhost");
    assert.match(french, new RegExp(`<link rel="alternate" hreflang="de" href="${origin}/de/">`));
    assert.match(french, /<meta property="og:locale:alternate" content="de_DE">/);
    const link = (await fetch(`${loop.baseUrl}/fr/`)).headers.get("link");
    assert.match(link, /hreflang="de"/);
    // The status page in German, where its German home page links to it.
    const home = await (await fetch(`${loop.baseUrl}/de/`)).text();
    const status = home.match(/<a href="(\/de\/[^"]+)">The server’s status<\/a>/)?.[1];
    assert.ok(status, "the German home page links to the status page");
    assert.equal((await fetch(`${loop.baseUrl}${status}`)).status, 200, status);
    const sitemap = await (await fetch(`${loop.baseUrl}/sitemap.xml`)).text();
    assert.match(sitemap, new RegExp(`<loc>${origin}${status}</loc>`));
    assert.equal((await fetch(`${loop.baseUrl}/${UNLISTED}/`)).status, 404, "a language not listed is still a 404");
  });

  test("the host's own texts come in the third language, from its table", async () => {
    const answer = await fetch(`${loop.baseUrl}/de/`, { headers: { "x-test-panic": "handler" } });
    assert.equal(answer.status, 500);
    const html = await answer.text();
    assert.match(html, /<html lang="de">/);
    assert.match(html, /<h1>Serverfehler<\/h1><p>Diese Seite konnte nicht erstellt werden\./);
  });
});

inEachEngine(
  // Shared, so stopped once, after every engine.
  { site: async () => ({ baseUrl: (await thirdLoop()).baseUrl, stop: async () => {} }) },
  ({ scenario }) => {
    scenario("the third language hydrates, and the control switches to it and back", async ({ page }) => {
      await page.goto("/de/");
      await page.hydrated();
      await page.click({ role: "button", name: "Klicken" });
      await page.waitFor({ css: "output", text: "1 Klick" });
      const options = await page.evaluateOn({ label: "Sprache" }, (el) => [...el.options].map((o) => o.value));
      assert.deepEqual(options, ["fr", "en", "de"]);
      await page.select({ label: "Sprache" }, "fr");
      await page.waitFor({ role: "heading", name: "Bienvenue sur Bilingue" });
      await page.select({ label: "Langue" }, "de");
      await page.waitFor({ role: "heading", name: "Willkommen bei Bilingue" });
      // <html lang> follows in an effect, just after the new screen is painted.
      await page.waitUntil(() => document.documentElement.lang === "de");
      assert.deepEqual(await page.problems(), [], "a clean console: no hydration mismatch");
    });
  },
);
