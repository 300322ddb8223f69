import assert from "node:assert/strict";
import { test } from "node:test";
import { LANGUAGES, languageOf } from "./languages";
import { loadResources } from "./resources";

test("every listed language loads its table and its date locale", async () => {
  for (const { code, locale } of LANGUAGES) {
    const { table, dateLocale } = await loadResources(code);
    assert.equal(typeof table["language.label"], "string", `${code}: a table with entries`);
    assert.ok(locale.toLowerCase().startsWith(dateLocale.code.toLowerCase().slice(0, 2)), `${code}: ${dateLocale.code}`);
  }
});

test("loading a language gives its own table and date locale", async () => {
  const fr = await loadResources(languageOf("fr"));
  assert.equal(fr.table["language.label"], "Langue");
  assert.equal(fr.dateLocale.code, "fr");
  const en = await loadResources(languageOf("en"));
  assert.equal(en.table["language.label"], "Language");
  assert.equal(en.dateLocale.code, "en-US");
});

test("a language the list does not have is refused", async () => {
  // Whichever of these the list lacks: the test holds whatever languages are added.
  const unlisted = ["de", "es", "it", "pt", "nl", "pl"].find((code) => !LANGUAGES.some((l) => l.code === code));
  assert.ok(unlisted, "the list has every language this test tries");
  assert.throws(() => languageOf(unlisted), new RegExp(`unsupported language: "${unlisted}"`));
});
