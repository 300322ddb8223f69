import assert from "node:assert/strict";
import { test } from "node:test";
import declared from "../i18n/languages.json";
import { NOT_FOUND, ROUTES } from "../routes";
import { checkRoutes, listedPages } from "./routeCheck";
import type { Route, Routes } from "./route";
import { pageOf, parameterNames, pathIn, patternIn } from "./router";

const loader = { load: async () => ({}) };
const LANGUAGES = { default: "fr", languages: [{ code: "fr" }, { code: "en" }] };
const route = (changes: Partial<Route>): Route => ({ ...ROUTES.home, path: "/x", ...changes });
const check = (routes: Routes, languages = LANGUAGES) => checkRoutes(routes, NOT_FOUND, languages);

test("the app's routes pass: each route has its path in every language, and the sitemap lists each indexable page once, by its parameters", () => {
  const { routes, sitemap } = checkRoutes(ROUTES, NOT_FOUND, declared);
  const codes = declared.languages.map(({ code }) => code);
  assert.deepEqual(
    routes.map(({ name }) => name),
    Object.keys(ROUTES),
  );
  for (const { name, paths } of routes) {
    assert.deepEqual(Object.keys(paths), codes, name);
    for (const code of codes) assert.equal(paths[code], patternIn(ROUTES[name as keyof typeof ROUTES], code), `${name} in ${code}`);
  }
  // What the routes declare indexable, derived here from the routes themselves: a page is
  // its parameters' segments, which fill its pattern in every language to its path there.
  const expected = Object.entries(ROUTES as Routes).flatMap(([name, declaredRoute]) => {
    const { indexable } = declaredRoute;
    const listed = typeof indexable === "function" ? indexable() : indexable ? [{}] : [];
    assert.ok(!(listed instanceof Promise), "the app's routes list their pages at once");
    const pages = listed as readonly Record<string, string>[];
    const names = parameterNames(patternIn(declaredRoute, "fr"));
    return pages.length ? [{ route: name, pages: pages.map((params) => names.map((param) => encodeURIComponent(params[param])).join("/")) }] : [];
  });
  assert.deepEqual(sitemap, expected);
  for (const { route: name, pages } of sitemap) {
    assert.equal(new Set(pages).size, pages.length, "no page twice");
    for (const page of pages) {
      const segments = page.split("/");
      const names = parameterNames(routes.find((r) => r.name === name)?.paths.fr ?? "");
      const params = Object.fromEntries(names.map((param, i) => [param, decodeURIComponent(segments[i])]));
      for (const code of codes) {
        const filled = routes.find((r) => r.name === name)?.paths[code].replace(/:(\w+)/g, (_, param: string) => segments[names.indexOf(param)]);
        assert.equal(filled, pathIn(pageOf(ROUTES, { to: name, params }), code), `${name} ${page} in ${code}`);
      }
    }
  }
});

test("a route translated into some languages takes the default language's path in the others", () => {
  const translated = route({ path: { fr: "/langues/:code", en: "/languages/:code" }, indexable: () => [{ code: "en" }] });
  const three = { default: "fr", languages: [{ code: "fr" }, { code: "en" }, { code: "es" }] };
  const { routes, sitemap } = check({ translated }, three);
  assert.deepEqual(routes, [{ name: "translated", paths: { fr: "/langues/:code", en: "/languages/:code", es: "/langues/:code" }, params: {}, loads: false }]);
  assert.deepEqual(sitemap, [{ route: "translated", pages: ["en"] }]);
});

test("a page is listed by its parameters as its paths write them, in its default pattern's order", () => {
  const pair = route({ path: { fr: "/a/:x/b/:y", en: "/b/:y/a/:x" }, indexable: () => [{ y: "è 1", x: "a/b" }] });
  assert.throws(() => check({ pair }), /lists the page \{"y":"è 1","x":"a\/b"\}, whose path in "fr", "\/a\/a%2Fb\/b\/%C3%A8%201", is not its page/);
  const fine = route({ path: { fr: "/a/:x/b/:y", en: "/b/:y/a/:x" }, indexable: () => [{ y: "è 1", x: "ab" }] });
  assert.deepEqual(check({ fine }).sitemap, [{ route: "fine", pages: ["ab/%C3%A8%201"] }]);
});

test("a listed page an earlier route takes is refused, naming it", () => {
  const routes = { one: route({ path: "/a/new" }), two: route({ path: "/a/:id", indexable: () => [{ id: "old" }, { id: "new" }] }) };
  assert.throws(() => check(routes), /the route "two" lists the page \{"id":"new"\}, whose path in "fr", "\/a\/new", is not its page/);
});

test("a route the host could not serve as declared is refused, naming it", () => {
  for (const [bad, reason] of [
    [route({ loader, sharing: { kind: "public" } }), /the route "bad" has a loader and declares its page public with no "maxSeconds"/],
    [route({ sharing: { kind: "public", maxSeconds: 0 } }), /"maxSeconds" must be a whole number of seconds above 0, not 0/],
    [route({ sharing: { kind: "public", maxSeconds: 1.5 } }), /not 1\.5/],
    [route({ sharing: { kind: "shared" } as never }), /"sharing" is \{ kind: "public" \} or \{ kind: "private" \}/],
    [route({ sharing: { kind: "private", maxSeconds: 60 } as never }), /a private page takes no "maxSeconds"/],
    [route({ path: "/x/:id", indexable: true }), /the route "bad" has parameters, so the sitemap cannot list it by its pattern/],
    [route({ path: "/x/:id", indexable: () => [{ id: "1" }, { code: "2" } as Record<string, string>] }), /lists a page with the parameters \{"code":"2"\}: each page gives exactly \(id\)/],
    [route({ indexable: () => [{}] }), /has no parameters: write indexable: true/],
    [route({ path: "x" }), /its path in "fr" must start with "\/"/],
    [route({ path: "/x/:id", indexable: false, params: { code: /^a$/ } }), /declares the form of "code", which is not one of its parameters/],
    [route({ path: "/x/:id", indexable: false, params: { id: /[a-z]+/u } }), /the form of "id", \/\[a-z\]\+\/u, is one the host cannot read as the app does: it must match the whole value: anchor it/],
    [route({ path: "/x/:id", indexable: false, params: { id: /^a$/g } }), /the form of "id", \/\^a\$\/g, is one the host cannot read as the app does: give it the u flag alone/],
    [route({ path: "/x/:id", indexable: false, params: { id: /^a$/ } }), /give it the u flag alone/],
    [route({ path: "/x/:id", indexable: false, params: { id: /^\d+$/u } }), /"\\d" is not read alike by JavaScript and the host: write \[0-9\]/],
    [route({ path: "/x/:id", indexable: false, params: { id: /^.+$/u } }), /"\." is not read alike/],
    [route({ path: "/x/:id", indexable: false, params: { id: /^(?!new)[a-z]+$/u } }), /look-arounds and named groups are not read alike/],
    [route({ path: "/x/:id", indexable: false, params: { id: /^[a[b]+$/u } }), /write "\[" in a class as "\\\["/],
    [route({ path: "/x/:id", indexable: false, params: { id: /^[a&&b]+$/u } }), /"&&" in a class is a set operation for the host/],
    [route({ path: "/x/:id", indexable: false, params: { id: "^a$" as never } }), /the form of "id" must be a regular expression/],
    [route({ path: "/x/:id", params: { id: /^[0-9]+$/u }, indexable: () => [{ id: "1" }, { id: "one" }] }), /lists the page \{"id":"one"\}, whose path in "fr", "\/x\/one", is not its page/],
    // The prefix rule: a first segment that is a language, or a parameter, in any language.
    [route({ path: { fr: "/x", en: "/fr/x" } }), /the route "bad": its path in "en", "\/fr\/x", starts with "fr", a language of app\/i18n\/languages.json/],
    [route({ path: "/:id/x", indexable: false }), /its path in "fr", "\/:id\/x", starts with a parameter, which would take every language prefix/],
    // Translated paths: the same parameters, the default language's path, languages of the list.
    [route({ path: { fr: "/langues/:code", en: "/languages/:name" }, indexable: false }), /the route "bad": its path in "en", "\/languages\/:name", has the parameters \(name\), its path in "fr" has \(code\): a translated path takes the same parameters/],
    [route({ path: { fr: "/a/:x", en: "/a/:x/:y" }, indexable: false }), /its path in "en", "\/a\/:x\/:y", has the parameters \(x, y\), its path in "fr" has \(x\)/],
    [route({ path: { fr: "/a/:x/:x" }, indexable: false }), /its path in "fr", "\/a\/:x\/:x", names a parameter twice/],
    [route({ path: { en: "/x" } }), /the route "bad" needs its path in the default language, "fr"/],
    [route({ path: { fr: "/x", de: "/x" } }), /the route "bad" has a path in "de", which is not a language of app\/i18n\/languages.json/],
  ] as const) {
    assert.throws(() => check({ bad }), reason);
  }
  assert.throws(() => check({ "Bad name": route({}) }), /the route "Bad name": a route's name is a word of letters and digits/);
  assert.throws(() => checkRoutes({}, { ...NOT_FOUND, status: 200 }, LANGUAGES), /the not-found route must have status 404/);
});

test("two routes whose paths collide in any language are refused, naming both", () => {
  for (const [routes, reason] of [
    [{ one: route({}), two: route({}) }, /the route "two" collides with the route "one" in "fr": "\/x" takes every page of "\/x"/],
    [{ one: route({ path: { fr: "/a", en: "/b" } }), two: route({ path: { fr: "/c", en: "/b" } }) }, /the route "two" collides with the route "one" in "en"/],
    [{ one: route({ path: "/a/:id", indexable: false }), two: route({ path: "/a/new" }) }, /the route "two" collides with the route "one" in "fr": "\/a\/:id" takes every page of "\/a\/new"/],
    [{ one: route({ path: "/a/:id", indexable: false }), two: route({ path: "/a/:slug", indexable: false }) }, /the route "two" collides with the route "one" in "fr"/],
    [
      { one: route({ path: "/a/:id", params: { id: /^[0-9]+$/u }, indexable: false }), two: route({ path: "/a/:id", params: { id: /^[0-9]+$/u }, indexable: false }) },
      /the route "two" collides with the route "one" in "fr"/,
    ],
    [{ one: route({ path: "/a/:id", params: { id: /^[0-9]+$/u }, indexable: false }), two: route({ path: "/a/42" }) }, /the route "two" collides with the route "one" in "fr"/],
    // One route's path in one language is another's in the other: a path could not be read.
    [
      { one: route({ path: { fr: "/etat", en: "/status" } }), two: route({ path: { fr: "/status", en: "/statut" } }) },
      /the route "two" collides with the route "one": its path in "fr", "\/status", is the other's in "en", "\/status"/,
    ],
  ] as const) {
    assert.throws(() => check(routes), reason);
  }
  // A fixed page before a parameter's, or a form that refuses it, leaves both reachable.
  check({ one: route({ path: "/a/new" }), two: route({ path: "/a/:id", indexable: false }) });
  check({ one: route({ path: "/a/:id", params: { id: /^[0-9]+$/u }, indexable: false }), two: route({ path: "/a/new" }) });
});

test("a route with data shared for a while, or private, passes, and the host knows its page waits for data", () => {
  const { routes } = check({ x: route({ loader, sharing: { kind: "public", maxSeconds: 60 } }), y: route({ path: "/y", loader, sharing: { kind: "private" } }), z: route({ path: "/z" }) });
  assert.deepEqual(
    routes.map(({ name, loads }) => [name, loads]),
    [["x", true], ["y", true], ["z", false]],
  );
});

test("a route may list its pages from a module of its own, read before the check", async () => {
  const listed = route({ path: "/a/:id", indexable: async () => [{ id: "1" }, { id: "2" }] });
  assert.throws(() => check({ listed }), /the route "listed": its pages' list is still coming/);
  assert.deepEqual(check(await listedPages({ listed })).sitemap, [{ route: "listed", pages: ["1", "2"] }]);
});
