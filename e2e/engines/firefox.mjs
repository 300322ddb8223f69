// Firefox: Debian's firefox-esr, driven with puppeteer-core over WebDriver BiDi. BiDi's log
// carries only console calls and uncaught errors, and names an object argument
// "JSHandle@object": the watcher keeps those in the page instead, with their text.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
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

/** @param {string | undefined} userDataDir */
const launchFirefox = (userDataDir) =>
  puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true, extraPrefsFirefox: OFFLINE_PREFS, userDataDir });

/**
 * A profile this Firefox has started with once, kept in the machine's test tools' cache
 * (`${XDG_CACHE_HOME:-~/.cache}/bilingue-tools`, beside the checkers), named by its build.
 * Each launch starts from a copy of it: with its startup cache made, a launch takes 2.4 s
 * of CPU where a new profile takes 4.3 s, and the suite launches Firefox once per file.
 * Made once per machine (renamed into place whole: files that start at once each make one,
 * and one wins); it holds nothing of a test, only what Firefox writes on an empty start.
 * Null when it cannot be made: the launch then makes a new profile, as before.
 */
async function profileTemplate() {
  const buildId = readFileSync(path.join(path.dirname(realpathSync(FIREFOX)), "application.ini"), "utf8").match(/^BuildID=(\w+)$/m)?.[1];
  const cache = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "bilingue-tools");
  if (!buildId) return null;
  const template = path.join(cache, `firefox-profile-${buildId}`);
  if (existsSync(template)) return template;
  mkdirSync(cache, { recursive: true });
  const making = mkdtempSync(`${template}.making-`);
  try {
    const browser = await launchFirefox(making);
    const page = await browser.newPage();
    await page.goto("about:blank");
    await browser.close();
    rmSync(path.join(making, "lock"), { force: true });
    rmSync(path.join(making, ".parentlock"), { force: true });
    renameSync(making, template);
  } catch {
    rmSync(making, { recursive: true, force: true });
  }
  return existsSync(template) ? template : null;
}

/** Launches Firefox once; each page has a user context (a browser context) of its own. */
export async function launch() {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: apt-get install -y firefox-esr`);
  const template = await profileTemplate().catch(() => null);
  const profile = template ? mkdtempSync(path.join(os.tmpdir(), "bilingue-firefox-")) : undefined;
  if (template && profile) cpSync(template, profile, { recursive: true });
  const dropProfile = () => profile && rmSync(profile, { recursive: true, force: true });
  const browser = await launchFirefox(profile).catch((error) => {
    dropProfile();
    throw error;
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
    async close() {
      await browser.close();
      dropProfile();
    },
  };
}
