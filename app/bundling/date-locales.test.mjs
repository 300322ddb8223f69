// Each date-fns locale as the bundles carry it: every locale the app can name keeps its
// shape, and what the app's formatting asks of it (app/i18n/dates.ts's tokens) is what
// date-fns's own locale answers.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formattingLocaleIndex, formattingLocalize } from "./date-locales.mjs";

const locales = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules/date-fns/locale");

/** What `ask` answers, or that it threw (date-fns throws for a width a locale lacks). */
function answer(ask) {
  try {
    return ask();
  } catch (error) {
    return `threw ${error.name}`;
  }
}

/** The module `source` (a locale's `_lib/localize.js`), its one import made absolute. */
async function imported(source, dir) {
  const absolute = source.replace(/from "(\.\.?\/[^"]+)"/g, (_, relative) => `from ${JSON.stringify(pathToFileURL(path.join(dir, relative)).href)}`);
  return import(`data:text/javascript,${encodeURIComponent(absolute)}`);
}

test("every date-fns locale's localize keeps what formatting asks, word for word, and loses the era, the quarter and the day periods but am and pm", async () => {
  const names = (await readdir(locales, { withFileTypes: true })).filter((entry) => entry.isDirectory() && entry.name !== "_lib").map((entry) => entry.name);
  let checked = 0;
  for (const name of names) {
    const dir = path.join(locales, name, "_lib");
    // A variant may take its localize from another locale (en-AU, en-US's).
    const source = await readFile(path.join(dir, "localize.js"), "utf8").catch(() => null);
    if (source === null) continue;
    checked += 1;
    const written = formattingLocalize(source);
    assert.ok(written !== null, `${name}: of another shape`);
    const [{ localize: whole }, { localize: kept }] = await Promise.all([imported(source, dir), imported(written, dir)]);
    assert.equal(kept.era, undefined, name);
    assert.equal(kept.quarter, undefined, name);
    for (const context of ["formatting", "standalone"]) {
      for (const width of ["narrow", "short", "abbreviated", "wide"]) {
        const both = (ask, what) => assert.equal(answer(() => ask(kept)), answer(() => ask(whole)), `${name} ${what} ${width} ${context}`);
        for (let i = 0; i < 12; i++) both((l) => l.month(i, { width, context }), `month ${i}`);
        for (let i = 0; i < 7; i++) both((l) => l.day(i, { width, context }), `day ${i}`);
        for (const period of ["am", "pm"]) both((l) => l.dayPeriod(period, { width, context }), period);
      }
    }
    for (const unit of ["year", "month", "date", "hour", "minute", "second"]) {
      for (const n of [1, 2, 3, 11, 21, 23, 2026]) assert.equal(answer(() => kept.ordinalNumber(n, { unit })), answer(() => whole.ordinalNumber(n, { unit })), `${name} ${n} ${unit}`);
    }
    assert.ok(written.length < source.length, name);
  }
  assert.ok(checked > 80, `${checked} locales`);
});

test("a localize of another shape is left as it is", () => {
  assert.equal(formattingLocalize('export const localize = { ordinalNumber: (n) => String(n) };'), null);
  assert.equal(formattingLocalize('const periods = { wide: { am: "a" } };\nexport const localize = { era: 1, quarter: 2, dayPeriod: f({ values: periods }) };'), null);
});

test("a locale's index loses its parsing and distance parts, and one that names them otherwise is left as it is", async () => {
  const written = formattingLocaleIndex(await readFile(path.join(locales, "uk.js"), "utf8"));
  assert.ok(written !== null && !/formatDistance|formatRelative|match/.test(written) && written.includes("localize"));
  assert.equal(formattingLocaleIndex("export const xx = { match: somewhereElse };"), null);
});
