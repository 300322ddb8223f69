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
  await page.getByRole("link", { name: "Back to the home page" }).waitFor();
  await page.waitForLoadState("networkidle");
  // Chromium reports the document's own 404 status; nothing else may appear.
  const others = problems.filter((p) => !(p.includes("404") && p.includes("Failed to load resource")));
  assert.deepEqual(others, []);
  assert.equal(problems.length, 1, "only the document's own 404");
  await context.close();
});
