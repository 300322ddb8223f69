// Every policy the host sends, judged by Google's CSP Evaluator (npm
// `@doyensec/csp-evaluator`, a port of it): no high-severity finding on any page, the
// client-rendered page and the development loop's pages included, nor on the other
// answers. The pages' own policy is computed from each document (its inline starter's
// hash); the browser tests prove the pages run under it in each engine.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, test } from "node:test";
import { appPage, startHost } from "./support.mjs";

const csp = createRequire(import.meta.url)("@doyensec/csp-evaluator");
const { HIGH, HIGH_MAYBE } = csp.Finding.Severity;

/** The evaluator's findings on `policy`, as CSP 3 browsers read it. */
function findings(policy) {
  const parsed = new csp.CspParser(policy).csp;
  return new csp.CspEvaluator(parsed, csp.Version.CSP3).evaluate();
}

let host;
before(async () => {
  host = await startHost(["--render-threads", "1"]);
});
after(async () => host?.stop());

test("no page or answer of the host has a high-severity finding", async () => {
  const seen = new Map();
  const status = await appPage("fr", "status");
  // A page, the streamed page, a 404, a way to a page (unprefixed, or in another language's words), the API, the crawlers' files.
  const elsewhere = `/fr${(await appPage("en", "languages", { code: "en" })).slice(3)}`;
  for (const path of ["/fr/", "/en/", status, "/en/nowhere", "/de/", "/", elsewhere, "/api/status", "/robots.txt", "/sitemap.xml"]) {
    const answer = await fetch(host.baseUrl + path, { redirect: "manual" });
    const policy = answer.headers.get("content-security-policy");
    assert.ok(policy, `${path} has a policy`);
    const high = findings(policy).filter((f) => f.severity === HIGH || f.severity === HIGH_MAYBE);
    assert.deepEqual(
      high.map((f) => `${f.directive}: ${f.description}`),
      [],
      `${path}: ${policy}`,
    );
    seen.set(path, policy);
  }
  const page = seen.get("/fr/");
  assert.match(page, /script-src 'sha256-[A-Za-z0-9+/]{43}=' 'strict-dynamic';/);
  assert.doesNotMatch([...seen.values()].join(" "), /unsafe-inline|unsafe-eval/);
});

test("the evaluator does find what a weak policy allows (the check can fail)", () => {
  const weak = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'";
  assert.ok(findings(weak).some((f) => f.severity === HIGH));
});
