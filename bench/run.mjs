// The benchmark: builds the release binary, starts it, Varnish in front of it, and the Node
// peers, drives them with wrk on 127.0.0.1 at 64 keep-alive connections, asking as
// browsers ask (a browser's User-Agent, `Accept-Encoding: gzip, deflate, br`) unless a
// row's name says otherwise, and prints the rows, the streamed pages' first bytes, then
// the gates and the figures (also written to BENCHMARKS.md). A missed gate fails the run.
//   node bench/run.mjs                 full run (10 s per row), writes BENCHMARKS.md
//   node bench/run.mjs --smoke         a short check of the harness and of the gates that
//                                      hold on a 1 s run of any build (CI); writes nothing
//   options: --duration S, --warm-up S, --threads N, --no-build, --out FILE
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
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, brotliDecompressSync, gzipSync } from "node:zlib";
import { buildHeavyBundle } from "./heavy/build.mjs";
import { CRAWLER, PERSON } from "./peers/host-page.mjs";
import { expectHostsPage, expectHostsStreamedPage } from "./peers/same-page.mjs";
import { buildStreamingRender } from "./streaming/build.mjs";
import { atLeast, atMost, below, figure, gate, missed, none, tables } from "./targets.mjs";
import { paced, summarise } from "./ttfb.mjs";
import { startVarnish } from "./varnish.mjs";
import { readOptions, requireWrk, rssMb, startServer, stop, waitReady, wrk } from "./support.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const options = readOptions({
  usage: "node bench/run.mjs [--smoke] [--no-build] [--duration S] [--warm-up S] [--threads N] [--out FILE]",
  flags: ["smoke", "no-build"],
  strings: ["out"],
  numbers: { duration: 1, "warm-up": 0, threads: 1 },
});
const smoke = options.smoke ?? false;
const duration = options.duration ?? (smoke ? 1 : 10);
const warmUp = options["warm-up"] ?? (smoke ? 0 : 3);
const threads = options.threads ?? os.availableParallelism();
const out = options.out ?? (smoke ? null : path.join(root, "BENCHMARKS.md"));
const binary = process.env.BILINGUE_BIN ?? path.join(root, "target/release/bilingue");
const CONNECTIONS = 64;
const ACCEPTED = "gzip, deflate, br";
const BROWSERS = [`Accept-Encoding: ${ACCEPTED}`, `User-Agent: ${PERSON}`];
/** How long the upstream takes beside the home page (many loads in flight at once). */
const SLOW_LOAD_MS = 200;
/** How long the upstream takes for the streamed pages' first bytes (issue 23's case). */
const STREAM_UPSTREAM_MS = smoke ? 800 : 2000;
/** Page views of the streamed page per contender, one every STREAM_PACE_MS, in rounds. */
const STREAM_VIEWS = smoke ? 6 : 150;
const STREAM_PACE_MS = smoke ? 50 : 100;
/** What the upstream's status answers carry: found in a page's markup, its data has come. */
const UPSTREAM_VERSION = "bench-upstream";
/** Turns the contenders take at the head-to-heads. */
const ROUNDS = smoke ? 1 : 3;
const PEER_GZ = `Node peer, compression middleware (${threads} workers)`;
const PEER_PLAIN = `Node peer, no compression (${threads} workers)`;
const PEER_STREAMING = `Node peer, renderToPipeableStream + compression (${threads} workers)`;
const CACHED = "bilingue (page cache)";
const UNCACHED = "bilingue (no cache)";
const VARNISH = "Varnish → bilingue (page cache)";
const TRACED = "bilingue (no cache), tracing to a collector";
const TRACING_ROW = `French home page, tracing off and on${ROUNDS > 1 ? `, median of ${ROUNDS} rounds` : ""}`;

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
  if (warmUpS > 0) await wrk(["-t2", `-c${CONNECTIONS}`, `-d${warmUpS}s`, ...asked, url]);
  const report = await wrk(["-t2", `-c${CONNECTIONS}`, `-d${duration}s`, "--latency", ...asked, url]);
  const rss = peakRss();
  if (Number.isNaN(report.p99)) throw new Error(`no latency in wrk output:\n${report.text}`);
  const { rps, p50, p99, errors, requests } = report;
  return { rps, p50, p99, errors, requests, peakRss: rss };
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

/** An upstream API whose every call takes `delayMs`, answering the same status each time. */
async function slowUpstream(delayMs) {
  const body = JSON.stringify({ version: UPSTREAM_VERSION, languages: ["fr", "en"], serverTime: "2026-01-01T00:00:00.000Z" });
  const server = http.createServer((req, res) => {
    setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(body), delayMs);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
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
  return { ...host, pids: () => [host.child.pid] };
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
  return { ...peer, pids };
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

/** A streamed answer's body, decoded. */
function decoded({ headers, body }) {
  const coding = headers["content-encoding"];
  return coding === "gzip" ? gunzipSync(body) : coding === "br" ? brotliDecompressSync(body) : body;
}

/** Whether the data's markup came in the answer: the upstream's version before the boot state. */
function carriesData(answer) {
  const html = decoded(answer).toString("utf8");
  const at = html.indexOf(`>${UPSTREAM_VERSION}<`);
  return at >= 0 && at < html.indexOf('id="bilingue-boot"');
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
  const peer = await startPeer("bench/streaming/peer.mjs", [streamingRender, host.baseUrl, `${upstream.url}/api`, String(threads), "/fr/status"]);
  try {
    await expectHostsStreamedPage(`${host.baseUrl}/fr/status`, `${peer.baseUrl}/fr/status`);
    const contenders = [
      ["bilingue, streamed (a person)", `${host.baseUrl}/fr/status`, PERSON],
      ["bilingue, whole (a crawler: Googlebot)", `${host.baseUrl}/fr/status`, CRAWLER],
      [PEER_STREAMING, `${peer.baseUrl}/fr/status`, PERSON],
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
      return { who, ...summarise(answers[i]), encoding: ok[0]?.headers["content-encoding"] ?? "identity", withData: ok.filter(carriesData).length };
    });
  } finally {
    await stop(peer);
    await stop(host);
  }
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
/** What Varnish did: its hit share, and how revalidations were answered. */
const checks = { hitShare: NaN, revalidation: "not measured", exports: 0 };
let firstLoad;
const upstreams = [];
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
    row("status page, streamed (built-in API)", "bilingue", "render", await load(`${host.baseUrl}/fr/status`, host), await answer(`${host.baseUrl}/fr/status`));
    firstLoad = await firstLoadJs(host.baseUrl);
    await stop(host);
  }
  {
    const host = await startHost(["--page-cache-entries", "0"]);
    const fr = `${host.baseUrl}/fr/`;
    const peers = await startWholePeers(appBundle, host, ["/fr/", "/en/"]);
    // The head-to-head: this machine's throughput drifts by tens of percent from one
    // minute to the next, so the host and both peers take turns, and each reports its
    // median round.
    const contenders = [
      [UNCACHED, fr, host],
      [PEER_GZ, `${peers[0].baseUrl}/fr/`, peers[0]],
      [PEER_PLAIN, `${peers[1].baseUrl}/fr/`, peers[1]],
    ];
    const rounds = contenders.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, url, target]] of contenders.entries()) rounds[i].push(await load(url, target));
    }
    for (const [i, [name, url]] of contenders.entries()) {
      const byRps = rounds[i].sort((a, b) => a.rps - b.rps);
      row(`French home page${ROUNDS > 1 ? `, median of ${ROUNDS} rounds` : ""}`, name, "render", byRps[Math.floor(ROUNDS / 2)], await answer(url));
    }
    row("English home page", UNCACHED, "render", await load(`${host.baseUrl}/en/`, host), await answer(`${host.baseUrl}/en/`));
    row("English home page", PEER_GZ, "render", await load(`${peers[0].baseUrl}/en/`, peers[0]), await answer(`${peers[0].baseUrl}/en/`));
    const plain = [`User-Agent: ${PERSON}`];
    row("French home page, no `Accept-Encoding`", UNCACHED, "render", await load(fr, { ...host, headers: plain }), await answer(fr, plain));
    // What telling a person from a crawler costs an uncached page: the same request without a User-Agent.
    const noAgent = [`Accept-Encoding: ${ACCEPTED}`];
    row("French home page, no User-Agent", UNCACHED, "render", await load(fr, { ...host, headers: noAgent }), await answer(fr, noAgent));
    for (const peer of peers) await stop(peer);
    await stop(host);
  }
  {
    // What tracing costs an uncached page: every request's spans recorded and exported to a
    // collector that takes them, against the same binary without --otlp-endpoint, in turns.
    const collector = await drainingCollector();
    const plain = await startHost(["--page-cache-entries", "0"]);
    const traced = await startHost(["--page-cache-entries", "0", "--otlp-endpoint", collector.url]);
    const contenders = [
      [UNCACHED, plain],
      [TRACED, traced],
    ];
    const rounds = contenders.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, target]] of contenders.entries()) rounds[i].push(await load(`${target.baseUrl}/fr/`, target));
    }
    for (const [i, [name, target]] of contenders.entries()) {
      const byRps = rounds[i].sort((a, b) => a.rps - b.rps);
      row(TRACING_ROW, name, "render", byRps[Math.floor(ROUNDS / 2)], await answer(`${target.baseUrl}/fr/`));
    }
    checks.exports = collector.exports();
    await stop(plain);
    await stop(traced);
    collector.close();
  }
  {
    const host = await startHost(["--page-cache-entries", "0", "--server-bundle", heavyBundle]);
    const peers = await startWholePeers(heavyBundle, host, ["/fr/"]);
    for (const [name, target] of [[UNCACHED, host], [PEER_GZ, peers[0]], [PEER_PLAIN, peers[1]]]) {
      row("heavy page (French)", name, "render", await load(`${target.baseUrl}/fr/`, target), await answer(`${target.baseUrl}/fr/`));
    }
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
    const upstream = await slowUpstream(SLOW_LOAD_MS);
    upstreams.push(upstream);
    const host = await startHost(["--page-cache-entries", "0", "--api-upstream", upstream.url]);
    const status = `${host.baseUrl}/fr/status`;
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
    const upstream = await slowUpstream(STREAM_UPSTREAM_MS);
    upstreams.push(upstream);
    views.push(...(await streamedFirstBytes(upstream)));
  }
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
const withStreams = (r) => r.what.includes("streamed");
const maxRss = Math.max(...oursOnly.filter((r) => !withStreams(r)).map((r) => r.peakRss));
const maxRssStreaming = Math.max(...oursOnly.filter(withStreams).map((r) => r.peakRss));
const binaryMb = statSync(binary).size / 1e6;
const fastP99 = Math.max(...ours.filter((r) => r.kind === "cached" || r.kind === "asset").map((r) => r.p99));
/** Little's law: 64 connections at this rate wait 64 ÷ rps on average; the worst p99 ÷ that. */
const worstTail = Math.max(...oursOnly.filter((r) => r.kind === "render").map((r) => r.p99 / ((CONNECTIONS * 1000) / r.rps)));
const HEAD_TO_HEAD = `French home page${ROUNDS > 1 ? `, median of ${ROUNDS} rounds` : ""}`;
const alone = find(HEAD_TO_HEAD, UNCACHED);
const besideRow = find(`French home page, beside the ${SLOW_LOAD_MS} ms streamed loads`, UNCACHED);
const beforeRow = find(`French home page, before the ${SLOW_LOAD_MS} ms loads`, UNCACHED);
const heavyOurs = find("heavy page (French)", UNCACHED);
const originCached = find("French home page", CACHED);
const [streamed, , nodeStreamed] = views;
const ratio = (a, b) => a.rps / b.rps;
const times = (v) => `${v.toFixed(2)}×`;
const percent = (v) => `${(100 * v).toFixed(0)}%`;
const share = (v) => `${(100 * v).toFixed(2)}%`;
const ms = (v) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;
const megabytes = (v) => `${v.toFixed(0)} MB`;
const failures = ours.filter((r) => r.errors).map((r) => `${r.what} (${r.server}): ${r.errors}`);
const streamedMisses = views.filter((v) => v.failed > 0 || v.withData < v.requests).map((v) => `${v.who}: ${v.failed} failed, ${v.requests - v.failed - v.withData} without the data`);

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
  gate("Streamed and whole pages that failed or came without their data's markup", streamedMisses, (v) => (v.length === 0 ? "none" : v.join("; ")), none),
  ...(smoke
    ? []
    : [
        gate("Streamed page (a person): time to first byte, median", streamed.firstByte.p50, ms, atMost(50, ms)),
        gate("Binary size", binaryMb, (v) => `${v.toFixed(1)} MB`, atMost(60, (v) => `${v} MB`)),
        gate("Resident memory under load, whole pages (bilingue, peak)", maxRss, megabytes, atMost(120, megabytes)),
        gate(`Resident memory with ${CONNECTIONS} streamed pages in flight (and as many renders beside them; bilingue, peak)`, maxRssStreaming, megabytes, atMost(120, megabytes)),
      ]),
  figure("Uncached home page ÷ compressing Node peer", ratio(alone, find(HEAD_TO_HEAD, PEER_GZ)), times, atLeast(1.5, times)),
  figure("Uncached home page ÷ non-compressing Node peer", ratio(alone, find(HEAD_TO_HEAD, PEER_PLAIN)), times, atLeast(1.2, times)),
  figure("Heavy page ÷ compressing Node peer", ratio(heavyOurs, find("heavy page (French)", PEER_GZ)), times, atLeast(1.3, times)),
  figure("Varnish hit ÷ the origin's page cache (requests/s)", ratio(find("French home page, a hit", VARNISH), originCached), percent, atLeast(1, percent)),
  figure("Cached home page ÷ /api/status (same binary)", ratio(originCached, find("/api/status", "bilingue")), percent, atLeast(0.9, percent)),
  figure("Cached home page: brotli-only client ÷ browsers' header", ratio(find("French home page, `Accept-Encoding: br` only", CACHED), originCached), percent, atLeast(0.9, percent)),
  figure(`Uncached home page beside ${SLOW_LOAD_MS} ms streamed loads ÷ before them (same host)`, ratio(besideRow, beforeRow), percent, atLeast(0.75, percent)),
  figure("Uncached home page: a browser's User-Agent ÷ none (the crawler test's cost)", ratio(find(HEAD_TO_HEAD, UNCACHED), find("French home page, no User-Agent", UNCACHED)), percent, atLeast(0.9, percent)),
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
  ...tables(targets),
  "",
];
const table = lines.join("\n");
console.log(table);
if (out) writeFileSync(out, table);
const failed = missed(targets);
if (failed.length > 0) {
  console.error(`missed gates: ${failed.map((t) => `${t.what}: ${t.show(t.value)} (wanted ${t.wanted})`).join("; ")}`);
  process.exit(1);
}
