// The status screen in a real browser: its data is in the first paint and hydration calls
// nothing; reloading, changing language and navigating fetch in the browser.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useHostAndBrowser, watchedPage } from "./support.mjs";

const running = useHostAndBrowser();

/** Records every request the page makes to /api. */
function apiCalls(page) {
  const calls = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/")) calls.push(request.url());
  });
  return calls;
}

const shownTime = (page) => page.locator("dl.status time").getAttribute("datetime");

test("the status page hydrates with its data and no call to /api", async () => {
  const { context, page, problems } = await watchedPage(running.browser);
  const calls = apiCalls(page);
  const response = await page.goto(`${running.host.baseUrl}/fr/status`);
  assert.equal(response.status(), 200);
  const served = await response.text();
  assert.match(served, /<dd>0\.1\.0<\/dd>/, "the data is in the server's HTML");
  // The reload button answers only once React has hydrated the page.
  await page.waitForLoadState("networkidle");
  assert.deepEqual(calls, [], "hydration called nothing");
  assert.equal(await page.evaluate(() => window.__spinnerSeen), 0, "no spinner");
  assert.deepEqual(problems, [], "the console stays clean (no hydration mismatch)");
  await context.close();
});

test("the reload button fetches in the browser and shows the new data in place", async () => {
  const { context, page, problems } = await watchedPage(running.browser);
  const calls = apiCalls(page);
  await page.goto(`${running.host.baseUrl}/en/status`);
  await page.waitForLoadState("networkidle");
  const before = await shownTime(page);
  await page.evaluate(() => (window.__samePage = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  await page.getByRole("button", { name: "Reload" }).click();
  await page.waitForFunction((old) => document.querySelector("dl.status time")?.getAttribute("datetime") !== old, before);
  assert.equal(calls.length, 1, calls.join("\n"));
  assert.ok((await shownTime(page)) > before, "a later server time");
  assert.equal(await page.evaluate(() => window.__samePage), true, "no page load");
  assert.deepEqual(problems, []);
  await context.close();
});

test("a change of language loads the data again, in the browser", async () => {
  const { context, page, problems } = await watchedPage(running.browser);
  const calls = apiCalls(page);
  await page.goto(`${running.host.baseUrl}/fr/status`);
  await page.waitForLoadState("networkidle");
  const before = await shownTime(page);
  await page.getByLabel("Langue").selectOption("en");
  await page.getByRole("heading", { name: "Server status" }).waitFor();
  await page.waitForFunction((old) => document.querySelector("dl.status time")?.getAttribute("datetime") !== old, before);
  assert.equal(calls.length, 1, calls.join("\n"));
  assert.equal(await page.evaluate(() => location.pathname), "/en/status");
  assert.match(await page.locator("dl.status time").innerText(), /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M$/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the home page links to the status page, which loads its data without a page load", async () => {
  const { context, page, problems } = await watchedPage(running.browser);
  const calls = apiCalls(page);
  await page.goto(`${running.host.baseUrl}/en/`);
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => (window.__samePage = true));
  await page.getByRole("link", { name: "The server’s status" }).click();
  await page.getByRole("heading", { name: "Server status" }).waitFor();
  await page.locator("dl.status time").waitFor();
  assert.equal(await page.evaluate(() => location.pathname), "/en/status");
  assert.equal(await page.title(), "Server status · Bilingue");
  assert.equal(calls.length, 1, calls.join("\n"));
  assert.equal(await page.evaluate(() => window.__samePage), true, "no page load");
  await page.goBack();
  await page.getByRole("heading", { name: "Welcome to Bilingue" }).waitFor();
  assert.equal(await page.evaluate(() => location.pathname), "/en/");
  assert.deepEqual(problems, []);
  await context.close();
});
