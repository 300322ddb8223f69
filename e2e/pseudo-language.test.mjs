// The pseudo-languages of development builds (`npm run dev -- --pseudo`, docs/translations.md):
// every route, in each of them, on the server and hydrated in each engine, shows no text
// that is not a message of the catalogue. A pseudo message is accented and in brackets, so
// what is left once they are taken out must hold no letter, but for what is data, not
// text: the languages' own names and codes, the locale, and dates, written by the date
// locale. The right-to-left one sets the page's direction.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { copyOfTheApp, startDevLoop } from "./devloop.mjs";
import { inEachEngine } from "./engines/index.mjs";

const PSEUDO = [
  { code: "fr-XA", direction: "ltr" },
  { code: "fr-XB", direction: "rtl" },
];

let shared;
/** One copy of the app in the development loop, with its pseudo-languages, for the file. */
function pseudoLoop() {
  shared ??= (async () => {
    const copy = await copyOfTheApp();
    const loop = await startDevLoop(copy, [], ["--pseudo"]);
    const manifest = JSON.parse(await copy.read("dev-app/manifest.json"));
    return { copy, loop, manifest };
  })();
  return shared;
}
after(async () => {
  if (!shared) return;
  const { copy, loop } = await shared;
  await loop.stop();
  await copy.remove();
});

/** Every route of the build at its path in `code`, its parameters filled (a language's code), and a path no route takes. */
function paths(manifest, code) {
  const routes = manifest.routes.map(({ paths }) => paths[code].replace(/:\w+/g, PSEUDO[0].code));
  return [...routes, "/no-such-page"];
}

/** What the page shows that no pseudo message holds: words with a letter, once data is left out. */
function untranslated(text, data) {
  const bidiMarks = /[\u200e\u200f\u202a-\u202e]/g;
  let rest = text.replace(bidiMarks, "");
  // Innermost first: a message may be another's argument.
  for (let before; before !== rest; ) {
    before = rest;
    rest = rest.replace(/\[[^[\]]*\]/g, " ");
  }
  for (const value of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(value.replace(bidiMarks, "")).join(" ");
  return rest.split(/\s+/).filter((word) => /\p{L}/u.test(word));
}

/** What a page shows that is data: the languages' names and codes, the locales. */
const dataOf = (manifest) => manifest.declared.languages.flatMap(({ code, locale, name }) => [name, code, locale]);

describe("on the server", () => {
  let running;
  before(async () => {
    running = await pseudoLoop();
  });

  test("every route renders in each pseudo-language with nothing but the catalogue's messages", async () => {
    const { loop, manifest } = running;
    assert.deepEqual(
      manifest.declared.languages.filter(({ pseudoOf }) => pseudoOf).map(({ code, direction }) => ({ code, direction })),
      PSEUDO,
    );
    for (const { code, direction } of PSEUDO) {
      for (const path of paths(manifest, code)) {
        const answer = await fetch(`${loop.baseUrl}/${code.toLowerCase()}${path}`);
        const html = await answer.text();
        assert.match(html, new RegExp(`<html lang="${code}"${direction === "rtl" ? ' dir="rtl"' : ""}>`), `${code}${path}`);
        const body = html
          .slice(html.indexOf("<body>"))
          .replace(/<script[\s\S]*?<\/script>/g, " ")
          .replace(/<time[^>]*>[\s\S]*?<\/time>|<dd class="sample-date"[^>]*>[\s\S]*?<\/dd>/g, " ")
          .replace(/<[^>]+>/g, " ");
        const title = html.match(/<title>([^<]*)<\/title>/)[1];
        assert.deepEqual(untranslated(`${title} ${body}`, dataOf(manifest)), [], `${code}${path}: text not in the catalogue`);
      }
    }
  });

  test("a pseudo message keeps its arguments: a plural counts, an argument is written in", async () => {
    const { loop } = running;
    const html = await (await fetch(`${loop.baseUrl}/fr-xa/`)).text();
    assert.match(html, /\[Çéţţé åþþļîçåţîöñ þåŕļé 4 ļåñĝûéš\. [^\]]*\]/, "home.languages, its plural on the four languages of this build");
    assert.match(html, /\[Ṽéŕšîöñ \d+\.\d+\.\d+, çöñšţŕûîţé ļé [^\]]+ à [^\]]+ \(UTC\)\.[^\]]*\]/, "home.builtOn, its four arguments");
  });
});

inEachEngine({ site: async () => ({ baseUrl: (await pseudoLoop()).loop.baseUrl, stop: async () => {} }) }, ({ scenario }) => {
  scenario("every route, hydrated in each pseudo-language, shows only the catalogue's messages", async ({ page }) => {
    const { manifest } = await pseudoLoop();
    for (const { code, direction } of PSEUDO) {
      for (const path of paths(manifest, code)) {
        // A language sits in a URL in small letters (`/fr-xa/`).
        await page.goto(`/${code.toLowerCase()}${path}`);
        await page.hydrated();
        const shown = await page.evaluate(() => {
          const dates = [...document.querySelectorAll("time, .sample-date")].map((element) => element.innerText);
          return { title: document.title, text: document.body.innerText, dates, dir: document.documentElement.dir };
        });
        assert.equal(shown.dir || "ltr", direction, `${code}${path}: the page's direction`);
        const data = [...dataOf(manifest), ...shown.dates];
        assert.deepEqual(untranslated(`${shown.title}\n${shown.text}`, data), [], `${code}${path}: text not in the catalogue`);
      }
    }
    // The not-found page is a 404, which an engine reports as a failed load.
    const problems = (await page.problems()).filter((problem) => !/status of 404/.test(problem));
    assert.deepEqual(problems, [], "a clean console: no hydration mismatch");
  });
});

// The check itself: text outside a message is found, a message's own text is not.
test("untranslated() finds text outside the pseudo messages, and only that", () => {
  assert.deepEqual(untranslated("[Ļåñĝûé ôñé] Français Hello [Ûñ [2 ļåñĝûéš] x] 12:00", ["Français"]), ["Hello"]);
  assert.deepEqual(untranslated("\u200f[\u200f\u202eÞšéûđö\u202c\u200f]\u200f", []), []);
});
