import assert from "node:assert/strict";
import { test } from "node:test";
import { LANGUAGES } from "./languages";
import { languagesWithLoaders, loadResources } from "./resources";

test("every declared language has a table and a date locale to load", () => {
  assert.deepEqual(languagesWithLoaders().sort(), LANGUAGES.map((l) => l.code).sort());
});

test("loading a language gives its table and its date locale", async () => {
  const fr = await loadResources("fr");
  assert.equal(fr.table["language.label"], "Langue");
  assert.equal(fr.dateLocale.code, "fr");
  const en = await loadResources("en");
  assert.equal(en.table["language.label"], "Language");
  assert.equal(en.dateLocale.code, "en-US");
});
