// The status screen in every engine: its data is in the first paint and hydration calls
// nothing; reloading, changing language and navigating fetch in the browser.
import assert from "node:assert/strict";
import { inEachEngine } from "./engines/index.mjs";
import { appPage, startHost } from "./support.mjs";

/** The page's requests to /api. */
const apiCalls = (page) => page.requests().filter((r) => r.path.startsWith("/api/")).map((r) => r.path);

const shownTime = (page) => page.attribute("dl.status time", "datetime");

inEachEngine({ site: () => startHost() }, ({ scenario }) => {
  scenario("the status page hydrates with its data and no call to /api", async ({ page }) => {
    const served = await page.goto(await appPage("fr", "status"));
    assert.equal(served?.status, 200);
    assert.match(served.text, /<dd>0\.1\.0<\/dd>/, "the data is in the server's HTML");
    await page.idle();
    assert.deepEqual(apiCalls(page), [], "hydration called nothing");
    assert.equal(await page.spinnerSeen(), 0, "no spinner");
    assert.deepEqual(await page.problems(), [], "the console stays clean (no hydration mismatch)");
  });

  scenario("the reload button fetches in the browser and shows the new data in place", async ({ page }) => {
    await page.goto(await appPage("en", "status"));
    await page.idle();
    await page.hydrated();
    const before = await shownTime(page);
    await page.evaluate(() => (window.__samePage = true));
    // The server's time has a millisecond's resolution: the next answer must be later.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await page.click({ role: "button", name: "Reload" });
    await page.waitUntil((old) => document.querySelector("dl.status time")?.getAttribute("datetime") !== old, before);
    assert.deepEqual(apiCalls(page).length, 1, apiCalls(page).join("\n"));
    assert.ok((await shownTime(page)) > before, "a later server time");
    assert.equal(await page.evaluate("window.__samePage"), true, "no page load");
    assert.deepEqual(await page.problems(), []);
  });

  scenario("a change of language loads the data again, in the browser", async ({ page }) => {
    await page.goto(await appPage("fr", "status"));
    await page.idle();
    await page.hydrated();
    const before = await shownTime(page);
    await page.select({ label: "Langue" }, "en");
    await page.waitFor({ role: "heading", name: "Server status" });
    await page.waitUntil((old) => document.querySelector("dl.status time")?.getAttribute("datetime") !== old, before);
    assert.equal(apiCalls(page).length, 1, apiCalls(page).join("\n"));
    assert.equal(await page.evaluate("location.pathname"), await appPage("en", "status"), "the same page, at its English path");
    assert.match(await page.text({ css: "dl.status time" }), /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M$/);
    assert.deepEqual(await page.problems(), []);
  });

  scenario("the home page links to the status page, which loads its data without a page load", async ({ page }) => {
    await page.goto("/en/");
    await page.idle();
    await page.hydrated();
    await page.evaluate(() => (window.__samePage = true));
    await page.click({ role: "link", name: "The server’s status" });
    await page.waitFor({ role: "heading", name: "Server status" });
    await page.waitFor({ css: "dl.status time" });
    assert.equal(await page.evaluate("location.pathname"), await appPage("en", "status"));
    await page.waitUntil((title) => document.title === title, "Server status · Bilingue"); // set in an effect, after the paint
    assert.equal(apiCalls(page).length, 1, apiCalls(page).join("\n"));
    assert.equal(await page.evaluate("window.__samePage"), true, "no page load");
    await page.back();
    await page.waitFor({ role: "heading", name: "Welcome to Bilingue" });
    assert.equal(await page.evaluate("location.pathname"), "/en/");
    assert.deepEqual(await page.problems(), []);
  });
});
