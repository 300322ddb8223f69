// The home screen's call to /api, told in a notification placed and timed as specified,
// in every engine.
import assert from "node:assert/strict";
import { inEachEngine } from "./engines/index.mjs";
import { startHost } from "./support.mjs";

const VIEWPORT = { width: 1000, height: 700 };

/**
 * Runs in the page, from before the click: watches the notification frame by frame, and
 * puts in `window.__notification` its box once fully shown and the time from its
 * appearance until it starts leaving (or is removed).
 */
function watchNotification() {
  const giveUp = setTimeout(() => (window.__notification = { error: "no notification closed within 6 s" }), 6000);
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
      window.__notification = { box, text, openMs: now - appearedAt, viewportCentre: window.innerWidth / 2 };
      return;
    }
    requestAnimationFrame(tick);
  };
  window.__notification = null;
  requestAnimationFrame(tick);
}

/** Clicks the button and watches the notification it brings. */
async function clickAndWatch(page, buttonName) {
  await page.evaluate(watchNotification);
  await page.click({ role: "button", name: buttonName });
  const seen = await page.waitUntil(() => window.__notification, undefined, { timeout: 8000 });
  if (seen.error) throw new Error(seen.error);
  return seen;
}

inEachEngine({ site: () => startHost() }, ({ scenario }) => {
  scenario("the server's answer shows in a notification 65 px from the top, centred, closing after about 1.5 s", async ({ page, t }) => {
    await page.setViewport(VIEWPORT.width, VIEWPORT.height);
    await page.goto("/fr/");
    await page.idle();
    await page.hydrated();
    const seen = await clickAndWatch(page, "Vérifier le serveur");
    t.diagnostic(`notification: top ${seen.box.top} px, centre ${seen.box.centre}/${seen.viewportCentre} px, open ${Math.round(seen.openMs)} ms`);
    assert.match(seen.text, /^Le serveur répond : version 0\.1\.0, \d/);
    // The toast's own top margin is part of the library's layout; the container sits at 65 px.
    assert.ok(Math.abs(seen.box.top - 65) <= 8, `top ${seen.box.top}`);
    assert.ok(Math.abs(seen.box.centre - seen.viewportCentre) <= 2, `centre ${seen.box.centre}`);
    assert.ok(seen.openMs >= 1400 && seen.openMs <= 2000, `open for ${seen.openMs} ms`);
    assert.deepEqual(await page.problems(), []);
  });

  scenario("a failed call shows the error's detail in a translated notification", async ({ page }) => {
    await page.goto("/en/");
    await page.idle();
    await page.hydrated();
    page.intercept(/^\/api\/status$/, (intercepted) =>
      intercepted.fulfill({ status: 503, type: "application/json", body: JSON.stringify({ error: "maintenance" }) }),
    );
    const seen = await clickAndWatch(page, "Check the server");
    assert.equal(seen.text, "The server does not answer: maintenance");
    // 5xx: the client logs the error and the request configuration, as specified.
    const problems = await page.problems();
    assert.ok(problems.some((p) => p.startsWith("error:") && p.includes("503")), problems.join("\n"));
  });
});
