// Chromium: Debian's chromium, driven with playwright-core over the DevTools protocol.
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { TAKE_PROBLEMS, watcherScript } from "./watch.mjs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** What Chromium needs on this machine: no sandbox as root, and no calls to the network. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const WATCH = watcherScript();

/** Launches Chromium once; each page has a browser context of its own. */
export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  return {
    name: "chromium",
    async newPage() {
      // Headless Chromium's own user agent names it headless, which isbot (and so the
      // host) reads as a crawler's: the pages people get are tested with a person's.
      const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;
      const context = await browser.newContext({ userAgent });
      const page = await context.newPage();
      /** @type {string[]} */
      const heard = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") heard.push(`${message.type()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => heard.push(`pageerror: ${error.message}`));
      await page.addInitScript(WATCH);
      const element = async (/** @type {string} */ expression) => {
        const found = (await page.evaluateHandle(expression)).asElement();
        if (!found) throw new Error(`not an element: ${expression}`);
        return found;
      };
      return {
        navigate: async (/** @type {string} */ url) => void (await page.goto(url)),
        reload: async () => void (await page.reload()),
        back: async () => void (await page.goBack()),
        evaluate: (/** @type {string} */ expression) => page.evaluate(expression),
        click: async (/** @type {string} */ expression) => (await element(expression)).click(),
        select: async (/** @type {string} */ expression, /** @type {string} */ value) =>
          void (await (await element(expression)).selectOption(value)),
        setViewport: (/** @type {number} */ width, /** @type {number} */ height) => page.setViewportSize({ width, height }),
        /** What the console said and the watcher kept since the last call. */
        problems: async () => [...heard.splice(0), ...(await page.evaluate(TAKE_PROBLEMS).catch(() => []))],
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}
