// WebKit: Debian's WebKitGTK MiniBrowser, driven over classic WebDriver (WebKitWebDriver,
// on a virtual display) with selenium-webdriver. This WebDriver has neither console events
// nor a script run before the page's own, so the proxy pauses each document the harness
// opens after its first tag, the watcher goes in (with the console kept in the page), and
// the rest of the document follows (see proxy.mjs).
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import net from "node:net";
import { Capabilities, WebDriver } from "selenium-webdriver";
import httpClient from "selenium-webdriver/http/index.js";
import { bounded } from "./hang.mjs";
import { TAKE_PROBLEMS, watcherScript } from "./watch.mjs";

const INSTALL = "apt-get install -y webkit2gtk-driver xvfb xauth";
const DRIVER = "/usr/bin/WebKitWebDriver";
const XVFB_RUN = "/usr/bin/xvfb-run";
const XAUTH = "/usr/bin/xauth";
const WATCH = watcherScript({ console: true });
/** Marks a document the harness is leaving, to tell the next one from it. */
const LEAVING = "window.__e2eLeaving = true";
const POLL_MS = 20;
/**
 * How long a WebDriver command may take: every one answers in well under a second, except a
 * new session (a browser starting). Seen in CI, under load: a command that never answered,
 * and the session's quit after it neither. At 20 s a command and 10 s a quit, one such
 * wedge held its file for 70 s with both cores idle (a script, the quit, then the next
 * page's navigation before its second try on a fresh driver): every wait here is for a
 * command that will not answer, so it is short.
 */
const COMMAND_MS = 8_000;
const NEW_SESSION_MS = 30_000;
const QUIT_MS = 4_000;
/** Starts of WebKitWebDriver on a port another process took between its choice and the bind. */
const DRIVER_STARTS = 3;

/** The MiniBrowser of the installed WebKitGTK (its folder names the API version). */
function miniBrowser() {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  const lib = "/usr/lib";
  const found = readdirSync(lib, { withFileTypes: true })
    .filter((arch) => arch.isDirectory())
    .flatMap((arch) => readdirSync(path.join(lib, arch.name)).filter((name) => name.startsWith("webkit2gtk-4.")).map((name) => path.join(lib, arch.name, name, "MiniBrowser")))
    .filter((file) => existsSync(file));
  return found.sort().at(-1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * WebKitWebDriver on its own virtual display, in its own process group (stopping it stops
 * the display and every browser with it): its URL, and how to stop it.
 */
async function startDriver() {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDriverOnce();
    } catch (error) {
      // The port was free when chosen, and taken before the driver bound it (seen in CI,
      // beside the suite's other servers): another port.
      const raced = error instanceof Error && error.message.includes("Unable to listen");
      if (!raced || attempt >= DRIVER_STARTS) throw error;
    }
  }
}

async function startDriverOnce() {
  const port = await freePort();
  const driver = spawn(XVFB_RUN, ["-a", DRIVER, `--port=${port}`], { stdio: ["ignore", "ignore", "pipe"], detached: true });
  let stderr = "";
  driver.stderr.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 20_000; ; await sleep(50)) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${driver.exitCode}: ${stderr}`);
    if (Date.now() > until) throw new Error(`WebKitWebDriver did not answer in 20 s: ${stderr}`);
    if (await fetch(`${url}/status`).then((r) => r.ok, () => false)) break;
  }
  return {
    url,
    async stop() {
      const group = driver.pid;
      if (group === undefined || driver.exitCode !== null) return;
      const exited = new Promise((resolve) => driver.once("exit", resolve));
      process.kill(-group, "SIGTERM");
      // A browser that ignores the signal is not waited on for long.
      const killing = setTimeout(() => process.kill(-group, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(killing);
    },
  };
}

/**
 * Starts WebKitWebDriver; each page is a session of its own. A driver whose session did not
 * close, or whose command did not answer, is replaced before the next page: seen under
 * load, the driver that failed to close one session let the next one's first navigation
 * hang for its 20 s, and the scenario's second try waited on it again (71 s in all).
 */
export async function launch() {
  const binary = miniBrowser();
  for (const [file, what] of [[DRIVER, "WebKitWebDriver"], [XVFB_RUN, "xvfb-run"], [XAUTH, "xauth (for xvfb-run)"], [binary, "WebKitGTK's MiniBrowser"]]) {
    if (!file || !existsSync(file)) throw new Error(`${what} is missing (${file ?? "no MiniBrowser"}): ${INSTALL}`);
  }
  let driver = await startDriver();
  /** Why the driver is to be replaced before the next page, if it is. */
  let wedged = /** @type {string | null} */ (null);
  const capabilities = new Capabilities({
    "webkitgtk:browserOptions": { binary, args: ["--automation"] },
    // Navigation commands return at once: the harness waits for the page itself.
    pageLoadStrategy: "none",
  });

  return {
    name: "webkit",
    /** @param {{ proxy: import("./proxy.mjs").Proxy }} options */
    async newPage({ proxy }) {
      if (wedged) {
        process.stderr.write(`${wedged}; the driver is started afresh\n`);
        wedged = null;
        await driver.stop();
        driver = await startDriver();
      }
      const session = await bounded(
        Promise.resolve(WebDriver.createSession(new httpClient.Executor(new httpClient.HttpClient(driver.url)), capabilities)),
        "WebKit: a new session",
        NEW_SESSION_MS,
        (message) => (wedged = message),
      );
      /** The first command that did not answer in time, if one did not. */
      let hung = /** @type {string | null} */ (null);
      const command = (/** @type {Promise<any>} */ promise, /** @type {string} */ what) =>
        bounded(promise, `WebKit: ${what}`, COMMAND_MS, (message) => {
          hung ??= message;
          wedged ??= message;
        });
      const run = (/** @type {string} */ expression) =>
        command(session.executeScript(`return ${expression}`), `a script (${expression.slice(0, 60)})`);

      /** Navigates with `start`, putting the watcher in the new document before its scripts run. */
      async function navigate(/** @type {() => Promise<unknown>} */ start) {
        await run(LEAVING).catch(() => {});
        const hold = proxy.holdNextDocument();
        let held = false;
        hold.arrival.then(() => (held = true));
        await command(start(), "a navigation");
        try {
          // The new document exists once it answers without the mark; a document from the
          // cache never reaches the proxy, and gets the watcher once loaded.
          for (const until = Date.now() + 15_000; ; await sleep(POLL_MS)) {
            if (Date.now() > until) throw new Error("WebKit: the new document did not come within 15 s");
            const state = await run("window.__e2eLeaving ? null : document.readyState").catch(() => null);
            if (state && (held || state === "complete")) break;
          }
          await run(WATCH);
        } finally {
          hold.cancel();
        }
        for (const until = Date.now() + 15_000; ; await sleep(POLL_MS)) {
          if (Date.now() > until) throw new Error("WebKit: the page did not finish loading within 15 s");
          if ((await run("document.readyState").catch(() => null)) === "complete") break;
        }
      }

      return {
        navigate: (/** @type {string} */ target) => navigate(() => session.get(target)),
        reload: () => navigate(() => session.navigate().refresh()),
        back: () => command(session.navigate().back(), "going back"),
        evaluate: run,
        async click(/** @type {string} */ expression) {
          await command((await run(expression)).click(), "a click");
        },
        async select(/** @type {string} */ expression, /** @type {string} */ value) {
          // As a person does it: the option is clicked, and WebKit fires input and change.
          const option = await command(
            session.executeScript(`return [...(${expression}).options].find((o) => o.value === arguments[0])`, value),
            "finding an option",
          );
          await command(option.click(), "a click on an option");
        },
        async setViewport(/** @type {number} */ width, /** @type {number} */ height) {
          await command(session.manage().window().setRect({ width, height }), "resizing the window");
        },
        /** What the watcher kept (the console included) since the last call. */
        problems: async () => /** @type {string[]} */ (await run(TAKE_PROBLEMS).catch(() => [])),
        hung: () => hung,
        // A session that does not close is left to the driver's end (its process group).
        close: () =>
          bounded(session.quit(), "WebKit: closing the session", QUIT_MS, (message) => (wedged ??= message)).catch(() => {}),
      };
    },
    close: () => driver.stop(),
  };
}
