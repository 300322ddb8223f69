// A page whose data is slow, in headless Chromium as a person's browser: the shell and the
// part's fallback are painted before the data arrives, then the data, with a clean console
// and no hydration warning in React's development build, and no call to /api for data the
// stream delivered. A crawler gets the same page whole. A part that fails to render on the
// server shows over the page with its file and line. The app runs in the development loop,
// its API behind an upstream that takes its time.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { copyOfTheApp, startDevLoop } from "./devloop.mjs";
import { appPage } from "./support.mjs";
import { CHROMIUM, CHROMIUM_FLAGS } from "./engines/chromium.mjs";

const UPSTREAM_DELAY_MS = 1500;
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let upstream;
let copy;
let loop;
let browser;
before(async () => {
  upstream = http.createServer((request, response) => {
    setTimeout(() => {
      const body = JSON.stringify({ version: "9.9.9", languages: ["fr", "en"], serverTime: new Date().toISOString() });
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    }, UPSTREAM_DELAY_MS);
  });
  await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  copy = await copyOfTheApp();
  loop = await startDevLoop(copy, ["--api-upstream", `http://127.0.0.1:${upstream.address().port}`]);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
});
after(async () => {
  await browser?.close();
  await loop?.stop();
  await copy?.remove();
  upstream?.close();
});

/** A page with a person's user agent (headless Chromium's own is a crawler's, per isbot). */
async function personsPage() {
  const version = browser.version();
  const context = await browser.newContext({
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36`,
  });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  const api = [];
  page.on("request", (request) => new URL(request.url()).pathname.startsWith("/api/") && api.push(request.url()));
  await page.addInitScript(() => {
    const seen = (window.__seen = {});
    const look = () => {
      for (const [name, selector] of [
        ["heading", "h1"],
        ["fallback", 'main p[aria-busy="true"]'],
        ["data", "dl.status"],
      ]) {
        if (seen[name] === undefined && document.querySelector(selector)) seen[name] = performance.now();
      }
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) seen[entry.name] = entry.startTime;
    }).observe({ type: "paint", buffered: true });
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`csp violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return { context, page, problems, api };
}

test("the shell and the fallback are painted before the data, which follows in the same page", async () => {
  const { context, page, problems, api } = await personsPage();
  await page.goto(`${loop.baseUrl}${await appPage("fr", "status")}`);
  await page.locator("dl.status").waitFor({ timeout: 10_000 });
  await page.waitForLoadState("networkidle");
  const seen = await page.evaluate(() => window.__seen);
  test.diagnostic?.(JSON.stringify(seen));
  console.log(`# painted at ${Math.round(seen["first-contentful-paint"])} ms, fallback at ${Math.round(seen.fallback)} ms, data at ${Math.round(seen.data)} ms`);
  assert.ok(seen.fallback !== undefined, "the fallback was in the page");
  assert.ok(seen["first-contentful-paint"] < seen.data - 500, "painted well before the data came");
  assert.ok(seen.heading <= seen.fallback && seen.fallback < seen.data, "shell, fallback, then data");
  assert.equal(await page.locator('main p[aria-busy="true"]').count(), 0, "the fallback gave way");
  assert.match(await page.locator("dl.status dd").first().innerText(), /^9\.9\.9$/);
  assert.deepEqual(api, [], "hydration called nothing: the stream delivered the data");
  assert.deepEqual(problems, [], "a clean console: no hydration warning, no policy violation");
  // Hydrated: the reload button fetches in the browser.
  await page.getByRole("button", { name: "Actualiser" }).click();
  await page.waitForFunction(() => document.querySelector('dl.status[aria-busy="false"]') && window.__seen);
  await context.close();
});

test("a crawler gets the same page whole, in one piece, its data in it", async () => {
  const answer = await fetch(`${loop.baseUrl}${await appPage("fr", "status")}`, { headers: { "user-agent": GOOGLEBOT } });
  assert.equal(answer.status, 200);
  assert.ok(answer.headers.get("content-length"), "in one piece");
  const html = await answer.text();
  assert.match(html, /<dd>9\.9\.9<\/dd>/);
  assert.doesNotMatch(html, /aria-busy="true"|\$RC\(|hidden id="S:/, "no fallback in what is indexed");
});

test("a part that fails in the server render shows over the page with its file and line", async () => {
  const status = "app/ui/Status.tsx";
  const good = await copy.read(status);
  const broken = good.replace(
    "  const { outcome } = data;",
    '  const { outcome } = data;\n  if (outcome && typeof window === "undefined") throw new Error("boom in StatusDetails");',
  );
  assert.notEqual(broken, good, "the part was found");
  await copy.write(status, broken);
  try {
    for (let served = ""; !served.includes("boom in StatusDetails"); await new Promise((r) => setTimeout(r, 100))) {
      served = await (await fetch(`${loop.baseUrl}${await appPage("en", "status")}`)).text();
    }
    const { context, page } = await personsPage();
    await page.goto(`${loop.baseUrl}${await appPage("en", "status")}`);
    const overlay = page.locator("#bilingue-dev-overlay");
    await overlay.waitFor({ timeout: 10_000 });
    const shown = await overlay.innerText();
    assert.match(shown, /The server render failed/);
    assert.match(shown, /boom in StatusDetails/);
    assert.match(shown, /app\/ui\/Status\.tsx:\d+:\d+/, "mapped to the source");
    assert.match(loop.output(), /boom in StatusDetails/, "the terminal says it too");
    await context.close();
  } finally {
    await copy.write(status, good);
  }
});
