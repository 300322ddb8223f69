import assert from "node:assert/strict";
import { test } from "node:test";
import { createTranslator } from "./translate";
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

test("one translator and one compiled formatter are kept per table and locale", () => {
  const table = { k: "{n, number}" };
  assert.equal(createTranslator(table, "fr-FR"), createTranslator(table, "fr-FR"));
  assert.notEqual(createTranslator(table, "fr-FR"), createTranslator(table, "en-US"));
});

test("the French and English tables have the same keys", () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(fr).sort());
});
