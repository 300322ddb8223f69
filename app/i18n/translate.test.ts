import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { createTranslator, registerCompiledMessages } from "./translate";
import en from "./tables/en";
import fr from "./tables/fr";

test("a missing key yields an empty string", () => {
  const t = createTranslator({ present: "ici" }, "fr-FR");
  assert.equal(t("absent"), "");
  assert.equal(t("toString"), "", "inherited properties are not entries");
});

test("a function entry is called with the parameters and its result is used", () => {
  const seen: unknown[] = [];
  const t = createTranslator({ greet: (p) => (seen.push(p), `Bonjour ${p.name}`) }, "fr-FR");
  assert.equal(t("greet", { name: "Zoé" }), "Bonjour Zoé");
  assert.deepEqual(seen, [{ name: "Zoé" }]);
});

test("a string entry is an ICU message with per-locale plurals", () => {
  assert.equal(createTranslator(fr, "fr-FR")("home.languages", { count: 1 }), "Cette application parle 1 langue.");
  assert.equal(createTranslator(fr, "fr-FR")("home.languages", { count: 2 }), "Cette application parle 2 langues.");
  assert.equal(createTranslator(en, "en-US")("home.languages", { count: 1 }), "This application speaks 1 language.");
  assert.equal(createTranslator(en, "en-US")("home.clicks", { count: 0 }), "No clicks yet");
  assert.equal(createTranslator(fr, "fr-FR")("home.clicks", { count: 1500 }), "1\u202f500 clics");
  assert.equal(createTranslator(en, "en-US")("home.clicks", { count: 1500 }), "1,500 clicks");
});

test("select and number formats follow the locale", () => {
  const table = { m: "{who, select, a {Anne} other {quelqu’un}} a payé {n, number}" };
  assert.equal(createTranslator(table, "fr-FR")("m", { who: "a", n: 1234.5 }), "Anne a payé 1\u202f234,5");
  assert.equal(createTranslator(table, "en-US")("m", { who: "z", n: 1234.5 }), "quelqu’un a payé 1,234.5");
});

test("a table's messages are formatted from what the build parsed, not parsed again", () => {
  const table = { k: "source text" };
  // What the build registers for a table: its messages, already parsed. Here it differs
  // from the source on purpose, so the output shows which one was used.
  registerCompiledMessages(table, { k: [{ type: TYPE.literal, value: "parsed at build time" }] });
  assert.equal(createTranslator(table, "fr-FR")("k"), "parsed at build time");
});

test("a message the build left out of a table's registration is its own text", () => {
  // The build registers only messages with ICU syntax; a plain one is the entry itself.
  const table = { plain: "L’été, c’est {pas} ici", icu: "{n, number} €" };
  registerCompiledMessages(table, { icu: parse(table.icu) });
  const t = createTranslator(table, "fr-FR");
  assert.equal(t("plain"), "L’été, c’est {pas} ici");
  assert.equal(t("icu", { n: 1500 }), "1\u202f500 €");
});

test("a message's formatter is made once per table and locale, then kept", () => {
  const table: Record<string, string> = { k: "{n, number} a" };
  const t = createTranslator(table, "fr-FR");
  assert.equal(t("k", { n: 1000 }), "1\u202f000 a");
  table.k = "{n, number} b"; // a formatter made anew would show the change
  assert.equal(t("k", { n: 1000 }), "1\u202f000 a");
  assert.equal(createTranslator(table, "fr-FR"), t, "one translator per table and locale");
  assert.equal(createTranslator(table, "en-US")("k", { n: 1000 }), "1,000 b", "another locale, another formatter");
});

test("the French and English tables have the same keys", () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(fr).sort());
});
