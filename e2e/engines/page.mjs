// The page a scenario drives, the same in every engine: built on an engine's driver (which
// only evaluates expressions, clicks, selects and navigates) and on the proxy (which sees
// the network). Waits poll the page, so they survive a navigation.
import { describeQuery, matching } from "./locate.mjs";

const POLL_MS = 40;
const TIMEOUT_MS = 10_000;
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @typedef {import("./locate.mjs").Query} Query
 * @typedef {import("./proxy.mjs").Proxy} Proxy
 * @typedef {import("./proxy.mjs").InterceptedRequest} InterceptedRequest
 * @typedef {{
 *   navigate: (url: string) => Promise<void>,
 *   reload: () => Promise<void>,
 *   back: () => Promise<void>,
 *   evaluate: (expression: string) => Promise<any>,
 *   click: (expression: string) => Promise<void>,
 *   select: (expression: string, value: string) => Promise<void>,
 *   setViewport: (width: number, height: number) => Promise<void>,
 *   problems: () => Promise<string[]>,
 *   hung?: () => string | null,
 *   close: () => Promise<void>,
 * }} DriverPage
 * @typedef {{ name: string, newPage: (options: { proxy: Proxy }) => Promise<DriverPage>, close: () => Promise<void> }} Engine
 */

/** Opens a page of `engine` that reaches the site through `proxy`. */
export async function openPage(/** @type {Engine} */ engine, /** @type {Proxy} */ proxy) {
  const driver = await engine.newPage({ proxy });
  const opened = proxy.mark();
  /** @type {(() => void)[]} */
  const removals = [];
  /** @type {string[]} */
  const problems = [];
  const evaluate = (/** @type {Function | string} */ fn, /** @type {unknown} */ arg) =>
    driver.evaluate(typeof fn === "string" ? fn : `(${fn})(${arg === undefined ? "" : JSON.stringify(arg)})`);

  /** Polls `expression` until it is truthy; its value. Errors while a page changes are retried. */
  async function until(/** @type {string} */ expression, /** @type {string} */ what, timeout = TIMEOUT_MS) {
    const deadline = Date.now() + timeout;
    let last = null;
    for (;;) {
      try {
        const value = await driver.evaluate(expression);
        if (value) return value;
      } catch (error) {
        last = error;
      }
      if (Date.now() > deadline) throw new Error(`${engine.name}: ${what} within ${timeout} ms${last ? ` (${last})` : ""}`);
      await sleep(POLL_MS);
    }
  }

  /** The one element matching `query`, once it is there (as Playwright's strict locators). */
  async function one(/** @type {Query} */ query) {
    const count = await until(`${matching(query)}.length`, `no element ${describeQuery(query)}`);
    if (count > 1) throw new Error(`${engine.name}: ${count} elements match ${describeQuery(query)}`);
    return `${matching(query)}[0]`;
  }

  async function navigated(/** @type {() => Promise<void>} */ go, /** @type {string} */ path) {
    problems.push(...(await driver.problems()));
    const before = proxy.mark();
    await go();
    const documents = proxy.documentsSince(before);
    // A redirect (an unprefixed URL leads to the prefixed page) served the page elsewhere.
    const served = documents.filter((d) => d.path === path).at(-1) ?? documents.at(-1);
    return served ?? null;
  }

  return {
    engine: engine.name,
    url: (/** @type {string} */ path) => proxy.baseUrl + path,
    /** Opens `path`; the document the site served for it, or where it led (null if the
     * browser used its cache). */
    goto: (/** @type {string} */ path) => navigated(() => driver.navigate(proxy.baseUrl + path), path),
    reload: async () => {
      const path = await evaluate("location.pathname + location.search");
      return navigated(() => driver.reload(), path);
    },
    back: () => driver.back(),
    /** The last document the site served this page (as the proxy saw it), or null. */
    lastDocument: () => proxy.documentsSince(opened).at(-1) ?? null,
    evaluate,
    /** The first driver command that did not answer in time (the engine hung), or null. */
    engineHung: () => driver.hung?.() ?? null,
    /**
     * Waits until React has hydrated the app (its root element carries React's props) and
     * run the effects of that first commit: an interaction before that would meet a page
     * that does not answer yet. A hydration's effects run a task after its commit: a history
     * move between the two found no `popstate` listener.
     * The navigation's effects, which attach it, also take the scroll position from the
     * browser (`history.scrollRestoration`, "auto" until then), and run together.
     */
    hydrated: () =>
      until(
        `(() => { const root = document.querySelector("#app > *"); return !!root && Object.keys(root).some((key) => key.startsWith("__reactProps$")) && history.scrollRestoration === "manual"; })()`,
        "React did not hydrate #app",
      ),
    /** Waits until `fn(arg)` is truthy in the page; its value. */
    waitUntil: (/** @type {Function} */ fn, /** @type {unknown} */ arg, { timeout = TIMEOUT_MS } = {}) =>
      until(`(${fn})(${arg === undefined ? "" : JSON.stringify(arg)})`, `${fn} stayed false`, timeout),
    /** Waits until an element matches `query` (`gone: true`: until none does). */
    async waitFor(/** @type {Query} */ query, { gone = false, timeout = TIMEOUT_MS } = {}) {
      const test = gone ? `${matching(query)}.length === 0` : `${matching(query)}.length > 0`;
      await until(test, gone ? `${describeQuery(query)} is still there` : `no element ${describeQuery(query)}`, timeout);
    },
    count: (/** @type {Query} */ query) => driver.evaluate(`${matching(query)}.length`),
    text: async (/** @type {Query} */ query) => driver.evaluate(`${await one(query)}.innerText`),
    value: async (/** @type {Query} */ query) => driver.evaluate(`${await one(query)}.value`),
    attribute: (/** @type {string} */ css, /** @type {string} */ name) =>
      evaluate(([css, name]) => document.querySelector(css)?.getAttribute(name) ?? null, [css, name]),
    /** `fn(element)` in the page, on the one element matching `query`. */
    evaluateOn: async (/** @type {Query} */ query, /** @type {Function} */ fn) => driver.evaluate(`(${fn})(${await one(query)})`),
    click: async (/** @type {Query} */ query) => driver.click(await one(query)),
    select: async (/** @type {Query} */ query, /** @type {string} */ value) => driver.select(await one(query), value),
    setViewport: (/** @type {number} */ width, /** @type {number} */ height) => driver.setViewport(width, height),
    /** How many times a spinner was in the document since it started loading. */
    spinnerSeen: () => evaluate(() => window.__e2e.spinnerSeen),
    /** The requests this page made, as the site saw them. */
    requests: () => proxy.requestsSince(opened),
    /** Lets `handle` answer this page's requests whose path matches `pattern`. */
    intercept(/** @type {RegExp} */ pattern, /** @type {(intercepted: InterceptedRequest) => unknown} */ handle) {
      const remove = proxy.intercept(pattern, handle);
      removals.push(remove);
      return remove;
    },
    /** Resolves once the network has been quiet for half a second. */
    idle: () => proxy.idle(),
    /**
     * Every problem seen so far: console errors and warnings, uncaught errors, and
     * Content-Security-Policy violations both as the page saw them and as the browser
     * reported them to the proxy.
     */
    async problems() {
      problems.push(...(await driver.problems()));
      return [...problems, ...proxy.reportsSince(opened)];
    },
    /** Waits until a problem matches `pattern` (a report reaches the proxy on its own time); all of them. */
    async waitForProblem(/** @type {RegExp} */ pattern, { timeout = TIMEOUT_MS } = {}) {
      for (const deadline = Date.now() + timeout; ; await sleep(POLL_MS)) {
        const seen = await this.problems();
        if (seen.some((p) => pattern.test(p))) return seen;
        if (Date.now() > deadline) throw new Error(`${engine.name}: no problem matched ${pattern} within ${timeout} ms: ${seen.join("; ")}`);
      }
    },
    async close() {
      for (const remove of removals) remove();
      await driver.close();
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof openPage>>} Page */
