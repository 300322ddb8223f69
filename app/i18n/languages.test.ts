import assert from "node:assert/strict";
import { test } from "node:test";
import { prefixLanguage, stripLanguagePrefix } from "./languages";
import cases from "./prefix-cases.json";

// The host splits the same prefixes (host/language_prefix.rs reads these cases too): a page the
// host serves as `/x` in English is the page the app shows at `/x`.
test("the app and the host strip the same language prefixes", () => {
  assert.ok(cases.length >= 8);
  for (const { path, language, path_without_prefix } of cases) {
    assert.equal(stripLanguagePrefix(path), path_without_prefix, path);
    assert.equal(prefixLanguage(path), language, path);
  }
});
