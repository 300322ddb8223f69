import assert from "node:assert/strict";
import { test } from "node:test";
import { NOT_FOUND, ROUTES } from "../routes";
import { checkRoutes } from "./routeCheck";
import type { Route } from "./route";

const loader = { load: async () => ({}) };
const route = (changes: Partial<Route>): Route => ({ ...ROUTES[0], path: "/x", ...changes });

test("the app's routes pass, and the sitemap lists each language's page", () => {
  const { sitemap, patterns } = checkRoutes(ROUTES, NOT_FOUND);
  assert.deepEqual(sitemap, ["/", "/status", "/languages/fr", "/languages/en"]);
  assert.deepEqual(patterns, ["/", "/status", "/languages/:code"]);
});

test("a route the host could not serve as declared is refused, naming it", () => {
  for (const [bad, reason] of [
    [route({ loader, sharing: { kind: "public" } }), /the route "\/x" has a loader and declares its page public with no "maxSeconds"/],
    [route({ sharing: { kind: "public", maxSeconds: 0 } }), /"maxSeconds" must be a whole number of seconds above 0, not 0/],
    [route({ sharing: { kind: "public", maxSeconds: 1.5 } }), /not 1\.5/],
    [route({ sharing: { kind: "shared" } as never }), /"sharing" is \{ kind: "public" \} or \{ kind: "private" \}/],
    [route({ sharing: { kind: "private", maxSeconds: 60 } as never }), /a private page takes no "maxSeconds"/],
    [route({ path: "/x/:id", indexable: true }), /has parameters, so the sitemap cannot list it by its pattern/],
    [route({ path: "/x/:id", indexable: () => ["/x/1", "/y/2"] }), /lists "\/y\/2" among its pages, which its pattern does not match/],
    [route({ indexable: () => ["/x"] }), /has no parameters: write indexable: true/],
    [route({ path: "x" }), /must start with "\/"/],
    [route({ path: "/x/:id", indexable: false, params: { code: /^a$/ } }), /declares the form of "code", which is not one of its parameters/],
    [route({ path: "/x/:id", indexable: false, params: { id: /[a-z]+/ } }), /the form of "id", \/\[a-z\]\+\/, must match the whole value: anchor it/],
    [route({ path: "/x/:id", indexable: false, params: { id: /^a$/g } }), /the form of "id" must not have the g or y flag/],
    [route({ path: "/x/:id", indexable: false, params: { id: "^a$" as never } }), /the form of "id" must be a regular expression/],
    [route({ path: "/x/:id", params: { id: /^\d+$/ }, indexable: () => ["/x/1", "/x/one"] }), /lists "\/x\/one" among its pages, which its pattern does not match/],
  ] as const) {
    assert.throws(() => checkRoutes([bad], NOT_FOUND), reason);
  }
  assert.throws(() => checkRoutes([route({}), route({})], NOT_FOUND), /the route "\/x" is declared twice/);
  assert.throws(() => checkRoutes([], { ...NOT_FOUND, status: 200 }), /the not-found route must have status 404/);
});

test("a route with data shared for a while, or private, passes", () => {
  checkRoutes([route({ loader, sharing: { kind: "public", maxSeconds: 60 } }), route({ path: "/y", loader, sharing: { kind: "private" } })], NOT_FOUND);
});
