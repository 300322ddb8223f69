// The seam between the scenarios and the browsers: a scenario is written once against the
// page of page.mjs and registered in every engine chosen, as `[engine] title`.
//     BILINGUE_ENGINES=firefox node --test --test-concurrency=1 e2e/
import { after, before, describe, test } from "node:test";
import * as chromium from "./chromium.mjs";
import * as firefox from "./firefox.mjs";
import { EngineHung } from "./hang.mjs";
import { openPage } from "./page.mjs";
import { startProxy } from "./proxy.mjs";
import * as webkit from "./webkit.mjs";

/** @type {Record<string, () => Promise<import("./page.mjs").Engine>>} */
const LAUNCHERS = { chromium: chromium.launch, firefox: firefox.launch, webkit: webkit.launch };
export const ENGINES = Object.keys(LAUNCHERS);
/** A scenario that hangs must not hold the whole run. */
const SCENARIO_TIMEOUT_MS = 90_000;

/** A step of the harness (not of a scenario) that takes longer is told on stderr. */
const SLOW_STEP_MS = 3_000;

/**
 * `step()`, and a line on stderr when it took longer than SLOW_STEP_MS: a browser slow to
 * start or to close holds its file as a scenario's time would, but no scenario says so.
 * @template T
 * @param {string} what
 * @param {() => Promise<T>} step
 * @returns {Promise<T>}
 */
async function timedStep(what, step) {
  const started = performance.now();
  try {
    return await step();
  } finally {
    const took = performance.now() - started;
    if (took > SLOW_STEP_MS) process.stderr.write(`e2e harness: ${what} took ${Math.round(took)} ms\n`);
  }
}

// When each file's process ends, against which the suite's own end is read (a process
// left behind that holds the suite's output open would show as the gap between them).
process.on("exit", () => process.stderr.write(`e2e harness: ${process.argv[1]} exits at ${new Date().toISOString()}\n`));

/**
 * Each engine's one launch when the process shares it (shareOneBrowser), and how many
 * registered engine suites have yet to end: the launches close when the last of them ends
 * and no file is still to be registered. Not node:test's root `after`: that runs as soon
 * as no suite is running or queued, which a file imported late (after the first ones had
 * run) would find closed.
 * @type {{ launches: Map<string, Promise<import("./page.mjs").Engine>>, suites: number, registering: boolean } | null}
 */
let shared = null;

/**
 * From now on, every `inEachEngine` of this process shares one launch of each engine
 * instead of launching its own: what ../one-browser/ runs. Each scenario still has a
 * page, and a browser context, of its own. Returns the call that says every file is
 * registered: until then the launches stay open between suites.
 * @returns {() => Promise<void>}
 */
export function shareOneBrowser() {
  if (!shared) shared = { launches: new Map(), suites: 0, registering: true };
  const sharing = shared;
  return async () => {
    sharing.registering = false;
    await closeSharedWhenUnused();
  };
}

async function closeSharedWhenUnused() {
  if (!shared || shared.registering || shared.suites > 0) return;
  const launches = [...shared.launches];
  shared.launches.clear();
  for (const [engine, launched] of launches) {
    await timedStep(`${engine}: closing`, async () => (await launched.catch(() => null))?.close());
  }
}

/** `engine`, launched for the caller, or the process's one launch of it when shared (launched again if it was closed). */
function launchOrShare(/** @type {string} */ engine) {
  if (!shared) return timedStep(`${engine}: launching`, LAUNCHERS[engine]);
  let launched = shared.launches.get(engine);
  if (!launched) {
    launched = timedStep(`${engine}: launching`, LAUNCHERS[engine]);
    shared.launches.set(engine, launched);
  }
  return launched;
}

/** The engines to run: all of them, or those `BILINGUE_ENGINES` names (comma-separated). */
export function chosenEngines() {
  const asked = process.env.BILINGUE_ENGINES?.split(",").map((name) => name.trim()).filter(Boolean);
  if (!asked?.length) return ENGINES;
  const unknown = asked.filter((name) => !ENGINES.includes(name));
  if (unknown.length) throw new Error(`BILINGUE_ENGINES names ${unknown.join(", ")}; the engines are ${ENGINES.join(", ")}`);
  return asked;
}

/**
 * @template {{ baseUrl: string, stop: () => Promise<void> }} Site
 * @typedef {{
 *   page: import("./page.mjs").Page,
 *   site: Site,
 *   t: import("node:test").TestContext,
 * }} Scenario
 */

/**
 * In each chosen engine, in turn: starts the site with `site()`, a proxy in front of it and
 * the engine (or takes the process's one launch of it, see shareOneBrowser), then runs
 * the scenarios `define` registers with `scenario(title, fn)`, each on a fresh page (a
 * browser context of its own). An engine that is not installed fails its scenarios with
 * the command that installs it.
 * @template {{ baseUrl: string, stop: () => Promise<void> }} Site
 * @param {{ site: () => Promise<Site> }} options
 * @param {(each: {
 *   engine: string,
 *   scenario: (title: string, fn: (s: Scenario<Site>) => Promise<void>, options?: { knownBugs?: Record<string, string> }) => void,
 * }) => void} define
 * `knownBugs` names, per engine, an app bug the scenario shows there: the scenario still runs
 * and is reported as a TODO with that text, without failing the run.
 */
export function inEachEngine({ site }, define) {
  for (const engine of chosenEngines()) {
    // Counted as it is registered, so the shared launches outlive it and every suite after.
    const sharing = shared;
    if (sharing) sharing.suites++;
    describe(engine, () => {
      /** @type {{ site?: Site, proxy?: import("./proxy.mjs").Proxy, browser?: import("./page.mjs").Engine, failure?: unknown }} */
      const running = {};
      before(async () => {
        try {
          running.browser = await launchOrShare(engine);
          running.site = await timedStep(`${engine}: starting the site`, site);
          const { baseUrl } = running.site;
          running.proxy = await timedStep(`${engine}: starting the proxy`, () => startProxy(baseUrl));
        } catch (error) {
          // Each scenario fails with it (a missing engine's install line), none is skipped.
          running.failure = error;
        }
      });
      after(async () => {
        try {
          if (!sharing) await timedStep(`${engine}: closing`, async () => running.browser?.close());
          await timedStep(`${engine}: stopping the proxy`, async () => running.proxy?.stop());
          await timedStep(`${engine}: stopping the site`, async () => running.site?.stop());
        } finally {
          // Even when a stop failed: a shared browser left open would keep the process alive.
          if (sharing) {
            sharing.suites--;
            await closeSharedWhenUnused();
          }
        }
      });
      define({
        engine,
        scenario: (title, fn, { knownBugs = {} } = {}) =>
          test(`[${engine}] ${title}`, { timeout: SCENARIO_TIMEOUT_MS, todo: knownBugs[engine] }, async (t) => {
            if (running.failure) throw running.failure;
            const { browser, proxy, site } = /** @type {Required<typeof running>} */ (running);
            // Once more on a fresh page if the engine stopped answering (hang.mjs), never twice:
            // an app that hangs the engine hangs it again, and fails. Not for a known bug: it
            // fails either way, and a second try is only time.
            const attempts = knownBugs[engine] ? 1 : 2;
            for (let attempt = 1; ; attempt++) {
              /** @type {import("./page.mjs").Page | undefined} */
              let page;
              try {
                page = await timedStep(`${engine}: opening a page`, () => openPage(browser, proxy));
                await fn({ page, site, t });
                return;
              } catch (error) {
                const hung = error instanceof EngineHung ? error.message : page?.engineHung();
                if (!hung || attempt >= attempts) throw error;
                const failure = error instanceof EngineHung ? "" : ` (it failed with: ${error})`;
                t.diagnostic(`${hung}: the scenario runs again, on a fresh page${failure}`);
              } finally {
                await timedStep(`${engine}: closing a page`, async () => page?.close());
              }
            }
          }),
      });
    });
  }
}
