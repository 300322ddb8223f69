// The server's page hydrates in Chromium: no console error or hydration warning, no spinner.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useHostAndBrowser, watchedPage } from "./support.mjs";

const running = useHostAndBrowser();

for (const [path, lang, heading, clicked] of [
  ["/fr/", "fr", "Bienvenue sur Bilingue", "1 clic"],
  ["/en/", "en", "Welcome to Bilingue", "1 click"],
  ["/", "fr", "Bienvenue sur Bilingue", "1 clic"],
]) {
  test(`${path} hydrates cleanly in ${lang} with no spinner`, async () => {
    const { context, page, problems } = await watchedPage(running.browser);
    const response = await page.goto(running.host.baseUrl + path);
    assert.equal(response.status(), 200);
    const served = await response.text();
    assert.match(served, new RegExp(`<h1>${heading}</h1>`), "the heading is in the server's HTML");
    assert.doesNotMatch(served, /role="status"/, "no spinner in the server's HTML");

    // A click changes the counter only once React has hydrated the button.
    await page.getByRole("button", { name: lang === "fr" ? "Cliquer" : "Click" }).click();
    await page.locator("output").filter({ hasText: clicked }).waitFor({ timeout: 5000 });

    assert.equal(await page.getAttribute("html", "lang"), lang);
    assert.equal(await page.getAttribute('meta[http-equiv="content-language"]', "content"), lang);
    assert.equal(await page.evaluate(() => window.__spinnerSeen), 0, "no spinner flashed");
    assert.deepEqual(problems, [], "the console stays clean");
    await context.close();
  });
}

test("the 404 page hydrates cleanly too", async () => {
  const { context, page, problems } = await watchedPage(running.browser);
  const response = await page.goto(`${running.host.baseUrl}/en/nowhere`);
  assert.equal(response.status(), 404);
  await page.getByRole("heading", { name: "Page not found" }).waitFor();
  // Only a hydrated page answers its language control.
  await page.getByLabel("Language").selectOption("fr");
  await page.getByRole("heading", { name: "Page introuvable" }).waitFor({ timeout: 5000 });
  await page.getByRole("link", { name: "Retour à l’accueil" }).waitFor();
  assert.equal(await page.evaluate(() => location.pathname), "/fr/nowhere");
  await page.waitForLoadState("networkidle");
  // Chromium reports the document's own 404 status; nothing else may appear.
  const others = problems.filter((p) => !(p.includes("404") && p.includes("Failed to load resource")));
  assert.deepEqual(others, []);
  assert.equal(problems.length, 1, "only the document's own 404");
  await context.close();
});

test("the page's policy runs its own scripts and blocks an injected one", async () => {
  const { context, page, problems } = await watchedPage(running.browser);
  // What an HTML injection would add to the server's answer: an inline script with no
  // nonce. The answer's headers, its policy included, are kept as served.
  await page.route("**/en/", async (route) => {
    const served = await route.fetch();
    const html = (await served.text()).replace("</body>", "<script>window.__injected = true</script></body>");
    await route.fulfill({ response: served, body: html });
  });
  const response = await page.goto(`${running.host.baseUrl}/en/`);
  const policy = response.headers()["content-security-policy"];
  assert.match(policy, /script-src 'nonce-[0-9a-f]{32}' 'strict-dynamic'/);
  await page.getByRole("button", { name: "Click" }).click();
  await page.locator("output").filter({ hasText: "1 click" }).waitFor({ timeout: 5000 });
  assert.equal(await page.evaluate(() => window.__injected), undefined, "the injected script did not run");
  assert.equal(problems.filter((p) => p.startsWith("error: csp violation: script-src")).length, 1, problems.join("\n"));
  assert.deepEqual(
    problems.filter((p) => !p.includes("Content Security Policy") && !p.includes("csp violation")),
    [],
    "every script the page itself loads is allowed",
  );
  await context.close();
});
