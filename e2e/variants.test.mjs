// Languages as people use them, added as docs/pages-and-languages.md says to a copy of the
// app: a regional variant that says only what differs (fr-CA, two messages: the rest is
// French's) and a language not finished yet (German, a tenth of the messages: the rest is
// French's too). Each page is whole in its language along its chain; what comes from
// another language says so (`lang` on the element that carries it, W3C's "Declaring
// language in HTML"); server and browser choose the same text, so every page hydrates
// cleanly in every engine. The shipped list stays French and English.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { copyOfTheApp, oneLoopPerFile } from "./devloop.mjs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import net from "node:net";
import { CHROMIUM, CHROMIUM_FLAGS } from "./engines/chromium.mjs";
import { chosenEngines, inEachEngine } from "./engines/index.mjs";
import { appPage, startHost } from "./support.mjs";

/** Quebec French: two messages of its own. */
const FR_CA = {
  entry: { code: "fr-CA", locale: "fr-CA", name: "Français (Canada)", direction: "ltr", parent: "fr" },
  table: `// What Quebec French says otherwise than French (app/i18n/tables/fr.ts): the rest is French's.
import type { PartialTable } from "../messages.generated";

const frCA = {
  "home.heading": "Bienvenue sur Bilingue, au Québec",
  "home.click": "Cliquez",
} satisfies PartialTable;

export default frCA;

export { frCA as dateLocale } from "date-fns/locale/fr-CA";
`,
};

/** German, a tenth translated. */
const DE = {
  entry: { code: "de", locale: "de-DE", name: "Deutsch", direction: "ltr" },
  table: `// German, not finished yet: what it lacks is French's, the default language's.
import type { PartialTable } from "../messages.generated";

const de = {
  "language.label": "Sprache",
  "home.title": "Startseite · Bilingue",
  "home.heading": "Willkommen bei Bilingue",
  "home.click": "Klicken",
  "notFound.heading": "Seite nicht gefunden",
} satisfies PartialTable;

export default de;

export { de as dateLocale } from "date-fns/locale/de";
`,
};

async function copyWithVariants() {
  return copyOfTheApp(async (dir) => {
    const list = JSON.parse(await readFile(`${dir}/app/i18n/languages.json`, "utf8"));
    list.languages.push(FR_CA.entry, DE.entry);
    await writeFile(`${dir}/app/i18n/languages.json`, JSON.stringify(list, null, 2));
    await writeFile(`${dir}/app/i18n/tables/fr-CA.ts`, FR_CA.table);
    await writeFile(`${dir}/app/i18n/tables/de.ts`, DE.table);
  });
}

const shared = oneLoopPerFile(copyWithVariants);
const variantsLoop = () => shared.loop();
after(shared.stop);

/** The element `text` is in, with its `lang`. */
const langOf = (html, text) => html.match(new RegExp(`<(\\w+)[^>]*?(?: lang="([^"]+)")?[^>]*>${text}<`))?.[2] ?? null;

describe("on the server", () => {
  let loop;
  before(async () => {
    loop = await variantsLoop();
  });

  test("a variant's pages are in its own tag, at its segment in small letters, its own words first", async () => {
    const answer = await fetch(`${loop.baseUrl}/fr-ca/`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("content-language"), "fr-CA");
    const html = await answer.text();
    assert.match(html, /<html lang="fr-CA">/);
    assert.match(html, /<h1>Bienvenue sur Bilingue, au Québec<\/h1>/);
    // French's, inherited: the variant's own language, unmarked.
    assert.match(html, /<p>Cette page a été rendue par le serveur/);
    assert.doesNotMatch(html, /<span lang=/);
    assert.match(html, /<link rel="alternate" hreflang="fr-CA" href="[^"]*\/fr-ca\/">/);
    assert.match(html, /<meta property="og:locale" content="fr_CA">/);
    // Its paths are its parent's (French words).
    const status = await fetch(`${loop.baseUrl}${await appPage("fr-CA", "status")}`);
    assert.equal(new URL(status.url).pathname, "/fr-ca/etat");
    assert.equal(status.status, 200);
  });

  test("a partial language's pages say which messages are another language's", async () => {
    const html = await (await fetch(`${loop.baseUrl}/de/`)).text();
    assert.match(html, /<html lang="de">/);
    assert.match(html, /<title>Startseite · Bilingue<\/title>/);
    assert.match(html, /<h1>Willkommen bei Bilingue<\/h1>/);
    assert.match(html, /<span lang="fr"[^>]*>Cette page a été rendue par le serveur/);
    assert.equal(langOf(html, "Willkommen bei Bilingue"), null, "its own are in the page's language");
    const sitemap = await (await fetch(`${loop.baseUrl}/sitemap.xml`)).text();
    assert.match(sitemap, /hreflang="de"/);
    assert.match(sitemap, /hreflang="fr-CA" href="[^"]*\/fr-ca\/"/);
  });

  test("the app's own unit tests stay green on the copy, with no other edit (npm test)", () => {
    // The loop has rewritten the declarations for the new tables, as `npm run dev` does.
    const ran = spawnSync(process.execPath, [path.join(loop.dir, "app/test/run.mjs")], { cwd: loop.dir, encoding: "utf8" });
    assert.equal(ran.status, 0, (ran.stdout + ran.stderr).split("\n").filter((l) => /^not ok|# fail|Error/.test(l)).join("\n"));
  });

  test("the development build says how much each language translates", async () => {
    assert.match(loop.output(), /de: 5 of \d+ messages \(\d+%\); the other \d+ are fr's/);
    assert.match(loop.output(), /fr-CA: 2 of \d+ messages \(\d+%\); the other \d+ are fr's/);
  });
});

inEachEngine({ site: async () => ({ baseUrl: (await variantsLoop()).baseUrl, stop: async () => {} }) }, ({ scenario }) => {
  scenario("a variant's and a partial language's pages hydrate cleanly, their fallbacks marked", async ({ page }) => {
    // A variant's inherited messages are its own language's; a partial language's are French's.
    for (const [path, heading, clickLabel, fallbackLang] of [
      ["/fr-ca/", "Bienvenue sur Bilingue, au Québec", "Cliquez", null],
      ["/de/", "Willkommen bei Bilingue", "Klicken", "fr"],
    ]) {
      await page.goto(path);
      await page.hydrated();
      await page.waitFor({ role: "heading", name: heading });
      await page.click({ role: "button", name: clickLabel });
      const marked = await page.evaluate(() => document.querySelector("main p span[lang]")?.getAttribute("lang"));
      // No element: undefined in one driver, null in another.
      assert.equal(marked ?? null, fallbackLang, `${path}: which messages are marked as another language's`);
      assert.deepEqual(await page.problems(), [], `${path}: a clean console (no hydration mismatch)`);
    }
    // A screen loaded later: its messages, its fallbacks marked, in German.
    await page.goto(await appPage("de", "status"));
    await page.hydrated();
    await page.waitFor({ css: "h1 span[lang=fr]" });
    await page.select({ label: "Sprache" }, "fr-CA");
    await page.waitUntil(() => document.documentElement.lang === "fr-CA" && location.pathname === "/fr-ca/etat");
    await page.waitFor({ role: "heading", name: "État du serveur" });
    assert.deepEqual(await page.problems(), [], "a clean console");
  });
});

/** A port free right now, to give the binary and its public URL the same one. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

// The copy built for production and served by the binary, as a site owner would: Lighthouse's
// SEO audits on a variant's page and a partial language's.
describe("chromium, production", { skip: !chosenEngines().includes("chromium") && "Lighthouse runs in Chromium only" }, () => {
  let copy;
  let host;
  let chrome;
  let origin;
  before(async () => {
    copy = await copyWithVariants();
    const built = spawnSync(process.execPath, [copy.file("app/build.mjs"), copy.file("dist")], { cwd: copy.dir, encoding: "utf8" });
    assert.equal(built.status, 0, built.stdout + built.stderr);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    host = await startHost(["--app-build", copy.file("dist"), "--port", String(port), "--public-url", origin, "--render-threads", "1"], { port: false });
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS] });
  });
  after(async () => {
    await chrome?.kill();
    await host?.stop();
    await copy?.remove();
  });

  for (const page of ["/fr-ca/", "/de/"]) {
    test(`[chromium] Lighthouse's SEO category scores 100 on ${page}`, async () => {
      const { lhr } = await lighthouse(`${origin}${page}`, { port: chrome.port, onlyCategories: ["seo"], logLevel: "error" });
      const failed = lhr.categories.seo.auditRefs
        .map((ref) => lhr.audits[ref.id])
        .filter((audit) => audit.score !== null && audit.score < 1)
        .map((audit) => `${audit.id}: ${audit.title}`);
      assert.deepEqual(failed, [], "every SEO audit passes");
      assert.equal(lhr.categories.seo.score, 1);
    });
  }
});
