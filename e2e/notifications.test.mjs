// The home screen's call to /api, told in a notification placed and timed as specified.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useHostAndBrowser, watchedPage } from "./support.mjs";

const VIEWPORT = { width: 1000, height: 700 };
const running = useHostAndBrowser();

/**
 * Clicks the button, then watches the notification in the page: its box once fully shown,
 * and the time from its appearance until it starts leaving (or is removed).
 */
async function clickAndWatch(page, buttonName) {
  const watching = page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const giveUp = setTimeout(() => reject(new Error("no notification closed within 6 s")), 6000);
        let appearedAt = null;
        let shownAt = null;
        let box = null;
        let text = null;
        const opacity = (el) => {
          let value = 1;
          for (let e = el; e && e !== document.body; e = e.parentElement) value *= Number(getComputedStyle(e).opacity);
          return value;
        };
        const tick = () => {
          const toast = [...document.querySelectorAll('[role="status"]')].find((e) => e.textContent.trim() !== "");
          const now = performance.now();
          if (toast && appearedAt === null) appearedAt = now;
          if (toast && shownAt === null && opacity(toast) > 0.99) {
            shownAt = now;
            const rect = toast.parentElement.getBoundingClientRect();
            box = { top: rect.top, centre: rect.left + rect.width / 2 };
            text = toast.textContent;
          }
          if (shownAt !== null && (!toast || opacity(toast) < 0.99)) {
            clearTimeout(giveUp);
            resolve({ box, text, openMs: now - appearedAt, viewportCentre: window.innerWidth / 2 });
            return;
          }
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
  await page.getByRole("button", { name: buttonName }).click();
  return watching;
}

test("the server's answer shows in a notification 65 px from the top, centred, closing after about 1.5 s", async (t) => {
  const { context, page, problems } = await watchedPage(running.browser);
  await page.setViewportSize(VIEWPORT);
  await page.goto(`${running.host.baseUrl}/fr/`);
  await page.waitForLoadState("networkidle");
  const seen = await clickAndWatch(page, "Vérifier le serveur");
  t.diagnostic(`notification: top ${seen.box.top} px, centre ${seen.box.centre}/${seen.viewportCentre} px, open ${Math.round(seen.openMs)} ms`);
  assert.match(seen.text, /^Le serveur répond : version 0\.1\.0, \d/);
  // The toast's own top margin is part of the library's layout; the container sits at 65 px.
  assert.ok(Math.abs(seen.box.top - 65) <= 8, `top ${seen.box.top}`);
  assert.ok(Math.abs(seen.box.centre - seen.viewportCentre) <= 2, `centre ${seen.box.centre}`);
  assert.ok(seen.openMs >= 1400 && seen.openMs <= 2000, `open for ${seen.openMs} ms`);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a failed call shows the error's detail in a translated notification", async () => {
  const { context, page, problems } = await watchedPage(running.browser);
  await page.goto(`${running.host.baseUrl}/en/`);
  await page.waitForLoadState("networkidle");
  await page.route("**/api/status", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "maintenance" }) }),
  );
  const seen = await clickAndWatch(page, "Check the server");
  assert.equal(seen.text, "The server does not answer: maintenance");
  // 5xx: the client logs the error and the request configuration, as specified.
  assert.ok(problems.some((p) => p.startsWith("error:") && p.includes("503")), problems.join("\n"));
  await context.close();
});
