// Shared by the browser tests: start the real binary, drive Debian's Chromium.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before } from "node:test";
import { chromium } from "playwright-core";
import { startServer, stop, waitReady } from "../bench/support.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const BINARY = process.env.BILINGUE_BIN ?? path.join(root, "target/release/bilingue");
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

/**
 * Starts `bilingue --port 0 ARGS` (`port: false`: ARGS name the port); resolves with its
 * base URL once it is ready.
 */
export async function startHost(args = [], { port = true } = {}) {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`cargo build\` first`);
  const server = await startServer(BINARY, [...(port ? ["--port", "0"] : []), ...args]);
  await waitReady(server.baseUrl);
  return {
    baseUrl: server.baseUrl,
    stderr: () => server.stderr,
    stop: () => stop(server),
  };
}

export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/**
 * A fresh page that records every console error or warning, uncaught error and
 * Content-Security-Policy violation, and whether a loading spinner (role="status") was
 * ever in the document.
 */
export async function watchedPage(browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    window.__spinnerSeen = 0;
    const seen = () => {
      if (document.querySelector('[role="status"]')) window.__spinnerSeen += 1;
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", seen);
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`csp violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return { context, page, problems };
}

/**
 * Registers before/after hooks that start the binary and Chromium for a test file, and
 * returns their handles (filled once `before` has run).
 */
export function useHostAndBrowser(args = ["--render-threads", "1"]) {
  const handles = { host: null, browser: null };
  before(async () => {
    handles.host = await startHost(args);
    handles.browser = await launchBrowser();
  });
  after(async () => {
    await handles.browser?.close();
    await handles.host?.stop();
  });
  return handles;
}
