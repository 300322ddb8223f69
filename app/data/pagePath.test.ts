import assert from "node:assert/strict";
import { test } from "node:test";
import { PAGE_PATH_AT_MOST } from "../contract";
import { LANGUAGES } from "../i18n/languages";
import { bootMatch } from "../bootMatch";
import { NOT_FOUND, resolveRoute, ROUTES } from "../routes";
import cases from "./path-cases.json";
import { canonicalPath, isPagePath } from "./pagePath";
import { pageOf, pathIn } from "./router";

const long = "z".repeat(PAGE_PATH_AT_MOST);

// The host reads the same cases (host/url_path.rs).
test("the app and the host read the same page paths", () => {
  assert.ok(cases.length >= 10);
  for (const { path, canonical, page } of cases) {
    const asked = path.replace("{long}", long);
    const written = canonicalPath(asked);
    assert.equal(written, canonical.replace("{long}", long), asked.slice(0, 60));
    assert.equal(isPagePath(written), page, asked.slice(0, 60));
    assert.equal(canonicalPath(written), written, "canonical twice is the same");
  }
});

test("a path no page can have is the not-found page, whatever the routes", () => {
  const page = pageOf(ROUTES, { to: "languages", params: { code: "en" } });
  for (const { code } of LANGUAGES) {
    const path = pathIn(page, code);
    assert.notEqual(resolveRoute(code, path).route, NOT_FOUND, path);
    assert.equal(resolveRoute(code, `/${path}`).route, NOT_FOUND, `/${path}`);
    assert.equal(resolveRoute(code, `${path}${"/x".repeat(PAGE_PATH_AT_MOST)}`).route, NOT_FOUND);
  }
});

test("a path a browser leaves raw is read as the host reads it", () => {
  for (const { code } of LANGUAGES) {
    const path = pathIn(pageOf(ROUTES, { to: "languages", params: { code: "x" } }), code).replace(/x$/, "x|y");
    const match = resolveRoute(code, path);
    assert.equal(match.route, NOT_FOUND, "x|y is no language");
    assert.equal(match.asked, canonicalPath(path));
  }
});

test("the not-found page the host found is what was asked, canonical", () => {
  const match = bootMatch({ language: LANGUAGES[0].code, path: "/nope|x", page: { route: null, params: {} } });
  assert.equal(match.route, NOT_FOUND);
  assert.equal(match.asked, "/nope%7Cx");
});
