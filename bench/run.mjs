// The benchmark: builds the release binary, starts it, Varnish in front of it, and the Node
// peers, drives them with wrk on 127.0.0.1 at 64 keep-alive connections, asking as
// browsers ask (a browser's User-Agent, `Accept-Encoding: gzip, deflate, br`) unless a
// row's name says otherwise, and prints the rows, the streamed pages' first bytes, the
// crowd's, then the gates and the figures (also written to BENCHMARKS.md). A missed gate
// fails the run.
//   node bench/run.mjs                 full run (10 s per row), writes BENCHMARKS.md
//   node bench/run.mjs --smoke         a short check of the harness and of the gates that
//                                      hold on a 1 s run of any build (CI); writes nothing
//   node bench/run.mjs --only per-visitor
//                                      a visitor's own page alone (issue 36's rows, below):
//                                      its rows and the figure streamed ÷ whole, written
//                                      to its own section of BENCHMARKS.md
//   options: --duration S, --warm-up S, --threads N, --rounds N, --no-build, --out FILE
// Every row is measured after a warm-up of the same load (3 s; none in --smoke): a row
// then reads a server in its steady state, with caches filled and V8's code optimised.
//
// The peers write the host's page, not a copy of it: they render bundles built from the
// same sources with the host's build time (its sitemap's `lastmod`), read the host's
// answer for each page at start-up, and write that document and those headers around the
// markup they render; before any row, each peer's answer is checked to be the host's, byte
// for byte (bench/peers/). Two whole-page peers (bench/peers/whole.mjs) render OUR server
// bundle with Node's `http`, one worker per render thread, one through the npm
// `compression` middleware at its defaults, one without; the streaming peer
// (bench/streaming/) streams the app with React's `renderToPipeableStream`. The heavy page
// is a bench-only screen (bench/heavy/) rendered by the binary with `--server-bundle` and
// by the peers from the same bundle.
//
// Issue 36's rows: a visitor's own page (the status page with their cookie, which its
// loader forwards to an upstream that answers at once) streamed by the binary with its
// prerendered shell, rendered whole by the same binary (for a crawler), streamed with
// `--prerender off`, and streamed by the plain Node streaming peer; the uncached home page
// and the heavy page with `--prerender off` against the plain whole-page peer; all in
// turns, medians. Then the crowd (bench/crowd/): thousands of visitors streaming the
// status page at once behind a slow upstream, and fresh visitors beside them. The data
// the upstream gives names the visitor's session, so a page shows it got its own
// (bench/upstream.mjs).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { MAX_CONNECTIONS, measureCrowd } from "./crowd/measure.mjs";
import { buildHeavyBundle } from "./heavy/build.mjs";
import { CRAWLER, PERSON, readAnswer } from "./peers/host-page.mjs";
import { expectHostsPage, expectHostsStreamedPage } from "./peers/same-page.mjs";
import { buildStreamingRender } from "./streaming/build.mjs";
import { atLeast, atMost, below, figure, gate, missed, none, tables } from "./targets.mjs";
import { paced, summarise } from "./ttfb.mjs";
import { startVarnish } from "./varnish.mjs";
import { cpuUs, readOptions, requireWrk, rssMb, SECTION_MARKER, startServer, stop, targetDir, waitReady, wrk } from "./support.mjs";
import { carriesData, startUpstream } from "./upstream.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const options = readOptions({
  usage: "node bench/run.mjs [--smoke] [--only per-visitor] [--no-build] [--duration S] [--warm-up S] [--threads N] [--rounds N] [--out FILE]",
  flags: ["smoke", "no-build"],
  strings: ["out", "only"],
  numbers: { duration: 1, "warm-up": 0, threads: 1, rounds: 1 },
});
const smoke = options.smoke ?? false;
/** A part of the run alone: `per-visitor`, a visitor's own page (its rows, in turns, as the full run has them). */
const only = options.only;
if (only !== undefined && only !== "per-visitor") {
  console.error(`--only takes per-visitor, not ${JSON.stringify(only)}`);
  process.exit(2);
}
const duration = options.duration ?? (smoke ? 1 : 10);
const warmUp = options["warm-up"] ?? (smoke ? 0 : 3);
// A smoke run checks the harness and its arithmetic, and runs beside the suite's other
// tests on a 2-core machine: one render thread, one peer worker and one connection at a
// time (wrk on one thread), so each of its rows takes about a core, not the machine.
const threads = options.threads ?? (smoke ? 1 : os.availableParallelism());
const out = options.out ?? (smoke ? null : path.join(root, "BENCHMARKS.md"));
/** Where a part run alone writes its section, below the full run's and the other scripts'. */
const ONLY_MARKER = `<!-- bench/run.mjs --only ${only} -->`;
const binary = process.env.BILINGUE_BIN ?? path.join(targetDir(root), "release/bilingue");
const CONNECTIONS = smoke ? 1 : 64;
const WRK_THREADS = smoke ? "-t1" : "-t2";
const ACCEPTED = "gzip, deflate, br";
const BROWSERS = [`Accept-Encoding: ${ACCEPTED}`, `User-Agent: ${PERSON}`];
/** How long the upstream takes beside the home page (many loads in flight at once). */
const SLOW_LOAD_MS = 200;
/** How long the upstream takes for the streamed pages' first bytes (issue 23's case). */
const STREAM_UPSTREAM_MS = smoke ? 800 : 2000;
/** Page views of the streamed page per contender, one every STREAM_PACE_MS, in rounds. */
const STREAM_VIEWS = smoke ? 6 : 150;
const STREAM_PACE_MS = smoke ? 50 : 100;
/** The session cookie of the visitor whose own page is measured (its loader forwards it). */
const VISITOR_COOKIE = "session=bench-visitor";
/**
 * The crowd: visitors streaming the status page at once, behind an upstream this slow
 * (its first bytes must come within half of it). The smoke runs beside the browser tests
 * in the suite, where its one Node client lagged up to 173 ms: 1 s gives the room.
 */
const CROWD_VISITORS = smoke ? 100 : 3000;
const CROWD_UPSTREAM_MS = smoke ? 1000 : 2000;
/** A fresh visitor beside the crowd every this many ms. */
const FRESH_EVERY_MS = 50;
/** Turns the contenders take at the head-to-heads. */
const ROUNDS = options.rounds ?? (smoke ? 1 : 3);
const MEDIAN = ROUNDS > 1 ? `, median of ${ROUNDS} rounds` : "";
const PEER_GZ = `Node peer, compression middleware (${threads} workers)`;
const PEER_PLAIN = `Node peer, no compression (${threads} workers)`;
const PEER_STREAMING = `Node peer, renderToPipeableStream + compression (${threads} workers)`;
const PEER_STREAMING_PLAIN = `Node peer, renderToPipeableStream, no compression (${threads} workers)`;
const CACHED = "bilingue (page cache)";
const UNCACHED = "bilingue (no cache)";
const UNCACHED_WHOLE = "bilingue (no cache, --prerender off)";
const PER_VISITOR = `a visitor's own status page (their cookie forwarded), instant upstream${MEDIAN}`;
/** A person, as the binary serves them by default: the data within --shell-hold, the page comes whole. */
const PER_VISITOR_HELD = "bilingue, a person (--prerender on: its shell held, the page whole)";
const PER_VISITOR_SHELL = "bilingue, a person, streamed after its kept shell (--shell-hold 0s)";
const PER_VISITOR_WHOLE = "bilingue, whole (a crawler: Googlebot)";
const PER_VISITOR_NO_SHELL = "bilingue, a person, streamed (--prerender off)";
const VARNISH = "Varnish → bilingue (page cache)";
const TRACED = "bilingue (no cache), tracing to a collector";
const TRACING_ROW = `French home page, tracing off and on${MEDIAN}`;
const HEAD_TO_HEAD = `French home page${MEDIAN}`;
const HEAVY_HEAD_TO_HEAD = `heavy page (French)${MEDIAN}`;

if (!smoke && !options["no-build"]) {
  execFileSync("cargo", ["build", "--release"], { cwd: root, stdio: "inherit" });
}
requireWrk();

/** Samples the summed RSS of these processes every 200 ms until stopped; the peak. */
function sampleRss(pids) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, pids().reduce((sum, pid) => sum + rssMb(pid), 0))), 200);
  return () => (clearInterval(timer), peak);
}

/** wrk against one URL, with these request headers (the browsers' by default). */
async function load(url, { pids = () => [], headers = BROWSERS, warmUpS = warmUp } = {}) {
  const peakRss = sampleRss(pids);
  const asked = headers.flatMap((h) => ["-H", h]);
  if (warmUpS > 0) await wrk([WRK_THREADS, `-c${CONNECTIONS}`, `-d${warmUpS}s`, ...asked, url]);
  const cpu = () => pids().reduce((sum, pid) => sum + cpuUs(pid), 0);
  const cpuBefore = cpu();
  const report = await wrk([WRK_THREADS, `-c${CONNECTIONS}`, `-d${duration}s`, "--latency", ...asked, url]);
  const cpuPerRequest = (cpu() - cpuBefore) / report.requests;
  const rss = peakRss();
  if (Number.isNaN(report.p99)) throw new Error(`no latency in wrk output:\n${report.text}`);
  const { rps, p50, p99, errors, requests } = report;
  return { rps, p50, p99, errors, requests, peakRss: rss, cpuPerRequest };
}

/** wrk's header lines as a request's headers. */
const headerObject = (lines) => Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));

/** What a URL answers to these headers: its status, Content-Encoding, size and some headers. */
function answer(url, headers = BROWSERS) {
  return new Promise((resolve, reject) =>
    http
      .get(url, { headers: headerObject(headers), agent: false }, (res) => {
        let bytes = 0;
        res.on("data", (d) => (bytes += d.length));
        res.on("end", () => resolve({ status: res.statusCode, encoding: res.headers["content-encoding"] ?? "identity", bytes, headers: res.headers }));
      })
      .on("error", reject),
  );
}

async function coldStart() {
  const samples = [];
  for (let i = 0; i < (smoke ? 1 : 5); i++) {
    const server = await startServer(binary, ["--port", "0", "--render-threads", String(threads)]);
    while (true) {
      const ok = await fetch(`${server.baseUrl}/fr/`).then((r) => r.ok, () => false);
      if (ok) break;
    }
    samples.push(Number(process.hrtime.bigint() - server.started) / 1e6);
    await stop(server);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

/**
 * Gzip bytes of the JavaScript a home page makes the browser fetch before it hydrates (the
 * entry its starter script adds, and the module preloads), in the language where it is most.
 */
async function firstLoadJs(baseUrl) {
  let most = { bytes: 0 };
  for (const language of ["fr", "en"]) {
    const html = await (await fetch(`${baseUrl}/${language}/`)).text();
    const urls = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"|type:"module",src:"([^"]+)"/g)].map((m) => m[1] ?? m[2]);
    let bytes = 0;
    for (const url of urls) bytes += gzipSync(Buffer.from(await (await fetch(baseUrl + url)).arrayBuffer()), { level: 9 }).length;
    if (bytes > most.bytes) most = { bytes, files: urls.length, language };
  }
  return most;
}

/** The host's build time (ms), from its sitemap's `lastmod`: the peers' bundles are built as of it. */
async function buildTimeOf(baseUrl) {
  const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
  const lastmod = sitemap.match(/<lastmod>([^<]+)<\/lastmod>/)?.[1];
  const time = Date.parse(lastmod);
  if (Number.isNaN(time)) throw new Error(`no build time in the host's sitemap:\n${sitemap}`);
  return time;
}

/** An OTLP/HTTP collector that takes every export and keeps nothing: the exporter drains. */
async function drainingCollector() {
  let exports = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      exports++;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, exports: () => exports, close: () => server.close() };
}

async function startHost(extra = []) {
  const host = await startServer(binary, ["--port", "0", "--render-threads", String(threads), ...extra]);
  await waitReady(host.baseUrl);
  // The same object, not a copy: what the host prints later goes on landing in it.
  return Object.assign(host, { pids: () => [host.child.pid] });
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

/** The two whole-page peers for `bundle`, writing `host`'s pages at `paths`, checked. */
async function startWholePeers(bundle, host, paths) {
  const peers = [];
  for (const coding of ["compress", "plain"]) {
    const peer = await startPeer("bench/peers/whole.mjs", [bundle, host.baseUrl, String(threads), coding, ...paths]);
    peers.push(peer);
    for (const p of paths) await expectHostsPage(host.baseUrl + p, peer.baseUrl + p);
  }
  return peers;
}

/**
 * Varnish in front of `host` (page cache on): after one request, the French home page as a
 * hit, then its revalidation. Adds their rows; gives the share of requests Varnish answered
 * from its cache, and how a revalidation was answered by the origin and by Varnish.
 */
async function throughVarnish(host) {
  const fr = `${host.baseUrl}/fr/`;
  const revalidate = [...BROWSERS, `If-None-Match: ${(await answer(fr)).headers.etag}`];
  const origin = await answer(fr, revalidate);
  const varnish = await startVarnish(host.baseUrl);
  try {
    const through = `${varnish.baseUrl}/fr/`;
    const first = await answer(through);
    const before = await varnish.counters();
    const asVarnish = { pids: varnish.pids };
    row("French home page, a hit", VARNISH, "cached", await load(through, asVarnish), await answer(through));
    const revalidateThrough = [...BROWSERS, `If-None-Match: ${first.headers.etag}`];
    row("French home page, revalidation (`If-None-Match`)", VARNISH, "cached", await load(through, { ...asVarnish, headers: revalidateThrough }), await answer(through, revalidateThrough));
    const sample = await answer(through, revalidateThrough);
    const after = await varnish.counters();
    // Varnish names two transactions when it answers from its cache.
    const fromCache = sample.headers["x-varnish"]?.split(" ").length === 2;
    return {
      hitShare: (after.hits - before.hits) / (after.requests - before.requests),
      revalidation: `${origin.status} / ${sample.status}${fromCache ? " from the cache" : " fetched"}`,
    };
  } finally {
    await varnish.stop();
  }
}

/**
 * The first bytes of a page whose data takes as long as `upstream` does: streamed to a
 * person, rendered whole for a crawler (the same host), and streamed by the Node peer
 * from the same upstream. Page views come one after another at a steady pace, as visitors
 * arrive; the contenders take turns.
 */
async function streamedFirstBytes(upstream) {
  const host = await startHost(["--api-upstream", upstream.url]);
  const peer = await startPeer("bench/streaming/peer.mjs", [streamingRender, host.baseUrl, `${upstream.url}/api`, String(threads), "compress", "/fr/etat"]);
  try {
    await expectHostsStreamedPage(`${host.baseUrl}/fr/etat`, `${peer.baseUrl}/fr/etat`);
    const contenders = [
      ["bilingue, streamed (a person)", `${host.baseUrl}/fr/etat`, PERSON],
      ["bilingue, whole (a crawler: Googlebot)", `${host.baseUrl}/fr/etat`, CRAWLER],
      [PEER_STREAMING, `${peer.baseUrl}/fr/etat`, PERSON],
    ];
    const answers = contenders.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, url, agent]] of contenders.entries()) {
        const headers = { "accept-encoding": ACCEPTED, "user-agent": agent };
        answers[i].push(...(await paced(url, { count: Math.ceil(STREAM_VIEWS / ROUNDS), everyMs: STREAM_PACE_MS, headers })));
      }
    }
    return contenders.map(([who], i) => {
      const ok = answers[i].filter((a) => !a.error && a.status === 200);
      return { who, ...summarise(answers[i]), encoding: ok[0]?.headers["content-encoding"] ?? "identity", withData: ok.filter((a) => carriesData(a)).length };
    });
  } finally {
    await stop(peer);
    await stop(host);
  }
}

/**
 * A head-to-head: this machine's throughput drifts by tens of percent from one minute to
 * the next, so the contenders (`[server, url, target, headers]`; the browsers' headers
 * unless given) take turns, ROUNDS times, and each adds its median round as its row (and
 * its median CPU a request).
 */
async function headToHead(what, contenders) {
  const rounds = contenders.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts one contender further on: none always follows the same one (the
    // Node peer's hundreds of MB, freed, weigh on whoever comes next).
    for (let turn = 0; turn < contenders.length; turn++) {
      const i = (round + turn) % contenders.length;
      const [, url, target, headers = BROWSERS] = contenders[i];
      rounds[i].push(await load(url, { ...target, headers }));
    }
  }
  for (const [i, [server, url, , headers = BROWSERS]] of contenders.entries()) {
    const byRps = rounds[i].sort((a, b) => a.rps - b.rps);
    const cpuPerRequest = rounds[i].map((r) => r.cpuPerRequest).sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
    row(what, server, "render", { ...byRps[Math.floor(ROUNDS / 2)], cpuPerRequest }, await answer(url, headers));
  }
}

/**
 * A visitor's own page (issue 36): the status page with their cookie, which its loader
 * forwards to `upstream` (it answers at once), streamed to a person by the binary with
 * its prerendered shell, rendered whole by the same binary (for a crawler), streamed by
 * the binary with `--prerender off`, and streamed by the Node peer without compression;
 * each first checked to carry that visitor's data (what it misses goes to `misses`).
 */
async function perVisitorPages(upstream, misses) {
  const api = ["--api-upstream", upstream.url];
  const host = await startHost(api);
  const streamedHost = await startHost([...api, "--shell-hold", "0s"]);
  const noShell = await startHost([...api, "--prerender", "off"]);
  const peer = await startPeer("bench/streaming/peer.mjs", [streamingRender, streamedHost.baseUrl, `${upstream.url}/api`, String(threads), "plain", "/fr/etat"]);
  try {
    await expectHostsStreamedPage(`${streamedHost.baseUrl}/fr/etat`, `${peer.baseUrl}/fr/etat`, { cookie: VISITOR_COOKIE });
    const person = [...BROWSERS, `Cookie: ${VISITOR_COOKIE}`];
    const crawler = [`Accept-Encoding: ${ACCEPTED}`, `User-Agent: ${CRAWLER}`, `Cookie: ${VISITOR_COOKIE}`];
    const contenders = [
      [PER_VISITOR_HELD, `${host.baseUrl}/fr/etat`, host, person],
      [PER_VISITOR_SHELL, `${streamedHost.baseUrl}/fr/etat`, streamedHost, person],
      [PER_VISITOR_WHOLE, `${host.baseUrl}/fr/etat`, host, crawler],
      [PER_VISITOR_NO_SHELL, `${noShell.baseUrl}/fr/etat`, noShell, person],
      [PEER_STREAMING_PLAIN, `${peer.baseUrl}/fr/etat`, peer, person],
    ];
    for (const [server, url, , headers] of contenders) {
      const sample = await readAnswer(url, headerObject(headers));
      if (sample.status !== 200 || !carriesData(sample, VISITOR_COOKIE)) misses.push(`${server}, the visitor's own page: ${sample.status === 200 ? "without their data" : `status ${sample.status}`}`);
    }
    await headToHead(PER_VISITOR, contenders);
  } finally {
    await stop(peer);
    await stop(noShell);
    await stop(streamedHost);
    await stop(host);
  }
}

/**
 * `--only per-visitor`: the streaming peer built as the full run builds it, then a visitor's
 * own page, its contenders in turns; prints their rows and the figure streamed ÷ whole, and
 * writes them to this part's own section of `out` (the rest of the file is kept).
 */
async function perVisitorAlone() {
  const loadBefore = os.loadavg()[0];
  const host = await startHost();
  await buildStreamingRender(streamingRender, await buildTimeOf(host.baseUrl));
  await stop(host);
  const upstream = await startUpstream(0);
  try {
    await perVisitorPages(upstream, perVisitorMisses);
  } finally {
    upstream.close();
    rmSync(work, { recursive: true, force: true });
  }
  const wholeRow = find(PER_VISITOR, PER_VISITOR_WHOLE);
  const overWhole = (server, what) => {
    const row = find(PER_VISITOR, server);
    return `${what} ÷ whole (a crawler), same binary: ${(row.rps / wholeRow.rps).toFixed(2)}× the pages a second; ${(wholeRow.cpuPerRequest / row.cpuPerRequest).toFixed(2)}× in CPU a page (whole ÷ it: above 1, it costs less).`;
  };
  const section = [
    ONLY_MARKER,
    "",
    `### A visitor's own page, run alone`,
    "",
    `Run ${new Date().toISOString()} by \`node bench/run.mjs --only per-visitor\`: wrk, ${CONNECTIONS} keep-alive connections, ${duration} s per row after ${warmUp} s of warm-up,`,
    `the contenders in ${ROUNDS} turns (each round starting one further on), each row its median round; render threads: ${threads}; the machine's load average (1 min) ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after.`,
    "",
    "| What | Server | Requests/s | p50 (ms) | p99 (ms) | Server CPU a page (µs) | Peak RSS (MB) | Errors |",
    "|---|---|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.what} | ${r.server} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpuPerRequest.toFixed(0)} | ${r.peakRss.toFixed(0)} | ${r.errors || "none"} |`,
    ),
    "",
    overWhole(PER_VISITOR_HELD, "A person's page (--prerender on, its shell held for its data)"),
    overWhole(PER_VISITOR_SHELL, "Streamed after its kept shell (--shell-hold 0s)"),
    `Pages without their visitor's data: ${perVisitorMisses.length === 0 ? "none" : perVisitorMisses.join("; ")}. Server CPU a page: the server's processes' CPU time (user and system) over the measured run ÷ its requests; the Node peer's includes its workers.`,
    "",
  ].join("\n");
  console.log(section);
  if (!out) return;
  // This part's section replaces its last one; the full run's and the other sections stay.
  const sections = existsSync(out) ? readFileSync(out, "utf8").split(/(?=^<!-- bench\/[^\n]+ -->$)/m) : [];
  const others = sections.filter((s) => !s.startsWith(ONLY_MARKER));
  writeFileSync(out, [...others.map((s) => s.replace(/\n*$/, "\n\n")), section].join(""));
}

const work = mkdtempSync(path.join(os.tmpdir(), "bilingue-bench-"));
const appBundle = path.join(work, "app", "server.js");
const heavyBundle = path.join(work, "heavy", "server.js");
const streamingRender = path.join(work, "streaming", "render.cjs");

const rows = [];
/** One row: `kind` says which latency bound applies (cached, asset, render, waiting). */
const row = (what, server, kind, result, sent) => rows.push({ what, server, kind, sent, ...result });
const find = (what, server) => {
  const found = rows.find((r) => r.what === what && r.server === server);
  if (!found) throw new Error(`no row "${what}" / "${server}"`);
  return found;
};
/** The streamed page's first bytes, by contender. */
const views = [];
/** Issue 36's visitor's own page, where it came without their data. */
const perVisitorMisses = [];
/** The crowd, the fresh visitors beside it, and the host meanwhile (bench/crowd/measure.mjs). */
let crowd;
/** What Varnish did: its hit share, and how revalidations were answered. */
const checks = { hitShare: NaN, revalidation: "not measured", exports: 0 };
let firstLoad;
const upstreams = [];
if (only === "per-visitor") {
  await perVisitorAlone();
  process.exit(0);
}
try {
  {
    const host = await startHost();
    const buildTime = await buildTimeOf(host.baseUrl);
    execFileSync("node", [path.join(root, "app/build.mjs"), path.dirname(appBundle)], {
      cwd: root,
      stdio: "ignore",
      env: { ...process.env, BILINGUE_BUILD_TIME: String(buildTime) },
    });
    await buildHeavyBundle(heavyBundle);
    await buildStreamingRender(streamingRender, buildTime);

    const html = await (await fetch(`${host.baseUrl}/fr/`)).text();
    const asset = host.baseUrl + html.match(/type:"module",src:"([^"]+)"/)[1];
    const fr = `${host.baseUrl}/fr/`;
    const en = `${host.baseUrl}/en/`;
    const brOnly = ["Accept-Encoding: br", `User-Agent: ${PERSON}`];
    row("French home page", CACHED, "cached", await load(fr, host), await answer(fr));
    row("English home page", CACHED, "cached", await load(en, host), await answer(en));
    row("French home page, `Accept-Encoding: br` only", CACHED, "cached", await load(fr, { ...host, headers: brOnly }), await answer(fr, brOnly));
    const revalidate = [...BROWSERS, `If-None-Match: ${(await answer(fr)).headers.etag}`];
    row("French home page, revalidation (`If-None-Match`)", CACHED, "cached", await load(fr, { ...host, headers: revalidate }), await answer(fr, revalidate));

    Object.assign(checks, await throughVarnish(host));
    row("static asset (entry JS)", "bilingue", "asset", await load(asset, host), await answer(asset));
    row("/api/status", "bilingue", "cached", await load(`${host.baseUrl}/api/status`, host), await answer(`${host.baseUrl}/api/status`));
    row("status page, streamed (built-in API)", "bilingue", "render", await load(`${host.baseUrl}/fr/etat`, host), await answer(`${host.baseUrl}/fr/etat`));
    firstLoad = await firstLoadJs(host.baseUrl);
    await stop(host);
  }
  {
    // Every page rendered whole, as the Node peers render it (issue 36: `--prerender off`).
    const host = await startHost(["--page-cache-entries", "0", "--prerender", "off"]);
    const fr = `${host.baseUrl}/fr/`;
    const peers = await startWholePeers(appBundle, host, ["/fr/", "/en/"]);
    await headToHead(HEAD_TO_HEAD, [
      [UNCACHED_WHOLE, fr, host],
      [PEER_GZ, `${peers[0].baseUrl}/fr/`, peers[0]],
      [PEER_PLAIN, `${peers[1].baseUrl}/fr/`, peers[1]],
    ]);
    row("English home page", UNCACHED_WHOLE, "render", await load(`${host.baseUrl}/en/`, host), await answer(`${host.baseUrl}/en/`));
    row("English home page", PEER_GZ, "render", await load(`${peers[0].baseUrl}/en/`, peers[0]), await answer(`${peers[0].baseUrl}/en/`));
    const plain = [`User-Agent: ${PERSON}`];
    row("French home page, no `Accept-Encoding`", UNCACHED_WHOLE, "render", await load(fr, { ...host, headers: plain }), await answer(fr, plain));
    // What telling a person from a crawler costs an uncached page: the same request without a User-Agent.
    const noAgent = [`Accept-Encoding: ${ACCEPTED}`];
    row("French home page, no User-Agent", UNCACHED_WHOLE, "render", await load(fr, { ...host, headers: noAgent }), await answer(fr, noAgent));
    for (const peer of peers) await stop(peer);
    await stop(host);
  }
  {
    // What tracing costs an uncached page: every request's spans recorded and exported to a
    // collector that takes them, against the same binary without --otlp-endpoint, in turns.
    const collector = await drainingCollector();
    const plain = await startHost(["--page-cache-entries", "0"]);
    const traced = await startHost(["--page-cache-entries", "0", "--otlp-endpoint", collector.url]);
    await headToHead(TRACING_ROW, [
      [UNCACHED, `${plain.baseUrl}/fr/`, plain],
      [TRACED, `${traced.baseUrl}/fr/`, traced],
    ]);
    checks.exports = collector.exports();
    await stop(plain);
    await stop(traced);
    collector.close();
  }
  {
    const host = await startHost(["--page-cache-entries", "0", "--prerender", "off", "--server-bundle", heavyBundle]);
    const peers = await startWholePeers(heavyBundle, host, ["/fr/"]);
    await headToHead(
      HEAVY_HEAD_TO_HEAD,
      [[UNCACHED_WHOLE, host], [PEER_GZ, peers[0]], [PEER_PLAIN, peers[1]]].map(([name, target]) => [name, `${target.baseUrl}/fr/`, target]),
    );
    for (const peer of peers) await stop(peer);
    await stop(host);
    const cached = await startHost(["--server-bundle", heavyBundle]);
    row("heavy page (French)", CACHED, "cached", await load(`${cached.baseUrl}/fr/`, cached), await answer(`${cached.baseUrl}/fr/`));
    await stop(cached);
  }
  {
    // Pages whose data takes SLOW_LOAD_MS, streamed to 64 clients at once, and beside them
    // the home page: the render threads must keep rendering while the streams wait. The
    // home page is measured first on the same process, so that the ratio compares one host
    // with itself.
    const upstream = await startUpstream(SLOW_LOAD_MS);
    upstreams.push(upstream);
    const host = await startHost(["--page-cache-entries", "0", "--api-upstream", upstream.url]);
    const status = `${host.baseUrl}/fr/etat`;
    const home = `${host.baseUrl}/fr/`;
    row(`French home page, before the ${SLOW_LOAD_MS} ms loads`, UNCACHED, "render", await load(home, host), await answer(home));
    // The loads warm up first, so that the home page is measured beside their steady
    // state, not beside V8 still compiling the status page; both windows are the same.
    const later = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const [waiting, beside] = await Promise.all([
      load(status, { ...host, warmUpS: 2 * warmUp }),
      later(warmUp).then(() => load(home, host)),
    ]);
    row(`status page, streamed, upstream taking ${SLOW_LOAD_MS} ms`, UNCACHED, "waiting", waiting, await answer(status));
    row(`French home page, beside the ${SLOW_LOAD_MS} ms streamed loads`, UNCACHED, "render", beside, await answer(home));
    await stop(host);
  }
  {
    const upstream = await startUpstream(STREAM_UPSTREAM_MS);
    upstreams.push(upstream);
    views.push(...(await streamedFirstBytes(upstream)));
  }
  {
    const upstream = await startUpstream(0);
    upstreams.push(upstream);
    await perVisitorPages(upstream, perVisitorMisses);
  }
  crowd = await measureCrowd({ startHost, visitors: CROWD_VISITORS, delayMs: CROWD_UPSTREAM_MS, everyMs: FRESH_EVERY_MS });
} finally {
  for (const upstream of upstreams) upstream.close();
}
const cold = await coldStart();
rmSync(work, { recursive: true, force: true });

const ours = rows.filter((r) => !r.server.startsWith("Node peer"));
const oursOnly = ours.filter((r) => r.server.startsWith("bilingue"));
// A streamed page holds its render in V8 while it waits for its data: rows with streams
// running (and the row beside them, on the same process) are judged apart, so that each
// kind of load shows its own peak.
const withStreams = (r) => r.what.includes("streamed") || r.what === PER_VISITOR;
const maxRss = Math.max(...oursOnly.filter((r) => !withStreams(r)).map((r) => r.peakRss));
const maxRssStreaming = Math.max(...oursOnly.filter(withStreams).map((r) => r.peakRss));
const binaryMb = statSync(binary).size / 1e6;
const fastP99 = Math.max(...ours.filter((r) => r.kind === "cached" || r.kind === "asset").map((r) => r.p99));
/** Little's law: 64 connections at this rate wait 64 ÷ rps on average; the worst p99 ÷ that. */
const worstTail = Math.max(...oursOnly.filter((r) => r.kind === "render").map((r) => r.p99 / ((CONNECTIONS * 1000) / r.rps)));
const alone = find(HEAD_TO_HEAD, UNCACHED_WHOLE);
const besideRow = find(`French home page, beside the ${SLOW_LOAD_MS} ms streamed loads`, UNCACHED);
const beforeRow = find(`French home page, before the ${SLOW_LOAD_MS} ms loads`, UNCACHED);
const heavyOurs = find(HEAVY_HEAD_TO_HEAD, UNCACHED_WHOLE);
const perVisitor = find(PER_VISITOR, PER_VISITOR_SHELL);
const perVisitorHeld = find(PER_VISITOR, PER_VISITOR_HELD);
const originCached = find("French home page", CACHED);
const [streamed, , nodeStreamed] = views;
const ratio = (a, b) => a.rps / b.rps;
const times = (v) => `${v.toFixed(2)}×`;
const percent = (v) => `${(100 * v).toFixed(0)}%`;
const share = (v) => `${(100 * v).toFixed(2)}%`;
const ms = (v) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;
const megabytes = (v) => `${v.toFixed(0)} MB`;
const failures = ours.filter((r) => r.errors).map((r) => `${r.what} (${r.server}): ${r.errors}`);
const streamedMisses = [
  ...views.filter((v) => v.failed > 0 || v.withData < v.requests).map((v) => `${v.who}: ${v.failed} failed, ${v.requests - v.failed - v.withData} without the data`),
  ...perVisitorMisses,
];
const { crowd: crowded, fresh, host: crowdHost } = crowd;
const crowdMisses = [
  ...(crowded.failed > 0 ? [`${crowded.failed} failed (${crowded.failures.join("; ")})`] : []),
  ...(crowded.requests - crowded.failed > crowded.withData ? [`${crowded.requests - crowded.failed - crowded.withData} without their data`] : []),
];
const freshMisses = fresh.filter((f) => f.failed > 0).map((f) => `${f.what}: ${f.failed} of ${f.requests} (${f.problems.join("; ")})`);
const list = (v) => (v.length === 0 ? "none" : v.join("; "));
// What a 1 s run of any build (a debug one, in the tests) cannot promise is judged on full
// runs only; the smoke reports it beside what is wanted.
const fullRunGate = smoke ? figure : gate;

const targets = [
  gate("Rows of bilingue (and Varnish) with errors", failures, (v) => (v.length === 0 ? "none" : v.join("; ")), none),
  gate(`First-load JavaScript (gzip -9; ${firstLoad.files} files, the home page in ${firstLoad.language})`, firstLoad.bytes / 1000, (v) => `${v.toFixed(2)} KB`, atMost(80, (v) => `${v} KB`)),
  gate("Varnish: share of the requests answered from its cache (hit and revalidation rows)", checks.hitShare, share, atLeast(0.99, percent)),
  gate("A revalidation answered by the origin / by Varnish", checks.revalidation, (v) => v, {
    ok: (v) => v === "304 / 304 from the cache",
    wanted: "304 / 304 from the cache",
  }),
  gate(
    `Streamed page (a person): slowest first byte of ${streamed.requests}, the data taking ${STREAM_UPSTREAM_MS} ms`,
    streamed.firstByte.max,
    ms,
    below(STREAM_UPSTREAM_MS / 2, ms),
  ),
  gate("Streamed and whole pages that failed or came without their data's markup", streamedMisses, list, none),
  fullRunGate("Streamed page (a person): time to first byte, median", streamed.firstByte.p50, ms, atMost(50, ms)),
  fullRunGate("Binary size", binaryMb, (v) => `${v.toFixed(1)} MB`, atMost(60, (v) => `${v} MB`)),
  fullRunGate("Resident memory under load, whole pages (bilingue, peak)", maxRss, megabytes, atMost(120, megabytes)),
  fullRunGate(`Resident memory with ${CONNECTIONS} streamed pages in flight (and as many renders beside them; bilingue, peak)`, maxRssStreaming, megabytes, atMost(120, megabytes)),
  fullRunGate("A visitor's own page (their cookie forwarded, instant upstream): bilingue streamed after its kept shell (--shell-hold 0s) ÷ the Node streaming peer, no compression", ratio(perVisitor, find(PER_VISITOR, PEER_STREAMING_PLAIN)), times, atLeast(3, times)),
  fullRunGate("Uncached home page (--prerender off) ÷ non-compressing Node peer", ratio(alone, find(HEAD_TO_HEAD, PEER_PLAIN)), times, atLeast(1.5, times)),
  fullRunGate("Heavy page (--prerender off) ÷ non-compressing Node peer", ratio(heavyOurs, find(HEAVY_HEAD_TO_HEAD, PEER_PLAIN)), times, atLeast(1.5, times)),
  gate(`The crowd (${crowded.requests} visitors streaming the status page at once): pages that failed or came without their visitor's data`, crowdMisses, list, none),
  gate(`The crowd: slowest first byte, the data taking ${CROWD_UPSTREAM_MS} ms`, crowded.firstByte.max ?? Infinity, ms, below(CROWD_UPSTREAM_MS / 2, ms)),
  fullRunGate("The crowd: first byte, p99", crowded.firstByte.p99 ?? Infinity, ms, atMost(100, ms)),
  fullRunGate("The crowd: resident memory (bilingue, peak)", crowdHost.rss, megabytes, atMost(200, megabytes)),
  gate("Fresh visitors beside the crowd answered wrong or not at all", freshMisses, list, none),
  ...fresh.map((f) => fullRunGate(`Beside the crowd, a fresh visitor's first byte (slowest of ${f.requests}): ${f.what}`, f.max ?? Infinity, ms, atMost(50, ms))),
  figure("A visitor's own page: bilingue to a person (--prerender on, its shell held for its data: whole) ÷ the same binary rendering it whole (a crawler)", ratio(perVisitorHeld, find(PER_VISITOR, PER_VISITOR_WHOLE)), times, atLeast(1, times)),
  figure("A visitor's own page: bilingue streamed after its kept shell (--shell-hold 0s) ÷ the same binary rendering it whole (a crawler)", ratio(perVisitor, find(PER_VISITOR, PER_VISITOR_WHOLE)), times, atLeast(1, times)),
  figure("Uncached home page (--prerender off) ÷ compressing Node peer", ratio(alone, find(HEAD_TO_HEAD, PEER_GZ)), times, atLeast(1.5, times)),
  figure("Heavy page (--prerender off) ÷ compressing Node peer", ratio(heavyOurs, find(HEAVY_HEAD_TO_HEAD, PEER_GZ)), times, atLeast(1.3, times)),
  figure("Varnish hit ÷ the origin's page cache (requests/s)", ratio(find("French home page, a hit", VARNISH), originCached), percent, atLeast(1, percent)),
  figure("Cached home page ÷ /api/status (same binary)", ratio(originCached, find("/api/status", "bilingue")), percent, atLeast(0.9, percent)),
  figure("Cached home page: brotli-only client ÷ browsers' header", ratio(find("French home page, `Accept-Encoding: br` only", CACHED), originCached), percent, atLeast(0.9, percent)),
  figure(`Uncached home page beside ${SLOW_LOAD_MS} ms streamed loads ÷ before them (same host)`, ratio(besideRow, beforeRow), percent, atLeast(0.75, percent)),
  figure("Uncached home page: a browser's User-Agent ÷ none (the crawler test's cost)", ratio(alone, find("French home page, no User-Agent", UNCACHED_WHOLE)), percent, atLeast(0.9, percent)),
  figure("Uncached home page: tracing on, spans exported ÷ tracing off", ratio(find(TRACING_ROW, TRACED), find(TRACING_ROW, UNCACHED)), percent, atLeast(0.9, percent)),
  gate("Exports the collector took during the tracing rows", checks.exports, (v) => String(v), { ok: (v) => v > 0, wanted: "some" }),
  figure("p99 of cached pages and assets (worst row)", fastP99, ms, atMost(5, ms)),
  figure("Uncached rows: worst p99 ÷ the mean wait (64 ÷ rps, Little's law)", worstTail, times, atMost(2, times)),
  figure("Streamed page (a person): time to first byte, p99", streamed.firstByte.p99, ms, atMost(50, ms)),
  // CPU time at start-up: the machine's other tenants move it (63 ms one day, 125 ms beside a build).
  figure("Cold start (process start → first 200, median)", cold, ms, atMost(100, ms)),
  figure("Streamed first byte, median: bilingue ÷ the Node streaming peer", streamed.firstByte.p50 / nodeStreamed.firstByte.p50, times, atMost(1, times)),
];

const cpu = (readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/) ?? [])[1] ?? "unknown CPU";
const fixed = (v, digits) => (v === undefined || v === null ? "—" : v.toFixed(digits));
const sentAs = (s) => `${s.status === 200 ? "" : `${s.status}, `}${s.encoding}, ${(s.bytes / 1000).toFixed(1)} KB`;
const lines = [
  "# Benchmarks",
  "",
  `Run ${new Date().toISOString()} by \`node bench/run.mjs\`${smoke ? " --smoke" : ""}: wrk, ${CONNECTIONS} keep-alive connections, ${duration} s per row after ${warmUp} s of warm-up, on 127.0.0.1,`,
  `every request as a browser asks (\`Accept-Encoding: ${ACCEPTED}\`, a browser's User-Agent) unless its row says otherwise.`,
  `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}.`,
  `Render threads: ${threads}; each peer has as many worker processes, and writes the host's page (checked byte for byte before its rows).`,
  "Varnish: Debian's varnishd, its built-in VCL, in front of the binary. Absolute numbers on a shared machine are noise: read the ratios.",
  "",
  "| What | Server | Requests/s | p50 (ms) | p99 (ms) | Sent as | Peak RSS (MB) | Errors |",
  "|---|---|---:|---:|---:|---|---:|---|",
  ...rows.map(
    (r) =>
      `| ${r.what} | ${r.server} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${sentAs(r.sent)} | ${r.peakRss.toFixed(0)} | ${r.errors || "none"} |`,
  ),
  "",
  `The status page with an upstream taking ${STREAM_UPSTREAM_MS} ms: ${streamed.requests} page views per server, one every ${STREAM_PACE_MS} ms (in ${ROUNDS} turn${ROUNDS > 1 ? "s" : ""}),`,
  "each timed from its request to the first byte of its body, and to its end (the data's markup, then the boot state).",
  "",
  "| Server | Views | First byte p50 (ms) | First byte p99 (ms) | Whole answer p50 (ms) | Whole answer p99 (ms) | Sent as | Failed |",
  "|---|---:|---:|---:|---:|---:|---|---:|",
  ...views.map(
    (v) =>
      `| ${v.who} | ${v.requests} | ${v.firstByte.p50.toFixed(1)} | ${v.firstByte.p99.toFixed(1)} | ${v.whole.p50.toFixed(0)} | ${v.whole.p99.toFixed(0)} | ${v.encoding} | ${v.failed} |`,
  ),
  "",
  `The crowd: ${crowded.requests} visitors ask the status page at once (a person's browser, a session cookie each, each on a connection of its own, \`--max-connections ${MAX_CONNECTIONS}\`),`,
  `the upstream taking ${CROWD_UPSTREAM_MS} ms for each; its shell was made by one visitor before. Meanwhile, from the moment the crowd is sent until ${CROWD_UPSTREAM_MS + 500} ms later,`,
  `a fresh visitor every ${FRESH_EVERY_MS} ms, on a new connection, in turn on each kind of page below. Each is timed from the start of its connection.`,
  "",
  "| Who | Visitors | First byte p50 (ms) | First byte p99 (ms) | Slowest first byte (ms) | Whole answer p50 (ms) | Whole answer p99 (ms) | Wrong or failed |",
  "|---|---:|---:|---:|---:|---:|---:|---:|",
  `| the crowd | ${crowded.requests} | ${fixed(crowded.firstByte.p50, 1)} | ${fixed(crowded.firstByte.p99, 1)} | ${fixed(crowded.firstByte.max, 1)} | ${fixed(crowded.whole.p50, 0)} | ${fixed(crowded.whole.p99, 0)} | ${crowded.requests - crowded.withData} |`,
  ...fresh.map((f) => `| a fresh visitor: ${f.what} | ${f.requests} | ${fixed(f.p50, 1)} | | ${fixed(f.max, 1)} | | | ${f.failed} |`),
  "",
  `The host meanwhile: peak RSS ${megabytes(crowdHost.rss)}; connections open at once, at most, ${crowdHost.connections}; the loading budget held, at most, ${(crowdHost.loadingBytes / 2 ** 20).toFixed(1)} MiB;`,
  `shells kept: ${crowdHost.shellsKept}; pages sent client-rendered (render queue or loading budget full): ${crowdHost.sentClientRendered}; connections the kernel dropped from a full`,
  `accept queue (on this machine; each tried again a second later): ${crowdHost.acceptQueueDrops}. The crowd's client (one Node process) started its visitors ${crowded.perTurn} per turn of its event loop, all within ${ms(crowded.sentWithinMs)}, and lagged up to ${ms(crowded.loopDelayMs.max)} (p99 ${ms(crowded.loopDelayMs.p99)}): what it may have added to a time.`,
  "",
  ...tables(targets),
  "",
];
const table = lines.join("\n");
console.log(table);
// What other scripts write below their marker (bench/catalogue-tsc.mjs's, bench/site/bench.mjs's sections) is kept.
const kept = out && existsSync(out) ? readFileSync(out, "utf8").split(new RegExp(`(?=${SECTION_MARKER.source})`, "m")).slice(1).join("") : "";
if (out) writeFileSync(out, kept ? `${table}\n${kept}` : table);
const failed = missed(targets);
if (failed.length > 0) {
  console.error(`missed gates: ${failed.map((t) => `${t.what}: ${t.show(t.value)} (wanted ${t.wanted})`).join("; ")}`);
  process.exit(1);
}
