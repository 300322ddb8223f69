import assert from "node:assert/strict";
import { test } from "node:test";
import { isElsewhere, keepsTheChoice, type Language, languageUrl, localizedPath, placeLanguages, prefixLanguage, stripLanguagePrefix } from "./languages";
import cases from "./prefix-cases.json";

const fr = "fr" as Language;
const en = "en" as Language;
const ownFrench = { origin: "https://www.example.org", origins: { fr: "https://exemple.fr" } };

// The host splits the same prefixes (host/placement/prefix.rs reads these cases too): a page the
// host serves as `/x` in English is the page the app shows at `/x`.
test("the app and the host strip the same language prefixes", () => {
  placeLanguages(undefined, null);
  assert.ok(cases.length >= 8);
  for (const { path, language, path_without_prefix } of cases) {
    assert.equal(stripLanguagePrefix(path), path_without_prefix, path);
    assert.equal(prefixLanguage(path), language, path);
  }
});

test("a language on its own origin sits at its root; the others' links from there are absolute", () => {
  try {
    // On the server: every page's links in its own language, on its own origin.
    placeLanguages(ownFrench, null);
    assert.equal(localizedPath(fr, "/langues/en"), "/langues/en");
    assert.equal(localizedPath(en, "/languages/en"), "/en/languages/en");
    assert.equal(isElsewhere(en), false);

    // In a French document on exemple.fr: no prefixes read there, English is elsewhere.
    placeLanguages(ownFrench, fr);
    assert.equal(prefixLanguage("/en/x"), null);
    assert.equal(stripLanguagePrefix("/en/x"), "/en/x");
    assert.equal(languageUrl(fr, "/etat"), "/etat");
    assert.equal(languageUrl(en, "/status"), "https://www.example.org/en/status");
    assert.equal(keepsTheChoice(), false, "the origin is the choice: no cookie there");

    // In an English document on the shared origin: French is elsewhere, English is not.
    placeLanguages(ownFrench, en);
    assert.equal(prefixLanguage("/en/x"), en);
    assert.equal(languageUrl(en, "/status"), "/en/status");
    assert.equal(languageUrl(fr, "/etat"), "https://exemple.fr/etat");
    assert.equal(isElsewhere(fr), true);
    assert.equal(keepsTheChoice(), true);
  } finally {
    placeLanguages(undefined, null);
  }
});
