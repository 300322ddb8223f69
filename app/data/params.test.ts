import assert from "node:assert/strict";
import { test } from "node:test";
import { LANGUAGES, languageOf } from "../i18n/languages";
import { NOT_FOUND, resolveRoute, ROUTES } from "../routes";
import { paramValue } from "./params";
import { defineRoute, eager } from "./route";
import { matchRoute, pageOf, pathIn } from "./router";
import * as home from "../ui/Home";
import unnameable from "./unnameable-segments.json";

/** The language route's page for `code`, in every language: its path there, without the prefix. */
const languagePages = (code: string) => LANGUAGES.map((language) => ({ language: language.code, path: pathIn(pageOf(ROUTES, { to: "languages", params: { code } }), language.code) }));
/** A path of the language route, in `language`'s words, its parameter as the URL writes it. */
const languagePath = (language: string, segment: string) => pathIn(pageOf(ROUTES, { to: "languages", params: { code: "x" } }), language).replace(/\/x$/, `/${segment}`);
/** A route whose parameter may be any segment that names something. */
const ANY = defineRoute({
  path: "/items/:id",
  screen: eager(home),
  titleKey: "home.title",
  descriptionKey: "home.description",
  indexable: false,
  sharing: { kind: "public" },
});

// The host refuses these too, as a loader's call (host/api/mod.rs reads the same cases).
test("a segment that cannot name anything is no page, whatever the route", () => {
  assert.ok(unnameable.length >= 20);
  for (const segment of unnameable) {
    assert.equal(paramValue(segment), null, segment);
    for (const { code } of LANGUAGES) assert.equal(resolveRoute(code, languagePath(code, segment)).route, NOT_FOUND, segment);
    assert.equal(matchRoute({ any: ANY }, NOT_FOUND, "fr", `/items/${segment}`).route, NOT_FOUND, segment);
  }
});

test("look-alikes, every control character and other separators are refused as well", () => {
  for (const segment of ["%E2%80%A5", "%EF%BC%8F", "%EF%BC%BC", "%01", "%1F", "%7F", "%C2%85", "a%0Ab", "%09"]) {
    assert.equal(paramValue(segment), null, segment);
  }
});

test("a segment that names something is given decoded", () => {
  for (const [segment, value] of [
    ["42", "42"],
    ["caf%C3%A9", "café"],
    ["a;b", "a;b"],
    ["..b", "..b"],
    ["a.b", "a.b"],
    ["...", "..."],
    ["100%25", "100%"],
    ["%25zz", "%zz"],
    ["a%20b", "a b"],
  ]) {
    assert.equal(paramValue(segment), value, segment);
    assert.deepEqual(matchRoute({ any: ANY }, NOT_FOUND, "fr", `/items/${segment}`), { name: "any", route: ANY, params: { id: value } }, segment);
  }
});

test("a parameter of another form than its route declares is no page, before any loader", () => {
  for (const code of ["en", "zz", "pt-BR", "EN"]) {
    for (const { language, path } of languagePages(code)) {
      assert.deepEqual(resolveRoute(languageOf(language), path), { name: "languages", route: ROUTES.languages, params: { code } }, path);
    }
  }
  for (const code of ["english", "e", "en-", "en-US-x", "1a", "en_US", "é"]) {
    for (const { language, path } of languagePages(code)) assert.equal(resolveRoute(languageOf(language), path).route, NOT_FOUND, path);
  }
});
