import assert from "node:assert/strict";
import { test } from "node:test";
import { LANGUAGES, languageOf } from "./languages";
import { type LanguageModule, loadResources, type RouteIndexModule, resourcesOf, routeMessages } from "./resources";

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

/**
 * A split language's resources whose index counts its fetches (a module fetched is kept,
 * as the browser's module map keeps it): `status` has messages of its own, `home` none.
 */
function splitLanguage() {
  const fetched = { index: 0, status: 0 };
  const fetchIndex = async (): Promise<RouteIndexModule> => {
    fetched.index++;
    return {
      default: {
        status: async () => {
          fetched.status++;
          return { default: { "status.title": "État" } };
        },
      },
    };
  };
  let index: Promise<RouteIndexModule> | undefined;
  const module: LanguageModule = {
    default: { "language.label": "Langue" },
    dateLocale: {} as LanguageModule["dateLocale"],
    routeMessages: () => (index ??= fetchIndex()),
  };
  return { resources: resourcesOf(module, languageOf("fr")), fetched };
}

test("a route's messages come through the language's index, which is fetched once", async () => {
  const { resources, fetched } = splitLanguage();
  await routeMessages(resources, "status");
  assert.equal(resources.table["status.title"], "État");
  assert.equal(routeMessages(resources, "status"), null, "there: nothing more to wait for");
  // A route the index names no messages for has none to wait for, once it has said so.
  await routeMessages(resources, "home");
  assert.equal(routeMessages(resources, "home"), null);
  assert.deepEqual(fetched, { index: 1, status: 1 });
});

test("a route the host says has no messages of its own fetches no index", async () => {
  const { resources, fetched } = splitLanguage();
  assert.equal(routeMessages(resources, "home", null), null);
  assert.equal(routeMessages(resources, "home"), null, "and a later ask knows it");
  assert.equal(routeMessages(resources, null), null, "the not-found page's are the first load's");
  assert.deepEqual(fetched, { index: 0, status: 0 });
});

test("a failed fetch of the index may be tried again", async () => {
  const { resources } = splitLanguage();
  const working = resources.routes!;
  let fail = true;
  resources.routes = () => (fail ? Promise.reject(new Error("offline")) : working());
  await assert.rejects(routeMessages(resources, "status")!, /offline/);
  fail = false;
  await routeMessages(resources, "status");
  assert.equal(resources.table["status.title"], "État");
});
