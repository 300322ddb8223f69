// The development loop as a developer meets it: an open page shows a saved change on its
// own, within a second; a style change applies without a reload; a mistake (a syntax
// error, a message that is not ICU, a render that throws) shows over the page with its
// file, and the next good save clears it.
import assert from "node:assert/strict";
import { copyOfTheApp, startDevLoop } from "./devloop.mjs";
import { inEachEngine } from "./engines/index.mjs";

const TABLE = "app/i18n/tables/fr.ts";
const LIMIT_MS = 1000;

/** The development loop on a fresh copy of the app, for one engine's scenarios to edit. */
async function devSite() {
  const copy = await copyOfTheApp();
  const loop = await startDevLoop(copy);
  return {
    baseUrl: loop.baseUrl,
    copy,
    output: loop.output,
    /** Replaces `from` with `to` in a file of the copy. */
    async edit(file, from, to) {
      const text = await copy.read(file);
      assert.ok(text.includes(from), `${file} holds ${from}`);
      await copy.write(file, text.replace(from, to));
    },
    async stop() {
      await loop.stop();
      await copy.remove();
    },
  };
}

/**
 * When the open page showed `text`, on the clock of `Date.now()`: a page reloaded after
 * `saved`, whose document arrived with `text` in it, shows it once it has both painted
 * and parsed that document (the navigation's first contentful paint and its DOM), the
 * moment a developer sees it. The harness itself notices later: its check waits for the
 * page's main thread, which then compiles and hydrates the development build of React
 * (about 150 ms more). A page that was not reloaded, whose document came without the text
 * (the text arrived later, by another way), or an engine without the paint timing counts
 * from now.
 */
async function paintedAt(page, saved, text) {
  const painted = await page.evaluate(() => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const navigation = performance.getEntriesByType("navigation")[0];
    if (!paint || !navigation) return null;
    return { origin: performance.timeOrigin, at: Math.max(paint.startTime, navigation.domInteractive) };
  });
  const served = page.lastDocument()?.text.includes(text);
  return painted && served && painted.origin >= saved ? painted.origin + painted.at : Date.now();
}

/** Waits for the overlay; its text. */
async function overlay(page) {
  const shown = { css: "#bilingue-dev-overlay" };
  await page.waitFor(shown);
  return page.text(shown);
}

inEachEngine({ site: devSite }, ({ scenario }) => {
  scenario("a saved translation shows in the open page within a second (median of five)", async ({ page, site, t }) => {
    await page.goto("/fr/");
    await page.waitFor({ role: "heading", name: "Bienvenue sur Bilingue" });
    let heading = "Bienvenue sur Bilingue";
    const shown = [];
    const noticed = [];
    for (let n = 1; n <= 5; n++) {
      const next = `Bienvenue, édition ${n}`;
      const saved = Date.now();
      await site.edit(TABLE, `"home.heading": "${heading}"`, `"home.heading": "${next}"`);
      await page.waitUntil((expected) => document.querySelector("h1")?.textContent === expected, next);
      noticed.push(Date.now() - saved);
      shown.push((await paintedAt(page, saved, next)) - saved);
      heading = next;
    }
    const median = (list) => [...list].sort((a, b) => a - b)[2];
    const listed = (list) => `${list.map((ms) => Math.round(ms)).join(", ")} ms (median ${Math.round(median(list))} ms)`;
    t.diagnostic(`save → shown: ${listed(shown)}; noticed by the harness: ${listed(noticed)}`);
    assert.ok(median(shown) < LIMIT_MS, `median ${Math.round(median(shown))} ms`);
    assert.equal(await page.evaluate("location.pathname"), "/fr/", "the test never navigated");
  });

  scenario("a style change applies without a reload", async ({ page, site }) => {
    await page.goto("/en/");
    await page.waitFor({ role: "heading" });
    await page.evaluate(() => (window.__samePage = true));
    await site.edit("app/ui/styles.css", "body { margin: 0; }", "body { margin: 0; }\nh1 { color: rgb(200, 10, 30); }");
    await page.waitUntil(() => getComputedStyle(document.querySelector("h1")).color === "rgb(200, 10, 30)");
    assert.equal(await page.evaluate("window.__samePage"), true, "no reload");
  });

  scenario("a build error shows over the page with its file, and the next good save clears it", async ({ page, site }) => {
    await page.goto("/fr/");
    await page.waitFor({ role: "heading" });
    const good = await site.copy.read(TABLE);

    await site.copy.write(TABLE, good.replace(`"app.name": "Bilingue",`, `"app.name": "Bilingue",,,`));
    const syntax = await overlay(page);
    assert.match(syntax, /The app did not build/);
    assert.match(syntax, /app\/i18n\/tables\/fr\.ts:\d+/);

    await site.copy.write(TABLE, good.replace(`"language.label": "Langue",`, `"language.label": "Langue {",`));
    await page.waitUntil(() => document.querySelector("#bilingue-dev-overlay")?.textContent.includes("not valid ICU"));
    assert.match(await overlay(page), /app\/i18n\/tables\/fr\.ts:\d+/);

    await site.copy.write(TABLE, good);
    await page.waitFor({ css: "#bilingue-dev-overlay" }, { gone: true });
    await page.waitFor({ role: "heading" });
    assert.match(site.output(), /not valid ICU/, "the terminal says it too");
  });

  scenario("a render that throws shows over the page with the component's file and line", async ({ page, site }) => {
    await page.goto("/en/");
    await page.waitFor({ role: "heading" });
    const home = "app/ui/Home.tsx";
    const good = await site.copy.read(home);
    await site.edit(home, "  const [clicks, setClicks] = useState(0);", '  const [clicks, setClicks] = useState(0);\n  if (clicks === 0) throw new Error("boom in Home");');
    const shown = await overlay(page);
    assert.match(shown, /The server render failed/);
    assert.match(shown, /boom in Home/);
    assert.match(shown, /app\/ui\/Home\.tsx:\d+:\d+/, "mapped to the source");
    assert.match(site.output(), /boom in Home/, "the terminal says it too");
    await site.copy.write(home, good);
    await page.waitFor({ css: "#bilingue-dev-overlay" }, { gone: true });
    await page.waitFor({ role: "heading" });
  });

  scenario("development shows what production hides: React's development build and missing keys", async ({ page, site }) => {
    await site.edit("app/ui/Home.tsx", '<h1>{t("home.heading")}</h1>', '<h1>{t("home.heading")}</h1>\n      <p className="probe">{t("home.no-such-key")}</p>');
    for (let served = ""; !served.includes('class="probe"'); await new Promise((r) => setTimeout(r, 50))) {
      served = await (await fetch(`${site.baseUrl}/en/`)).text();
    }
    await page.goto("/en/");
    await page.idle();
    const problems = await page.problems();
    assert.ok(problems.some((p) => p.includes('missing translation key "home.no-such-key"')), problems.join("\n"));
    assert.match(site.output(), /missing translation key "home.no-such-key"/, "the server says it too");
    const served = await (await fetch(`${site.baseUrl}/en/`)).text();
    // The page's starter starts the entry first.
    const entry = served.match(/\{type:"module",src:"([^"]+)"\}/)[1];
    const script = await (await fetch(site.baseUrl + entry)).text();
    assert.match(script, /\/\/# sourceMappingURL=/, "source maps");
    assert.ok(script.split("\n").length > 100, "not minified");
    const answer = await fetch(`${site.baseUrl}/en/`);
    assert.equal(answer.headers.get("cache-control"), "no-store");
  });
});
