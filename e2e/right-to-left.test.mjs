// A language written right to left, added as docs/pages-and-languages.md says (its entry
// in the one list, with "direction": "rtl", and its table) to a copy of the app, with no
// change to the host or the styles: <html dir="rtl"> comes from the server and follows a
// switch in the browser, and the styles' logical properties turn the page around. The
// shipped list stays French and English; the copy runs in the development loop, with the
// binary under test.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { copyWithLanguage, oneLoopPerFile } from "./devloop.mjs";
import { inEachEngine } from "./engines/index.mjs";
import { appPage } from "./support.mjs";

/** Hebrew, written right to left. */
const LANGUAGE = {
  code: "he",
  locale: "he-IL",
  name: "עברית",
  direction: "rtl",
  dateLocale: "he",
  messages: {
    "language.label": "שפה",
    "home.title": "דף הבית · Bilingue",
    "home.heading": "ברוכים הבאים ל-Bilingue",
    "home.click": "לחיצה",
    "home.clicks": "{count, plural, =0 {עדיין אין לחיצות} one {לחיצה אחת} other {# לחיצות}}",
  },
};

const hebrewLoopShared = oneLoopPerFile(() => copyWithLanguage(LANGUAGE));
const hebrewLoop = () => hebrewLoopShared.loop();
after(hebrewLoopShared.stop);

describe("on the server", () => {
  let loop;
  before(async () => {
    loop = await hebrewLoop();
  });

  test("a right-to-left language's pages say so in <html dir>; the others keep the default", async () => {
    const hebrew = await (await fetch(`${loop.baseUrl}/he/`)).text();
    assert.match(hebrew, /<html lang="he" dir="rtl">/);
    assert.match(hebrew, /<h1>ברוכים הבאים ל-Bilingue<\/h1>/);
    assert.match(await (await fetch(`${loop.baseUrl}/fr/`)).text(), /<html lang="fr">/);
  });

  test("its language page, from the API, says it is written right to left", async () => {
    const answer = await (await fetch(`${loop.baseUrl}/api/languages/he`)).json();
    assert.deepEqual(answer, { code: "he", locale: "he-IL", name: "עברית", direction: "rtl" });
    const page = await (await fetch(`${loop.baseUrl}${await appPage("fr", "languages", { code: "he" })}`)).text();
    assert.match(page, /<h1 lang="he" dir="rtl">עברית<\/h1>/);
    assert.match(page, /<dd>De droite à gauche<\/dd>/);
    assert.match(page, /<dd class="sample-date" lang="he" dir="rtl">[^<]*2026<\/dd>/);
  });
});

/** Where the click counter's gap is: on the side its text starts from. */
const counterGap = () => {
  const style = getComputedStyle(document.querySelector(".counter output"));
  return { dir: document.documentElement.dir, left: style.marginLeft, right: style.marginRight };
};

inEachEngine(
  { site: async () => ({ baseUrl: (await hebrewLoop()).baseUrl, stop: async () => {} }) },
  ({ scenario }) => {
    scenario("the page turns around on a switch to a right-to-left language, and back", async ({ page }) => {
      await page.goto("/fr/");
      await page.hydrated();
      assert.deepEqual(await page.evaluate(counterGap), { dir: "", left: "8px", right: "0px" });
      await page.select({ label: "Langue" }, "he");
      await page.waitFor({ role: "heading", name: "ברוכים הבאים ל-Bilingue" });
      await page.waitUntil(() => document.documentElement.dir === "rtl");
      assert.deepEqual(await page.evaluate(counterGap), { dir: "rtl", left: "0px", right: "8px" });
      await page.select({ label: "שפה" }, "fr");
      await page.waitFor({ role: "heading", name: "Bienvenue sur Bilingue" });
      await page.waitUntil(() => document.documentElement.dir === "ltr");
      assert.deepEqual(await page.evaluate(counterGap), { dir: "ltr", left: "8px", right: "0px" });
      assert.deepEqual(await page.problems(), [], "a clean console");
    });

    scenario("a right-to-left page hydrates cleanly, turned around from the first paint", async ({ page }) => {
      await page.goto("/he/");
      await page.hydrated();
      assert.deepEqual(await page.evaluate(counterGap), { dir: "rtl", left: "0px", right: "8px" });
      await page.click({ role: "button", name: "לחיצה" });
      await page.waitFor({ css: "output", text: "לחיצה אחת" });
      assert.deepEqual(await page.problems(), [], "no hydration mismatch");
    });
  },
);
