import assert from "node:assert/strict";
import { test } from "node:test";
import { LANGUAGES, languageOf } from "../i18n/languages";
import { bootMatch } from "../bootMatch";
import { NOT_FOUND, resolveRoute, ROUTES } from "../routes";
import type { Routes } from "./route";
import routeCases from "./route-cases.json";
import { hrefIn, type PageRef, pageOf, parameterNames, pathIn, patternIn } from "./router";

/** A page of the app, as a link names it (typed: the checks below are the type checker's too). */
const page = (ref: PageRef) => pageOf(ROUTES, ref);

/** Every route's page, with a value for each parameter its form takes. */
const everyPage = () =>
  Object.entries(ROUTES as Routes).map(([name, route]) =>
    pageOf(ROUTES, { to: name, params: Object.fromEntries(parameterNames(patternIn(route, LANGUAGES[0].code)).map((param) => [param, "en"])) }),
  );

test("each route's page, written in a language, is that page there again", () => {
  for (const match of everyPage()) {
    for (const { code } of LANGUAGES) {
      const found = resolveRoute(code, pathIn(match, code));
      assert.deepEqual([found.name, found.params], [match.name, match.params], `${match.name} in ${code}`);
      assert.equal(hrefIn(match, code), `/${code}${pathIn(match, code)}`);
    }
  }
});

test("a page's path in another language's words is not its page in this one", () => {
  for (const match of everyPage()) {
    for (const { code } of LANGUAGES) {
      for (const { code: other } of LANGUAGES) {
        const path = pathIn(match, other);
        if (path !== pathIn(match, code)) assert.equal(resolveRoute(code, path).route, NOT_FOUND, `${path} in ${code}`);
      }
    }
  }
});

test("the page a document shows first is the one the host found, not the one its path would name", () => {
  // The host's table decides: the app renders its route with its parameters as given.
  const found = bootMatch({ language: languageOf("fr"), path: "/langues/%65n", page: { route: "languages", params: { code: "en" } } });
  assert.equal(found.name, "languages");
  assert.equal(found.route, ROUTES.languages);
  assert.deepEqual(found.params, { code: "en" });
  const home = bootMatch({ language: languageOf("en"), path: "/", page: { route: "home", params: {} } });
  assert.equal(home.route, ROUTES.home);
  const none = bootMatch({ language: languageOf("en"), path: "/nowhere", page: { route: null, params: {} } });
  assert.deepEqual([none.name, none.route, none.asked], [null, NOT_FOUND, "/nowhere"]);
  // A host that does not know this bundle's routes hands none: the path is matched here.
  assert.deepEqual(bootMatch({ language: languageOf("en"), path: "/languages/pt-BR" }).params, { code: "pt-BR" });
  assert.throws(() => bootMatch({ language: languageOf("en"), path: "/", page: { route: "gone", params: {} } }), /the route "gone", which the app does not declare/);
  assert.throws(() => bootMatch({ language: languageOf("en"), path: "/", page: { route: "toString", params: {} } }), /the route "toString"/);
});

test("a parameter is written encoded, and read back decoded", () => {
  const match = page({ to: "languages", params: { code: "zh-Hant" } });
  const odd = { ...match, params: { code: "a b/é" } };
  for (const { code } of LANGUAGES) {
    assert.ok(pathIn(odd, code).endsWith("/a%20b%2F%C3%A9"), pathIn(odd, code));
    assert.deepEqual(resolveRoute(code, pathIn(match, code)).params, { code: "zh-Hant" });
  }
});

test("a link to a route the app lacks, or without its parameters, fails the type check, and throws naming it", () => {
  // @ts-expect-error: no route is named so.
  assert.throws(() => page({ to: "nowhere" }), /no link to "nowhere"/);
  // @ts-expect-error: the route takes a parameter.
  assert.throws(() => page({ to: "languages" }), /no link to "languages" with \{\}/);
  // @ts-expect-error: not that one.
  assert.throws(() => page({ to: "languages", params: { name: "en" } }), /no link to "languages" with \{"name":"en"\}/);
  // @ts-expect-error: a path is no route.
  assert.throws(() => page({ to: "/status" }), /no link to "\/status"/);
  assert.throws(() => pageOf(ROUTES, { to: "toString" }), /no link to "toString"/);
  assert.equal(page({ to: "home" }).route, ROUTES.home);
});

test("a pattern is cut once, and what a caller does with its names leaves it whole", () => {
  const pattern = "/a/:second/b/:first";
  const names = parameterNames(pattern);
  names.sort().push("third");
  assert.deepEqual(parameterNames(pattern), ["second", "first"]);
  // Only its pattern is read here.
  const routes = { both: { path: pattern } } as unknown as Routes;
  const match = pageOf(routes, { to: "both", params: { second: "é/2", first: "1" } } as never);
  assert.equal(pathIn(match, "fr"), "/a/%C3%A9%2F2/b/1");
  assert.throws(() => pageOf(routes, { to: "both", params: { second: "2" } } as never), /no link to "both"/);
});

// The host reads the same cases (host/manifest/route_table.rs): where it finds a page of a route in a
// language, its route's forms included, the app finds the same route with the same
// parameters; a path in another language's words or in none is no page of the app's in
// that language (the host redirects or answers 404).
test("the app and the host read the same paths as the same pages", () => {
  assert.ok(routeCases.length >= 20);
  for (const { language, path, found, route, params } of routeCases) {
    const match = resolveRoute(languageOf(language), path);
    // A page in another language's words is none of this one's: the host sends it on first.
    assert.equal(match.name, found === "here" ? route : null, `${path} in ${language}`);
    if (found === "here") assert.deepEqual(match.params, params, `${path} in ${language}`);
  }
});
