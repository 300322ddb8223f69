// The real-size site's benchmark (issue 54): builds the site bench/site/build.mjs makes
// from CLDR's text, the same site with 50 messages, and the demo app, serves each with the
// release binary (`--app-build`), and measures in one run, side by side:
//   - the first-load JavaScript (gzip -9: the starter's entry and the document's module
//     preloads, as bench/run.mjs counts them) of every route in every language, on the
//     full site and on the 50-message one: the largest, and how much the first load of a
//     page grew from one to the other;
//   - the uncached real-size page (the world: ~150 messages, a list of 100; `--page-cache-
//     entries 0 --prerender off`) against the plain Node peer rendering the same server
//     bundle (bench/peers/whole.mjs, no compression);
//   - a visitor's streamed page (the server's time zone: private, its data from the API,
//     their cookie forwarded; `--prerender on`) against the Node streaming peer built from
//     the site's generated sources (bench/streaming/, `--keep-source`), without compression;
//   - the resident memory along a crawl of every listed value of the locale route (100,000
//     pages) in 3 languages, a crawler's requests through the host with its default page
//     cache, 2 render threads;
//   - figures beside the demo's: the generator's and the demo's build time, `tsc --noEmit`
//     on each (the site's typed keys; the demo's app, copied as the generator copies it),
//     the server bundle, start-up to /readyz, RSS at ready, each render runtime's V8 heap
//     (the host's /metrics gauge `bilingue_v8_heap_used_bytes`; "not measured" without it).
// wrk drives the rows as bench/run.mjs does (64 keep-alive connections, browsers'
// `Accept-Encoding: gzip, deflate, br` and User-Agent, a warm-up of the same load first, the
// contenders in turns, medians of rounds); the peers write the host's page, checked byte
// for byte before their rows (bench/peers/). Every page the run asks for must answer 200.
// Prints the rows, the gates (met or missed) and the figures, and writes them into
// BENCHMARKS.md as its own section; a missed gate fails the run.
//   node bench/site/bench.mjs           the full site (several minutes), writes BENCHMARKS.md
//   node bench/site/bench.mjs --smoke   a small site (3 languages, 300 messages, 8 routes,
//                                       300 locale pages), 1 s rows, one round: the harness,
//                                       the gates' arithmetic and the pages' answers (the tests
//                                       run it); the bounds of the full site and of a long run
//                                       of a release build are shown beside the figures, not
//                                       judged
//   options: --no-build, --duration S, --warm-up S, --threads N, --out FILE, --keep
//            (leaves the built sites in the printed folder)
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { CRAWLER, PERSON, readAnswer } from "../peers/host-page.mjs";
import { expectHostsPage, expectHostsStreamedPage } from "../peers/same-page.mjs";
import { buildStreamingRender } from "../streaming/build.mjs";
import { checkSectionWriting, printed, readOptions, requireWrk, rssMb, startServer, stop, targetDir, waitReady, wrk, writeSection } from "../support.mjs";
import { atLeast, atMost, figure, gate, gatesTable, missed, none } from "../targets.mjs";
import { decoded, startUpstream } from "../upstream.mjs";
import { copyApp } from "./copy.mjs";
import { checkArithmetic, largestGrowth, lastHalf, largest, median, middleRound, mostGrowth, ratio } from "./judge.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const options = readOptions({
  usage: "node bench/site/bench.mjs [--smoke] [--no-build] [--duration S] [--warm-up S] [--threads N] [--out FILE] [--keep]",
  flags: ["smoke", "no-build", "keep"],
  strings: ["out"],
  numbers: { duration: 1, "warm-up": 0, threads: 1 },
});
const smoke = options.smoke ?? false;
const duration = options.duration ?? (smoke ? 1 : 10);
const warmUp = options["warm-up"] ?? (smoke ? 0 : 3);
// A smoke run checks the harness and its arithmetic, and runs beside the suite's other
// tests on a 2-core machine: one render thread, one peer worker and one connection at a
// time (wrk on one thread), so each of its rows takes about a core, not the machine.
const threads = options.threads ?? (smoke ? 1 : os.availableParallelism());
const out = options.out ?? (smoke ? null : path.join(root, "BENCHMARKS.md"));
const binary = process.env.BILINGUE_BIN ?? path.join(targetDir(root), "release/bilingue");
const CONNECTIONS = smoke ? 1 : 64;
const WRK_THREADS = smoke ? "-t1" : "-t2";
const ACCEPTED = "gzip, deflate, br";
const BROWSERS = [`Accept-Encoding: ${ACCEPTED}`, `User-Agent: ${PERSON}`];
const ROUNDS = smoke ? 1 : 3;
/** The site's options: the generator's full site, or its small one for the smoke. */
const SITE = smoke ? ["--small"] : [];
/** The smaller site the first load's growth is measured from. */
const FEW_MESSAGES = 50;
/**
 * The messages the same small site gains for the growth gate, in every table, used by none
 * of its pages (`--spare`): its catalogue grows to some 3,000 while its pages stay the same.
 */
const SPARE_MESSAGES = smoke ? 300 : 3000;
/** The crawl: render threads, the languages it crawls in, connections at once, how often RSS is read. */
const CRAWL_THREADS = 2;
const CRAWL_LANGUAGES = 3;
const CRAWL_CONNECTIONS = 16;
const CRAWL_SAMPLE_MS = smoke ? 50 : 500;
/** Memory along the crawl: the highest, and how much the last half may move (5% of it). */
const MOST_RSS_MB = 200;
const FLAT_MB = 10;
/** The host's two ways with a visitor's own page (bench/run.mjs measures both against a whole one). */
const STREAMED_AFTER_ITS_SHELL = "bilingue, streamed after its kept shell (a person; --shell-hold 0s)";
const HELD_FOR_ITS_DATA = "bilingue, a person (its shell held for its data: whole)";
/** The visitor whose own page is streamed (the timeZone route's loader forwards the cookie). */
const VISITOR_COOKIE = "session=bench-visitor";
/** Start-ups timed per app. */
const STARTS = smoke ? 1 : 3;

// The arithmetic every gate below rests on, checked on figures whose answer is known.
checkArithmetic();

if (!smoke && !options["no-build"]) execFileSync("cargo", ["build", "--release"], { cwd: root, stdio: "inherit" });
requireWrk();

const work = mkdtempSync(path.join(os.tmpdir(), "bilingue-site-bench-"));
const dirs = {
  site: path.join(work, "site"),
  siteSource: path.join(work, "site-source"),
  few: path.join(work, "site-few"),
  grown: path.join(work, "site-grown"),
  demo: path.join(work, "demo"),
  demoSource: path.join(work, "demo-source"),
  streaming: path.join(work, "streaming", "render.cjs"),
};
// Its section of BENCHMARKS.md replaces its own only, the others kept (checked where the answer is known).
checkSectionWriting(work);

/** Runs node with `args` from the repository's root; its wall time (s) and what it printed. */
function timedNode(args, what) {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${what} failed:\n${run.stdout}\n${run.stderr}`);
  return { seconds, stdout: run.stdout };
}

/** The generator's site in `dir` with these options; its figures (the generator's JSON line) and wall time. */
function buildSite(dir, args) {
  const { seconds, stdout } = timedNode(["bench/site/build.mjs", dir, ...SITE, ...args], `node bench/site/build.mjs ${[...SITE, ...args].join(" ")}`);
  return { seconds, made: JSON.parse(stdout.trim().split("\n").at(-1)) };
}

const manifestOf = (dir) => JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8"));

/** Each language's module in a build (the first load's messages, its date locale, the way to its index of each route's), gzip -9: [{ page: code, bytes }]. */
function languageModules(dir) {
  return Object.entries(manifestOf(dir).languageChunks).map(([code, files]) => ({
    page: code,
    bytes: files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dir, "assets", file)), { level: 9 }).length, 0),
  }));
}

/** A route's pattern in `code` with `value`'s parameters (the sitemap's "aa/AC"), as a page's path. */
function pagePath(code, pattern, value) {
  const values = value ? value.split("/") : [];
  const filled = pattern.split("/").map((part) => (part.startsWith(":") ? encodeURIComponent(values.shift()) : part));
  // A language sits in a URL as its tag in small letters (`/fr-ca/`).
  return `/${code.toLowerCase()}${filled.join("/")}`;
}

/** Every route of a build in every language, each with its first listed page's parameters: [{ page, route, language }]. */
function everyPage(manifest) {
  const first = new Map(manifest.sitemap.map(({ route, pages }) => [route, pages[0]]));
  return manifest.declared.languages.flatMap(({ code }) =>
    manifest.routes.map((route) => ({ page: pagePath(code, route.paths[code], first.get(route.name) ?? ""), route: route.name, language: code })),
  );
}

/** The problems of the run: any page that did not answer as it should. Every one misses a gate. */
const failures = [];

/** Does `work` for each item, `concurrency` at a time. */
async function eachAtOnce(items, concurrency, work) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

/**
 * The first-load JavaScript of each page, as a person's browser gets it: the gzip -9 bytes
 * of the starter's entry and the module preloads its document names (each file once).
 */
async function firstLoads(baseUrl, pages) {
  const gzipped = new Map();
  const sizeOf = (url) => {
    if (!gzipped.has(url)) {
      gzipped.set(url, fetch(baseUrl + url).then(async (response) => {
        if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
        return gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length;
      }));
    }
    return gzipped.get(url);
  };
  const loads = [];
  await eachAtOnce(pages, 8, async ({ page }) => {
    const response = await fetch(baseUrl + page, { headers: { "user-agent": PERSON } });
    const html = await response.text();
    if (response.status !== 200) return failures.push(`${page}: ${response.status}`);
    const urls = [...new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)"|type:"module",src:"([^"]+)"/g)].map((m) => m[1] ?? m[2]))];
    if (urls.length === 0) return failures.push(`${page}: no entry and no module preload in its document`);
    const sizes = await Promise.all(urls.map(sizeOf));
    loads.push({ page, bytes: sizes.reduce((sum, b) => sum + b, 0), files: urls.length, each: urls.map((url, i) => ({ url, bytes: sizes[i] })) });
  });
  return loads;
}

/**
 * Each render runtime's V8 heap in use, from the host's metrics listener: { thread: bytes },
 * or null when the gauge is not there. A thread samples it after its calls into the bundle,
 * 250 ms apart at most (0 until its first sample).
 */
async function v8Heaps(metricsUrl) {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const heaps = [...text.matchAll(/^bilingue_v8_heap_used_bytes\{[^}]*thread="([^"]+)"[^}]*\}\s+(\S+)$/gm)].map(([, thread, value]) => [thread, Number(value)]);
  return heaps.length > 0 ? Object.fromEntries(heaps.sort(([a], [b]) => a.localeCompare(b))) : null;
}

/** The binary serving the build in `dir` (with `extra`), ready, and the address of its metrics. */
async function startApp(dir, extra = [], { renderThreads = CRAWL_THREADS } = {}) {
  const host = await startServer(binary, ["--port", "0", "--render-threads", String(renderThreads), "--app-build", dir, "--metrics-bind", "127.0.0.1:0", ...extra]);
  await waitReady(host.baseUrl, 120_000);
  host.readyMs = Number(process.hrtime.bigint() - host.started) / 1e6;
  [, host.metricsUrl] = await printed(host, /metrics on (http:\/\/\S+)/);
  return Object.assign(host, { pids: () => [host.child.pid] });
}

/** Start-up to /readyz and RSS at ready, median of STARTS. */
async function startUps(dir, extra) {
  const starts = [];
  for (let i = 0; i < STARTS; i++) {
    const host = await startApp(dir, extra);
    starts.push({ readyMs: host.readyMs, rss: rssMb(host.child.pid) });
    await stop(host);
  }
  return { readyMs: median(starts.map((s) => s.readyMs)), rss: median(starts.map((s) => s.rss)) };
}

/** Samples the summed RSS of these processes every 200 ms until stopped; the peak. */
function sampleRss(pids) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, pids().reduce((sum, pid) => sum + rssMb(pid), 0))), 200);
  return () => (clearInterval(timer), peak);
}

/** wrk against one URL with these request headers, after a warm-up of the same load. */
async function load(url, { pids, headers }) {
  const peakRss = sampleRss(pids);
  const asked = headers.flatMap((h) => ["-H", h]);
  if (warmUp > 0) await wrk([WRK_THREADS, `-c${CONNECTIONS}`, `-d${warmUp}s`, ...asked, url]);
  const report = await wrk([WRK_THREADS, `-c${CONNECTIONS}`, `-d${duration}s`, "--latency", ...asked, url]);
  const rss = peakRss();
  if (Number.isNaN(report.p99)) throw new Error(`no latency in wrk output:\n${report.text}`);
  const { rps, p50, p99, errors } = report;
  return { rps, p50, p99, errors, peakRss: rss };
}

/** What a URL answers to these headers: status, Content-Encoding, bytes, and the body decoded. */
async function answer(url, headers) {
  const sample = await readAnswer(url, Object.fromEntries(headers.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()])));
  return { status: sample.status, encoding: sample.headers["content-encoding"] ?? "identity", bytes: sample.body.length, html: decoded(sample).toString("utf8") };
}

const rows = [];
/** Each contender's rounds in turns, its median round a row; wrk's errors are the run's failures. */
async function headToHead(what, contenders) {
  const rounds = contenders.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts one contender further on, as bench/run.mjs's do: none always
    // follows the same one (a Node peer's hundreds of MB, freed, weigh on whoever is next).
    for (let turn = 0; turn < contenders.length; turn++) {
      const i = (round + turn) % contenders.length;
      const { url, target, headers } = contenders[i];
      rounds[i].push(await load(url, { pids: target.pids, headers }));
    }
  }
  for (const [i, { server, url, headers }] of contenders.entries()) {
    const result = middleRound(rounds[i]);
    const sent = await answer(url, headers);
    if (result.errors && server.startsWith("bilingue")) failures.push(`${what} (${server}): ${result.errors}`);
    if (sent.status !== 200) failures.push(`${what} (${server}): ${sent.status}`);
    rows.push({ what, server, sent, ...result });
  }
}

/** A peer process (and its workers), found by its arguments for the memory samples. */
async function startPeer(script, args) {
  const peer = await startServer("node", [path.join(root, script), ...args]);
  const pids = () => {
    try {
      return execFileSync("pgrep", ["-f", `${script} ${args.join(" ")}`]).toString().trim().split("\n").map(Number);
    } catch {
      return [];
    }
  };
  return Object.assign(peer, { pids });
}

/** Whether a page of the site came with its data (the screen's `<dl class="site-data">`, before the boot state). */
const carriesSiteData = (html) => {
  const at = html.indexOf('class="site-data"');
  return at >= 0 && at < html.indexOf('id="bilingue-boot"');
};

/**
 * A crawler through the host: every URL once, CRAWL_CONNECTIONS keep-alive connections at
 * once, Googlebot's User-Agent and a browser's Accept-Encoding; the host's RSS read every
 * CRAWL_SAMPLE_MS with the pages crawled so far. Every page must answer 200.
 */
async function crawl(baseUrl, pid, urls) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CRAWL_CONNECTIONS });
  const samples = [{ done: 0, rss: rssMb(pid) }];
  let done = 0;
  const failed = [];
  const timer = setInterval(() => samples.push({ done, rss: rssMb(pid) }), CRAWL_SAMPLE_MS);
  const started = performance.now();
  const get = (url) =>
    new Promise((resolve) => {
      http
        .get(baseUrl + url, { agent, headers: { "user-agent": CRAWLER, "accept-encoding": ACCEPTED } }, (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode));
          response.on("error", (error) => resolve(error.message));
        })
        .on("error", (error) => resolve(error.message));
    });
  await eachAtOnce(urls, CRAWL_CONNECTIONS, async (url) => {
    const status = await get(url);
    if (status !== 200) failed.push(`${url}: ${status}`);
    done++;
  });
  clearInterval(timer);
  samples.push({ done, rss: rssMb(pid) });
  agent.destroy();
  return { pages: urls.length, seconds: (performance.now() - started) / 1000, samples, failed };
}

const upstream = await startUpstream(0);
let made;
const figures = {};
const checks = {};
try {
  // The builds: the site, the same site with 50 messages, the demo app.
  const full = buildSite(dirs.site, ["--keep-source", dirs.siteSource]);
  made = full.made;
  const few = buildSite(dirs.few, ["--messages", String(FEW_MESSAGES)]);
  checks.few = few.made;
  const grownSite = buildSite(dirs.grown, ["--messages", String(FEW_MESSAGES), "--spare", String(SPARE_MESSAGES)]);
  checks.grown = grownSite.made;
  const demoBuild = timedNode(["app/build.mjs", dirs.demo], "node app/build.mjs");
  figures.build = { site: full.seconds, demo: demoBuild.seconds, siteSteps: full.made.seconds };
  // The type check: the site's generated app, with its typed keys, and the demo's app,
  // copied as the generator copies it (app/, its tests left out), in turns.
  mkdirSync(dirs.demoSource);
  await copyApp(root, dirs.demoSource);
  const tsc = (dir) => timedNode(["node_modules/typescript/bin/tsc", "--noEmit", "-p", dir], `tsc --noEmit -p ${dir}`).seconds;
  const tscs = { site: [], demo: [] };
  for (let round = 0; round < ROUNDS; round++) {
    tscs.site.push(tsc(dirs.siteSource));
    tscs.demo.push(tsc(dirs.demoSource));
  }
  figures.tsc = { site: median(tscs.site), demo: median(tscs.demo) };
  figures.bundle = { site: statSync(path.join(dirs.site, "server.js")).size / 1e6, demo: statSync(path.join(dirs.demo, "server.js")).size / 1e6 };

  const api = ["--api-upstream", upstream.url];
  figures.start = { site: await startUps(dirs.site, api), demo: await startUps(dirs.demo) };

  // The first load of every route in every language, on each build. Without the page
  // cache, so that every page is rendered each time it is asked: the runtimes' heaps are
  // read after a second pass over every page, 300 ms after the first (each thread then
  // samples its heap at least once after its warm-up).
  const siteManifest = manifestOf(dirs.site);
  checks.defaultLanguage = siteManifest.declared.default;
  const measureFirstLoads = async (dir, extra) => {
    const host = await startApp(dir, ["--page-cache-entries", "0", ...extra]);
    try {
      const pages = everyPage(manifestOf(dir));
      const loads = await firstLoads(host.baseUrl, pages);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await firstLoads(host.baseUrl, pages);
      return { pages: pages.length, loads, heaps: await v8Heaps(host.metricsUrl) };
    } finally {
      await stop(host);
    }
  };
  const siteLoads = await measureFirstLoads(dirs.site, api);
  const fewLoads = await measureFirstLoads(dirs.few, api);
  const grownLoads = await measureFirstLoads(dirs.grown, api);
  const demoLoads = await measureFirstLoads(dirs.demo, []);
  checks.firstLoad = { site: siteLoads, few: fewLoads, grown: grownLoads, demo: demoLoads };
  checks.languageModules = { site: languageModules(dirs.site), few: languageModules(dirs.few), demo: languageModules(dirs.demo) };
  figures.heapAfterPages = { site: siteLoads.heaps, demo: demoLoads.heaps };

  // The real-size page, uncached, against the plain Node peer rendering the same bundle.
  const world = siteManifest.routes.find(({ name }) => name === "world");
  const worldPage = pagePath(siteManifest.declared.default, world.paths[siteManifest.declared.default], "");
  checks.worldPage = worldPage;
  {
    const host = await startApp(dirs.site, ["--page-cache-entries", "0", "--prerender", "off"], { renderThreads: threads });
    const peer = await startPeer("bench/peers/whole.mjs", [path.join(dirs.site, "server.js"), host.baseUrl, String(threads), "plain", worldPage]);
    try {
      await expectHostsPage(host.baseUrl + worldPage, peer.baseUrl + worldPage);
      await headToHead(`the world (${worldPage}), uncached`, [
        { server: "bilingue (no cache, --prerender off)", url: host.baseUrl + worldPage, target: host, headers: BROWSERS },
        { server: `Node peer, no compression (${threads} workers)`, url: peer.baseUrl + worldPage, target: peer, headers: BROWSERS },
      ]);
    } finally {
      await stop(peer);
      await stop(host);
    }
  }

  // A regional variant's page against its parent's, uncached, on the same host: the same
  // screen, its messages along its chain (the site's fr-CA says ~750 of them its own way).
  const variant = siteManifest.declared.languages.find(({ parent }) => parent !== undefined);
  if (variant) {
    const [variantPage, parentPage] = [variant.code, variant.parent].map((code) => pagePath(code, world.paths[code], ""));
    checks.variantPages = { variant: variantPage, parent: parentPage };
    const host = await startApp(dirs.site, ["--page-cache-entries", "0", "--prerender", "off"], { renderThreads: threads });
    try {
      await headToHead(`the world in a regional variant and in its parent, uncached`, [
        { server: `bilingue (no cache), ${variantPage}`, url: host.baseUrl + variantPage, target: host, headers: BROWSERS },
        { server: `bilingue (no cache), ${parentPage}`, url: host.baseUrl + parentPage, target: host, headers: BROWSERS },
      ]);
    } finally {
      await stop(host);
    }
  }

  // A visitor's own streamed page: the time zone (private, its data from the API).
  const timeZone = siteManifest.routes.find(({ name }) => name === "timeZone");
  const streamedPage = pagePath(siteManifest.declared.default, timeZone.paths[siteManifest.declared.default], "");
  checks.streamedPage = streamedPage;
  await buildStreamingRender(dirs.streaming, Date.parse(siteManifest.builtAt), { sourceRoot: dirs.siteSource });
  {
    // Streamed against streamed: the host sends its kept shell at once (--shell-hold 0s),
    // the rest when its data comes; as it serves by default, the data within its hold, the
    // page comes whole.
    const host = await startApp(dirs.site, [...api, "--shell-hold", "0s"], { renderThreads: threads });
    const held = await startApp(dirs.site, api, { renderThreads: threads });
    const peer = await startPeer("bench/streaming/peer.mjs", [dirs.streaming, host.baseUrl, `${upstream.url}/api`, String(threads), "plain", streamedPage]);
    try {
      await expectHostsStreamedPage(host.baseUrl + streamedPage, peer.baseUrl + streamedPage, { cookie: VISITOR_COOKIE });
      const person = [...BROWSERS, `Cookie: ${VISITOR_COOKIE}`];
      const contenders = [
        { server: STREAMED_AFTER_ITS_SHELL, url: host.baseUrl + streamedPage, target: host, headers: person },
        { server: HELD_FOR_ITS_DATA, url: held.baseUrl + streamedPage, target: held, headers: person },
        { server: `Node peer, renderToPipeableStream, no compression (${threads} workers)`, url: peer.baseUrl + streamedPage, target: peer, headers: person },
      ];
      for (const { server, url, headers } of contenders) {
        const sample = await answer(url, headers);
        if (sample.status !== 200 || !carriesSiteData(sample.html)) failures.push(`${streamedPage} (${server}): ${sample.status === 200 ? "without its data" : sample.status}`);
      }
      await headToHead(`a visitor's own page (${streamedPage}), instant upstream`, contenders);
    } finally {
      await stop(peer);
      await stop(held);
      await stop(host);
    }
  }

  // The crawl: every listed locale page in the first languages, through the default page cache.
  const locale = siteManifest.routes.find(({ name }) => name === "locale");
  const values = siteManifest.sitemap.find(({ route }) => route === "locale").pages;
  const crawled = siteManifest.declared.languages.slice(0, CRAWL_LANGUAGES).map(({ code }) => code);
  const urls = values.flatMap((value) => crawled.map((code) => pagePath(code, locale.paths[code], value)));
  {
    const host = await startApp(dirs.site, api);
    try {
      checks.crawl = { values: values.length, languages: crawled, ...(await crawl(host.baseUrl, host.child.pid, urls)), heaps: await v8Heaps(host.metricsUrl) };
    } finally {
      await stop(host);
    }
  }
  failures.push(...checks.crawl.failed.slice(0, 5), ...(checks.crawl.failed.length > 5 ? [`and ${checks.crawl.failed.length - 5} more of the crawl`] : []));
} finally {
  upstream.close();
  if (options.keep) console.log(`the sites and their sources are in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

// What a short run of a debug build cannot promise, and what the issue bounds on the full
// site (the first load's bounds are the real-size site's, not the small one's), is judged
// on full runs only; the smoke judges the pages' answers and, before anything, the
// arithmetic (checkArithmetic).
const fullRunGate = smoke ? figure : gate;
const kb = (bytes) => `${(bytes / 1000).toFixed(2)} KB`;
const times = (v) => `${v.toFixed(2)}×`;
const megabytes = (v) => `${v.toFixed(0)} MB`;
const list = (v) => (v.length === 0 ? "none" : v.join("; "));
const find = (what, server) => rows.find((r) => r.what.startsWith(what) && r.server.startsWith(server));
const { site: siteLoads, few: fewLoads, grown: grownLoads, demo: demoLoads } = checks.firstLoad;
const most = largest(siteLoads.loads);
// A page that failed on either site is a failure above; the growth is read on the others.
const onBoth = (loads, others) => loads.filter(({ page }) => others.some((other) => other.page === page));
const [fewBoth, siteBoth] = [onBoth(fewLoads.loads, siteLoads.loads), onBoth(siteLoads.loads, fewLoads.loads)];
// The catalogue's growth alone: the same pages, 3,000 more messages none of them uses.
const [fewOfGrown, grownBoth] = [onBoth(fewLoads.loads, grownLoads.loads), onBoth(grownLoads.loads, fewLoads.loads)];
const grown = largestGrowth(fewOfGrown, grownBoth);
const grownMost = mostGrowth(fewBoth, siteBoth);
// Every page's own messages grow with the site (the generator deals each route its share of
// what `--messages` allows), the home page's too, which its language's module holds (the
// demo's home screen is eager: its keys are the first load's).
const modules = checks.languageModules;
const moduleGrowth = mostGrowth(modules.few, modules.site);
const fileByFile = (load) => load.each.map(({ url, bytes }) => `${url.split("/").pop()} ${kb(bytes)}`).join(", ");
const mostOnFew = fewLoads.loads.find(({ page }) => page === most.page);
const worldOurs = find("the world", "bilingue");
const worldPeer = find("the world", "Node peer");
const streamOurs = find("a visitor's own page", STREAMED_AFTER_ITS_SHELL);
const heldOurs = find("a visitor's own page", HELD_FOR_ITS_DATA);
const streamPeer = find("a visitor's own page", "Node peer");
const memory = lastHalf(checks.crawl.samples, checks.crawl.pages);
const crawlPeak = Math.max(...checks.crawl.samples.map(({ rss }) => rss));
const realSize = made.messagesPerLanguage >= 3000 && made.languages >= 30 && made.routes >= 40 && checks.crawl.values >= 100_000;

const targets = [
  gate("Pages that failed (every page asked for answered 200, the streamed page with its data; wrk's errors on the binary's rows)", failures, list, none),
  fullRunGate(
    `First-load JavaScript (gzip -9), the largest of every route in every language (${siteLoads.pages} pages): ${most.page}, ${most.files} files`,
    most.bytes,
    kb,
    atMost(80_000, kb),
  ),
  fullRunGate(
    `Its growth from a catalogue of ${checks.few.messagesPerLanguage.toLocaleString("en")} messages to one of ${checks.grown.messagesPerLanguage.toLocaleString("en")}, the same pages (the largest: ${grown.from.page}, ${kb(grown.from.bytes)} → ${grown.to.page}, ${kb(grown.to.bytes)})`,
    grown.bytes,
    kb,
    atMost(2_000, kb),
  ),
  fullRunGate(
    `The world (${checks.worldPage}: the real-size page), uncached (--page-cache-entries 0 --prerender off) ÷ the plain Node peer rendering the same bundle`,
    ratio(worldOurs, worldPeer),
    times,
    atLeast(1.5, times),
  ),
  fullRunGate(
    checks.variantPages
      ? `A regional variant's page (${checks.variantPages.variant}), uncached ÷ its parent's (${checks.variantPages.parent}), same host`
      : "A regional variant's page, uncached ÷ its parent's (the site has no variant)",
    checks.variantPages ? ratio(find("the world in a regional variant", `bilingue (no cache), ${checks.variantPages.variant}`), find("the world in a regional variant", `bilingue (no cache), ${checks.variantPages.parent}`)) : NaN,
    times,
    atLeast(0.95, times),
  ),
  fullRunGate(
    `A visitor's own page (${checks.streamedPage}, streamed after its kept shell: --shell-hold 0s) ÷ the Node streaming peer built from the site's sources, no compression`,
    ratio(streamOurs, streamPeer),
    times,
    atLeast(3, times),
  ),
  fullRunGate(
    `Resident memory along the crawl of ${checks.crawl.values.toLocaleString("en")} locale pages × ${CRAWL_LANGUAGES} languages, ${CRAWL_THREADS} render threads (peak)`,
    crawlPeak,
    megabytes,
    atMost(MOST_RSS_MB, megabytes),
  ),
  fullRunGate(
    `Flat in the crawl's last half: the highest minus the lowest of its ${memory.samples} samples (${megabytes(memory.min)} to ${megabytes(memory.max)})`,
    memory.spread,
    (v) => `${v.toFixed(1)} MB`,
    atMost(FLAT_MB, megabytes),
  ),
  fullRunGate(
    "The site measured is the real-size one (≥ 3,000 messages and 30 languages, 40 routes, 100,000 locale pages)",
    realSize,
    (v) => (v ? "yes" : `no: ${made.messagesPerLanguage.toLocaleString("en")} messages, ${made.languages} languages, ${made.routes} routes, ${checks.crawl.values} locale pages`),
    { ok: (v) => v, wanted: "yes" },
  ),
];

const seconds = (v) => `${v.toFixed(1)} s`;
const ms = (v) => `${v.toFixed(0)} ms`;
const heaps = (h) =>
  h ? Object.entries(h).map(([thread, bytes]) => `${thread} ${bytes > 0 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : "not sampled yet"}`).join(", ") : "not measured (no `bilingue_v8_heap_used_bytes` in /metrics)";
const steps = figures.build.siteSteps;
const figureRows = [
  ["Build (`node bench/site/build.mjs`; the demo: `node app/build.mjs`)", `${seconds(figures.build.site)} (generate ${steps.generate} s, catalogue ${steps.catalogue} s, build ${steps.build} s)`, seconds(figures.build.demo)],
  [`\`tsc --noEmit\` (the site's typed keys; the demo's app, its tests left out), median of ${ROUNDS}`, seconds(figures.tsc.site), seconds(figures.tsc.demo)],
  ["Server bundle", `${figures.bundle.site.toFixed(1)} MB`, `${figures.bundle.demo.toFixed(1)} MB`],
  [`Start-up to /readyz (\`--app-build\`, ${CRAWL_THREADS} render threads), median of ${STARTS}`, ms(figures.start.site.readyMs), ms(figures.start.demo.readyMs)],
  ["Resident memory at ready", megabytes(figures.start.site.rss), megabytes(figures.start.demo.rss)],
  ["V8 heap used per render runtime after warm-up (read after two renders of every route in every language)", heaps(figures.heapAfterPages.site), heaps(figures.heapAfterPages.demo)],
  [`First-load JavaScript (gzip -9), the largest of every route in every language (${siteLoads.pages} and ${demoLoads.pages} pages)`, `${kb(most.bytes)} (${most.page})`, `${kb(largest(demoLoads.loads).bytes)} (${largest(demoLoads.loads).page})`],
  ["First-load JavaScript, the smallest", kb(Math.min(...siteLoads.loads.map((l) => l.bytes))), kb(Math.min(...demoLoads.loads.map((l) => l.bytes)))],
  [
    `First-load growth from ${checks.few.messagesPerLanguage.toLocaleString("en")} to ${made.messagesPerLanguage.toLocaleString("en")} messages, the page that grew most (its own messages grow too)`,
    `${kb(grownMost.bytes)} (${grownMost.page}: ${kb(grownMost.from)} → ${kb(grownMost.to)})`,
    "",
  ],
  ["A language's module (the first load's messages, the home page's among them; the date locale; the way to its index of each route's messages), the largest", `${kb(largest(modules.site).bytes)} (${largest(modules.site).page})`, `${kb(largest(modules.demo).bytes)} (${largest(modules.demo).page})`],
  [
    `A language's module: its growth from ${checks.few.messagesPerLanguage.toLocaleString("en")} to ${made.messagesPerLanguage.toLocaleString("en")} messages (the home page's own grow too), the most`,
    `${kb(moduleGrowth.bytes)} (${moduleGrowth.page}: ${kb(moduleGrowth.from)} → ${kb(moduleGrowth.to)})`,
    "",
  ],
];

const cpu = (readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/) ?? [])[1] ?? "unknown CPU";
const sentAs = (s) => `${s.status === 200 ? "" : `${s.status}, `}${s.encoding}, ${(s.bytes / 1000).toFixed(1)} KB`;
const tenths = Array.from({ length: 11 }, (_, i) => checks.crawl.samples.findLast(({ done }) => done <= (i * checks.crawl.pages) / 10) ?? checks.crawl.samples[0]);
const section = [
  "<!-- bench/site/bench.mjs -->",
  "## The real-size site",
  "",
  `Run ${new Date().toISOString()} by \`node bench/site/bench.mjs\`${smoke ? " --smoke" : ""}: the site \`node bench/site/build.mjs\`${smoke ? " --small" : ""} makes from CLDR's text`,
  `(${made.languages} languages, ${made.messagesPerLanguage.toLocaleString("en")} messages in each table, ${made.withPluralOrSelect} of them plurals or selects, ${made.routes} routes, ${made.localeValues.toLocaleString("en")} locale pages),`,
  `the same site with \`--messages ${FEW_MESSAGES}\` (${checks.few.messagesPerLanguage.toLocaleString("en")} messages: the first load's, which it cannot go below), that one with \`--spare ${SPARE_MESSAGES}\` (${checks.grown.messagesPerLanguage.toLocaleString("en")} messages, the same pages: the catalogue grown, no page), and the demo app beside them,`,
  "each served by the release binary with `--app-build`, the site's API answered by `bench/upstream.mjs` at once.",
  `wrk, ${CONNECTIONS} keep-alive connections, ${duration} s per row after ${warmUp} s of warm-up, the contenders in turns (each round starting one further on), the median of ${ROUNDS} round${ROUNDS > 1 ? "s" : ""},`,
  `as a browser asks (\`Accept-Encoding: ${ACCEPTED}\`, a browser's User-Agent); ${threads} render threads and as many peer workers, each peer writing the host's page (checked byte for byte).`,
  `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}.`,
  "",
  "| What | Server | Requests/s | p50 (ms) | p99 (ms) | Sent as | Peak RSS (MB) | Errors |",
  "|---|---|---:|---:|---:|---|---:|---|",
  ...rows.map((r) => `| ${r.what} | ${r.server} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${sentAs(r.sent)} | ${r.peakRss.toFixed(0)} | ${r.errors || "none"} |`),
  "",
  `A visitor's own page as the host serves it by default (its shell held for its data, which came within the hold: the page whole) ÷ streamed after its kept shell: ${times(ratio(heldOurs, streamOurs))}; ÷ the Node streaming peer: ${times(ratio(heldOurs, streamPeer))}.`,
  "",
  `The crawl: ${checks.crawl.pages.toLocaleString("en")} pages (every locale page the sitemap lists, in ${checks.crawl.languages.join(", ")}, each value in the three in turn), asked as Googlebot`,
  `(\`Accept-Encoding: ${ACCEPTED}\`) on ${CRAWL_CONNECTIONS} keep-alive connections, through the host with its default page cache and ${CRAWL_THREADS} render threads;`,
  `${seconds(checks.crawl.seconds)}, ${(checks.crawl.pages / checks.crawl.seconds).toFixed(0)} pages/s, ${checks.crawl.failed.length} failed. RSS read every ${CRAWL_SAMPLE_MS} ms (${checks.crawl.samples.length} samples); at each tenth of the crawl:`,
  `${tenths.map(({ rss }) => rss.toFixed(0)).join(", ")} MB. "Flat": the last half's samples (from the ${Math.ceil(checks.crawl.pages / 2).toLocaleString("en")}th page on) stay within ${FLAT_MB} MB of one another.`,
  `V8 heap after the crawl: ${heaps(checks.crawl.heaps)}.`,
  "",
  `The largest first load, ${most.page}, file by file (gzip -9): ${fileByFile(most)}; the same page on the site of ${checks.few.messagesPerLanguage.toLocaleString("en")} messages: ${mostOnFew ? fileByFile(mostOnFew) : "not measured"}.`,
  "",
  ...gatesTable(targets),
  "",
  "Figures, the site's beside the demo's (noisy on a shared machine; not judged):",
  "",
  "| Figure | The site | The demo |",
  "|---|---:|---:|",
  ...figureRows.map(([what, site, demo]) => `| ${what} | ${site} | ${demo} |`),
  ...(smoke ? ["", ...targets.filter((t) => t.kind === "figure").map((t) => `Not judged in a smoke run: ${t.what}: ${t.show(t.value)} (wanted ${t.wanted})`)] : []),
  "",
].join("\n");
console.log(section);
if (out) writeSection(out, section);
const failed = missed(targets);
if (failed.length > 0) {
  console.error(`missed gates: ${failed.map((t) => `${t.what}: ${t.show(t.value)} (wanted ${t.wanted})`).join("; ")}`);
  process.exit(1);
}
