import assert from "node:assert/strict";
import { test } from "node:test";
import { languageOf } from "./languages";
import { type LanguageState, reduceLanguage } from "./languageState";
import type { Resources } from "./resources";

const fr = languageOf("fr");
const en = languageOf("en");

const resources = (name: string) => ({ table: { name }, dateLocale: { code: name } }) as unknown as Resources;
const start: LanguageState = { language: fr, resources: resources("fr"), pending: null };

test("a change shows the loading state and keeps the active language until it is ready", () => {
  const loading = reduceLanguage(start, { type: "requested", language: en, request: 1 });
  assert.deepEqual(loading.pending, { language: en, request: 1, status: "loading" });
  assert.equal(loading.language, "fr");
  assert.equal(loading.resources, start.resources);
});

test("when both resources arrive the new language is active and nothing is pending", () => {
  const loading = reduceLanguage(start, { type: "requested", language: en, request: 1 });
  const english = resources("en");
  const loaded = reduceLanguage(loading, { type: "loaded", language: en, request: 1, resources: english });
  assert.deepEqual(loaded, { language: en, resources: english, pending: null });
});

test("a failed load keeps the active language and says it failed", () => {
  const loading = reduceLanguage(start, { type: "requested", language: en, request: 1 });
  const failed = reduceLanguage(loading, { type: "failed", language: en, request: 1 });
  assert.deepEqual(failed.pending, { language: en, request: 1, status: "failed" });
  assert.equal(failed.language, "fr");
});

test("a retry after a failure loads again", () => {
  let state = reduceLanguage(start, { type: "requested", language: en, request: 1 });
  state = reduceLanguage(state, { type: "failed", language: en, request: 1 });
  state = reduceLanguage(state, { type: "requested", language: en, request: 2 });
  assert.equal(state.pending?.status, "loading");
  state = reduceLanguage(state, { type: "loaded", language: en, request: 2, resources: resources("en") });
  assert.equal(state.language, "en");
  assert.equal(state.pending, null);
});

test("the last choice wins: a slow earlier load never overwrites it", () => {
  let state = reduceLanguage(start, { type: "requested", language: en, request: 1 });
  state = reduceLanguage(state, { type: "requested", language: fr, request: 2 });
  const french = resources("fr again");
  state = reduceLanguage(state, { type: "loaded", language: fr, request: 2, resources: french });
  assert.deepEqual(state, { language: fr, resources: french, pending: null });
  const late = reduceLanguage(state, { type: "loaded", language: en, request: 1, resources: resources("en") });
  assert.equal(late, state, "the late English load changes nothing");
});

test("an earlier request failing late does not disturb a later one still loading", () => {
  let state = reduceLanguage(start, { type: "requested", language: en, request: 1 });
  state = reduceLanguage(state, { type: "requested", language: fr, request: 2 });
  const after = reduceLanguage(state, { type: "failed", language: en, request: 1 });
  assert.equal(after, state);
  assert.equal(after.pending?.status, "loading");
});
