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

/** Spanish, as docs/pages-and-languages.md adds a language. */
const LANGUAGE = {
  code: "es",
  locale: "es-ES",
  name: "Español",
  direction: "ltr",
  dateLocale: "es",
  messages: {
    "language.label": "Idioma",
    "loading.label": "Cargando…",
    "home.title": "Inicio · Bilingue",
    "home.description": "Bilingue muestra cada página en su idioma.",
    "home.heading": "Bienvenido a Bilingue",
    "home.languages": "Esta aplicación habla {count, plural, one {# idioma} other {# idiomas}}.",
    "home.clicks": "{count, plural, =0 {Ningún clic todavía} one {# clic} other {# clics}}",
    "home.click": "Pulsar",
    "host.errorPageTitle": "Error del servidor",
    "host.errorPageText": "No se ha podido preparar esta página. Vuelva a intentarlo en un momento.",
  },
};

// The host's test-only trigger (debug builds): a request carrying `x-test-panic: handler`
// panics in its handler, and gets the 500 page the host writes itself.
process.env.BILINGUE_TEST_PANICS = "1";

const spanishLoopShared = oneLoopPerFile(() => copyWithLanguage(LANGUAGE));
const spanishLoop = () => spanishLoopShared.loop();
after(spanishLoopShared.stop);

describe("on the server", () => {
  let loop;
  before(async () => {
    loop = await spanishLoop();
  });

  test("the third language renders on the server, with its language signals", async () => {
    const answer = await fetch(`${loop.baseUrl}/es/`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("content-language"), "es");
    const html = await answer.text();
    assert.match(html, /<html lang="es">/);
    assert.match(html, /<h1>Bienvenido a Bilingue<\/h1>/);
    assert.match(html, /Esta aplicación habla 3 idiomas\./, "the plural in Spanish, and three languages");
    assert.match(html, /(lunes|martes|miércoles|jueves|viernes|sábado|domingo), \d+ de [a-z]+ de \d{4}/, "the build date in Spanish words");
    assert.match(html, /<meta property="og:locale" content="es_ES">/);
  });

  test("the app's own unit tests stay green on the copy, with no other edit (npm test)", () => {
    // The loop has rewritten the declarations for the new table, as `npm run dev` does.
    const ran = spawnSync(process.execPath, [path.join(loop.dir, "app/test/run.mjs")], { cwd: loop.dir, encoding: "utf8" });
    assert.equal(ran.status, 0, (ran.stdout + ran.stderr).split("\n").filter((l) => /^not ok|# fail|Error/.test(l)).join("\n"));
  });

  test("every page names the third language among its alternates, and the sitemap lists it", async () => {
    const french = await (await fetch(`${loop.baseUrl}/fr/`)).text();
    const origin = loop.baseUrl.replace("127.0.0.1", "localhost");
    assert.match(french, new RegExp(`<link rel="alternate" hreflang="es" href="${origin}/es/">`));
    assert.match(french, /<meta property="og:locale:alternate" content="es_ES">/);
    const link = (await fetch(`${loop.baseUrl}/fr/`)).headers.get("link");
    assert.match(link, /hreflang="es"/);
    // The status page in Spanish, where its Spanish home page links to it.
    const home = await (await fetch(`${loop.baseUrl}/es/`)).text();
    const status = home.match(/<a href="(\/es\/[^"]+)">The server’s status<\/a>/)?.[1];
    assert.ok(status, "the Spanish home page links to the status page");
    assert.equal((await fetch(`${loop.baseUrl}${status}`)).status, 200, status);
    const sitemap = await (await fetch(`${loop.baseUrl}/sitemap.xml`)).text();
    assert.match(sitemap, new RegExp(`<loc>${origin}${status}</loc>`));
    assert.equal((await fetch(`${loop.baseUrl}/de/`)).status, 404, "a language not listed is still a 404");
  });

  test("the host's own texts come in the third language, from its table", async () => {
    const answer = await fetch(`${loop.baseUrl}/es/`, { headers: { "x-test-panic": "handler" } });
    assert.equal(answer.status, 500);
    const html = await answer.text();
    assert.match(html, /<html lang="es">/);
    assert.match(html, /<h1>Error del servidor<\/h1><p>No se ha podido preparar esta página\./);
  });
});

inEachEngine(
  // Shared, so stopped once, after every engine.
  { site: async () => ({ baseUrl: (await spanishLoop()).baseUrl, stop: async () => {} }) },
  ({ scenario }) => {
    scenario("the third language hydrates, and the control switches to it and back", async ({ page }) => {
      await page.goto("/es/");
      await page.hydrated();
      await page.click({ role: "button", name: "Pulsar" });
      await page.waitFor({ css: "output", text: "1 clic" });
      const options = await page.evaluateOn({ label: "Idioma" }, (el) => [...el.options].map((o) => o.value));
      assert.deepEqual(options, ["fr", "en", "es"]);
      await page.select({ label: "Idioma" }, "fr");
      await page.waitFor({ role: "heading", name: "Bienvenue sur Bilingue" });
      await page.select({ label: "Langue" }, "es");
      await page.waitFor({ role: "heading", name: "Bienvenido a Bilingue" });
      // <html lang> follows in an effect, just after the new screen is painted.
      await page.waitUntil(() => document.documentElement.lang === "es");
      assert.deepEqual(await page.problems(), [], "a clean console: no hydration mismatch");
    });
  },
);
