// Firefox: Debian's firefox-esr, driven with puppeteer-core over WebDriver BiDi. BiDi's log
// carries only console calls and uncaught errors, and names an object argument
// "JSHandle@object": the watcher keeps those in the page instead, with their text.
import { existsSync } from "node:fs";
import puppeteer from "puppeteer-core";
import { TAKE_PROBLEMS, watcherScript } from "./watch.mjs";

const FIREFOX = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";
const WATCH = watcherScript({ console: true });
/** Beyond what puppeteer already turns off: the services that call the network on their own. */
const OFFLINE_PREFS = {
  "network.captive-portal-service.enabled": false,
  "network.connectivity-service.enabled": false,
  "network.dns.disablePrefetch": true,
  "network.predictor.enabled": false,
  "network.prefetch-next": false,
  "dom.push.enabled": false,
  "toolkit.telemetry.enabled": false,
  "toolkit.telemetry.server": "",
  "app.shield.optoutstudies.enabled": false,
  "browser.region.network.url": "",
  "browser.topsites.contile.enabled": false,
  "extensions.blocklist.enabled": false,
};

/** Launches Firefox once; each page has a user context (a browser context) of its own. */
export async function launch() {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: apt-get install -y firefox-esr`);
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: OFFLINE_PREFS,
  });
  return {
    name: "firefox",
    async newPage() {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.evaluateOnNewDocument(WATCH);
      const element = async (/** @type {string} */ expression) => {
        const found = (await page.evaluateHandle(expression)).asElement();
        if (!found) throw new Error(`not an element: ${expression}`);
        return /** @type {import("puppeteer-core").ElementHandle<Element>} */ (found);
      };
      return {
        navigate: async (/** @type {string} */ url) => void (await page.goto(url, { waitUntil: "load" })),
        reload: async () => void (await page.reload({ waitUntil: "load" })),
        back: async () => void (await page.goBack()),
        evaluate: (/** @type {string} */ expression) => page.evaluate(expression),
        click: async (/** @type {string} */ expression) => (await element(expression)).click(),
        select: async (/** @type {string} */ expression, /** @type {string} */ value) =>
          void (await /** @type {import("puppeteer-core").ElementHandle<HTMLSelectElement>} */ (await element(expression)).select(value)),
        setViewport: (/** @type {number} */ width, /** @type {number} */ height) => page.setViewport({ width, height }),
        /** What the watcher kept (the console included) since the last call. */
        problems: async () => /** @type {string[]} */ (await page.evaluate(TAKE_PROBLEMS).catch(() => [])),
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}
