// Lighthouse's SEO audits on the real binary, as a site owner would run them: the binary
// started with --public-url at the address Lighthouse visits, Debian's Chromium, offline.
// Chromium only: Lighthouse drives Chrome's DevTools protocol, and audits the page, not
// the engine.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM, CHROMIUM_FLAGS } from "./engines/chromium.mjs";
import { chosenEngines } from "./engines/index.mjs";
import { startHost } from "./support.mjs";

/** A port free right now, to give the binary and its public URL the same one. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

describe("chromium", { skip: !chosenEngines().includes("chromium") && "Lighthouse runs in Chromium only" }, () => {
  let host;
  let chrome;
  let origin;
  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    host = await startHost(["--port", String(port), "--public-url", origin, "--render-threads", "1"], { port: false });
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS] });
  });
  after(async () => {
    await chrome?.kill();
    await host?.stop();
  });

  for (const path of ["/fr/", "/en/"]) {
    test(`[chromium] Lighthouse's SEO category scores 100 on ${path}`, async () => {
      const { lhr } = await lighthouse(`${origin}${path}`, { port: chrome.port, onlyCategories: ["seo"], logLevel: "error" });
      const seo = lhr.categories.seo;
      const failed = seo.auditRefs
        .map((ref) => lhr.audits[ref.id])
        .filter((audit) => audit.score !== null && audit.score < 1)
        .map((audit) => `${audit.id}: ${audit.title}`);
      assert.deepEqual(failed, [], "every SEO audit passes");
      assert.equal(seo.score, 1);
    });
  }
});
