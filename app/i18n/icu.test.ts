import assert from "node:assert/strict";
import { test } from "node:test";
import { parse } from "@formatjs/icu-messageformat-parser";
import { formatMessage } from "./icu";
import { LANGUAGES } from "./languages";
import type { Params } from "./table";

const format = (message: string, locale: string, params: Params = {}) => formatMessage(parse(message), locale, params);

test("plural cases: exact ones first, then the locale's rules, with # as the number counted", () => {
  const m = "{n, plural, =0 {none} one {# thing} other {# things}}";
  assert.equal(format(m, "en-US", { n: 0 }), "none");
  assert.equal(format(m, "en-US", { n: 1 }), "1 thing");
  assert.equal(format(m, "fr-FR", { n: 1.5 }), "1,5 thing", "French counts 1.5 as one");
  assert.equal(format(m, "en-US", { n: 1500 }), "1,500 things");
  assert.equal(format("{n, plural, offset:1 =1 {you} one {you and # other} other {you and # others}}", "en-US", { n: 3 }), "you and 2 others");
  assert.equal(format("{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", "en-US", { n: 22 }), "22nd");
});

test("select, arguments and number styles", () => {
  assert.equal(format("{g, select, f {elle} other {il}} a {n, number, percent}", "fr-FR", { g: "f", n: 0.5 }), "elle a 50\u00a0%");
  assert.equal(format("{n, number, integer} · {n, number, ::currency/EUR}", "en-US", { n: 2.5 }), "3 · €2.50");
  assert.equal(format("{who} {g, select, f {elle} other {il}}", "fr-FR", { who: "Zoé", g: "x" }), "Zoé il");
});

test("a missing argument and an unsupported element are refused, saying which", () => {
  assert.throws(() => format("Bonjour {name}", "fr-FR"), /argument "name" was not given/);
  assert.throws(() => format("{d, date, short}", "fr-FR", { d: 0 }), /date, a time or a tag/);
  assert.throws(() => format("<b>x</b>", "fr-FR"), /date, a time or a tag/);
});

test("every message of every table formats", async () => {
  // Any argument a message names: 1 is a number, a plural case, and a select's `other`.
  const anything = new Proxy({}, { has: () => true, get: () => 1 }) as Params;
  for (const { code, locale } of LANGUAGES) {
    const table = ((await import(`./tables/${code}.ts`)) as { default: Record<string, unknown> }).default;
    for (const [key, entry] of Object.entries(table)) {
      if (typeof entry !== "string") continue;
      assert.doesNotThrow(() => format(entry, locale, anything), `${code} ${key}`);
    }
  }
});
