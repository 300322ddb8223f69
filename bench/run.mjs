// The benchmark: builds the release binary, starts it and the Node peers (our own server
// bundle on `http`, one worker per render thread, writing the host's document with the
// host's headers; one peer compresses with the npm `compression` middleware and its
// defaults, as Node users do, the other does not), drives
// them with wrk on 127.0.0.1 at 64 keep-alive connections, asking as browsers ask
// (`Accept-Encoding: gzip, deflate, br`) unless a row's name says otherwise, and prints
// two markdown tables, the rows and the targets (also written to BENCHMARKS.md).
//   node bench/run.mjs                 full run (10 s per row), writes BENCHMARKS.md
//   node bench/run.mjs --smoke         a short check of the harness itself (CI); writes nothing
//   options: --duration S, --warm-up S, --threads N, --no-build, --out FILE
// Every row is measured after a warm-up of the same load (3 s; none in --smoke): a row
// then reads a server in its steady state, with caches filled and V8's code optimised.
// The heavy page is a bench-only screen (bench/heavy/) rendered by the binary with
// `--server-bundle` and by the peers from the same bundle.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildHeavyBundle } from "./heavy/build.mjs";
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
const BROWSERS = "Accept-Encoding: gzip, deflate, br";
const UPSTREAM_DELAY_MS = 200;
/** Turns the host and the peers take at the head-to-head (the uncached home page). */
const ROUNDS = smoke ? 1 : 3;
const PEER_GZ = `Node peer, compression middleware (${threads} workers)`;
const PEER_PLAIN = `Node peer, no compression (${threads} workers)`;

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
async function load(url, { pids = () => [], headers = [BROWSERS], warmUpS = warmUp } = {}) {
  const peakRss = sampleRss(pids);
  const asked = headers.flatMap((h) => ["-H", h]);
  if (warmUpS > 0) await wrk(["-t2", `-c${CONNECTIONS}`, `-d${warmUpS}s`, ...asked, url]);
  const report = await wrk(["-t2", `-c${CONNECTIONS}`, `-d${duration}s`, "--latency", ...asked, url]);
  const rss = peakRss();
  if (Number.isNaN(report.p99)) throw new Error(`no latency in wrk output:\n${report.text}`);
  const { rps, p50, p99, errors, requests } = report;
  return { rps, p50, p99, errors, requests, peakRss: rss };
}

/** What a URL answers with the browsers' header: its Content-Encoding and size. */
async function answer(url, headers = { "accept-encoding": "gzip, deflate, br" }) {
  const response = await new Promise((resolve, reject) =>
    http.get(url, { headers }, (res) => {
      let bytes = 0;
      res.on("data", (d) => (bytes += d.length));
      res.on("end", () => resolve({ encoding: res.headers["content-encoding"] ?? "identity", bytes }));
    }).on("error", reject),
  );
  return response;
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

/** Gzip bytes of the JavaScript the home page makes the browser fetch before it hydrates. */
async function firstLoadJs(baseUrl) {
  const html = await (await fetch(`${baseUrl}/fr/`)).text();
  const urls = [...html.matchAll(/<(?:link rel="modulepreload" href|script type="module" src)="([^"]+)"/g)].map((m) => m[1]);
  let total = 0;
  for (const url of urls) total += gzipSync(Buffer.from(await (await fetch(baseUrl + url)).arrayBuffer()), { level: 9 }).length;
  return { bytes: total, files: urls.length };
}

/** An upstream API whose every call takes UPSTREAM_DELAY_MS: the slow-upstream rows. */
async function slowUpstream() {
  const server = http.createServer((req, res) => {
    setTimeout(() => {
      const body = JSON.stringify({ version: "upstream", languages: ["fr", "en"], serverTime: new Date().toISOString() });
      res.writeHead(200, { "content-type": "application/json" }).end(body);
    }, UPSTREAM_DELAY_MS);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

async function startHost(extra = []) {
  const host = await startServer(binary, ["--port", "0", "--render-threads", String(threads), ...extra]);
  await waitReady(host.baseUrl);
  return { ...host, pids: () => [host.child.pid] };
}

async function startPeer(bundle, compress) {
  const manifest = path.join(path.dirname(appBundle), "manifest.json");
  const peerArgs = [bundle, manifest, String(threads), compress ? "compress" : "plain"];
  const peer = await startServer("node", [path.join(root, "bench/peer.mjs"), ...peerArgs]);
  const pids = () => {
    try {
      return execFileSync("pgrep", ["-f", `bench/peer.mjs ${peerArgs.join(" ")}`]).toString().trim().split("\n").map(Number);
    } catch {
      return [];
    }
  };
  return { ...peer, pids };
}

/**
 * The peers must write the page the host writes, or the comparison is not fair: the same
 * document and headers, but for what differs by design (the nonce, the port, the build's
 * content hashes and the build time the markup shows).
 */
async function sameDocument(hostUrl, peerUrl) {
  const read = async (url) => {
    const response = await fetch(url);
    const headers = [...response.headers.keys()].filter((name) => !["date", "connection", "keep-alive", "content-length"].includes(name));
    const text = (await response.text())
      .replace(/[0-9a-f]{32}/g, "NONCE")
      .replace(/localhost:\d+/g, "localhost:PORT")
      .replace(/-[A-Z0-9]{8}\.(js|css|svg)/g, ".$1")
      .replace(/<div id="app">.*<\/div>/s, "<div id=\"app\">…</div>");
    return { headers: headers.sort().join(", "), text };
  };
  const [ours, theirs] = [await read(hostUrl), await read(peerUrl)];
  for (const part of ["headers", "text"]) {
    if (ours[part] !== theirs[part]) {
      throw new Error(`the peer does not write the host's page (${part}):\n${ours[part]}\n---\n${theirs[part]}`);
    }
  }
}

const work = mkdtempSync(path.join(os.tmpdir(), "bilingue-bench-"));
const appBundle = path.join(work, "app", "server.js");
const heavyBundle = path.join(work, "heavy", "server.js");
execFileSync("node", [path.join(root, "app/build.mjs"), path.dirname(appBundle)], { cwd: root, stdio: "ignore" });
await buildHeavyBundle(heavyBundle);

const rows = [];
/** One row: `kind` says which latency bound applies (cached, asset, render, waiting). */
const row = (what, server, kind, result, sent) => rows.push({ what, server, kind, sent, ...result });
const find = (what, server) => {
  const found = rows.find((r) => r.what === what && r.server === server);
  if (!found) throw new Error(`no row "${what}" / "${server}"`);
  return found;
};
const upstream = await slowUpstream();
let firstLoad;
try {
  {
    const host = await startHost();
    const html = await (await fetch(`${host.baseUrl}/fr/`)).text();
    const asset = host.baseUrl + html.match(/<script type="module" src="([^"]+)"/)[1];
    const fr = `${host.baseUrl}/fr/`;
    const server = "bilingue (page cache)";
    row("French home page", server, "cached", await load(fr, host), await answer(fr));
    row("English home page", server, "cached", await load(`${host.baseUrl}/en/`, host), await answer(`${host.baseUrl}/en/`));
    row("French home page, `Accept-Encoding: br` only", server, "cached", await load(fr, { ...host, headers: ["Accept-Encoding: br"] }), await answer(fr, { "accept-encoding": "br" }));
    row("static asset (entry JS)", "bilingue", "asset", await load(asset, host), await answer(asset));
    row("/api/status", "bilingue", "cached", await load(`${host.baseUrl}/api/status`, host), await answer(`${host.baseUrl}/api/status`));
    row("status page (built-in API)", "bilingue", "render", await load(`${host.baseUrl}/fr/status`, host), await answer(`${host.baseUrl}/fr/status`));
    firstLoad = await firstLoadJs(host.baseUrl);
    await stop(host);
  }
  {
    const host = await startHost(["--page-cache-entries", "0"]);
    const server = "bilingue (no cache)";
    const fr = `${host.baseUrl}/fr/`;
    // The head-to-head: this machine's throughput drifts by tens of percent from one
    // minute to the next, so the host and both peers take turns, and each reports its
    // median round.
    const peers = [await startPeer(appBundle, true), await startPeer(appBundle, false)];
    await sameDocument(fr, `${peers[1].baseUrl}/fr/`);
    const contenders = [
      [server, fr, host],
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
    for (const peer of peers) await stop(peer);
    row("English home page", server, "render", await load(`${host.baseUrl}/en/`, host), await answer(`${host.baseUrl}/en/`));
    row("French home page, no `Accept-Encoding`", server, "render", await load(fr, { ...host, headers: [] }), await answer(fr, {}));
    await stop(host);
  }
  {
    const host = await startHost(["--page-cache-entries", "0", "--server-bundle", heavyBundle]);
    const url = `${host.baseUrl}/fr/`;
    row("heavy page (French)", "bilingue (no cache)", "render", await load(url, host), await answer(url));
    await stop(host);
    const cached = await startHost(["--server-bundle", heavyBundle]);
    row("heavy page (French)", "bilingue (page cache)", "cached", await load(`${cached.baseUrl}/fr/`, cached), await answer(`${cached.baseUrl}/fr/`));
    await stop(cached);
  }
  {
    // Loads that wait 200 ms on the upstream, and beside them the home page: the render
    // threads must keep rendering while the data is in flight. The home page is measured
    // first on the same process, so that the ratio compares one host with itself.
    const host = await startHost(["--page-cache-entries", "0", "--api-upstream", upstream.url]);
    const status = `${host.baseUrl}/fr/status`;
    const home = `${host.baseUrl}/fr/`;
    row(`French home page, before the ${UPSTREAM_DELAY_MS} ms loads`, "bilingue (no cache)", "render", await load(home, host), await answer(home));
    // The loads warm up first, so that the home page is measured beside their steady
    // state, not beside V8 still compiling the status page; both windows are the same.
    const later = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const [waiting, beside] = await Promise.all([
      load(status, { ...host, warmUpS: 2 * warmUp }),
      later(warmUp).then(() => load(home, host)),
    ]);
    row(`status page, upstream taking ${UPSTREAM_DELAY_MS} ms`, "bilingue (no cache)", "waiting", waiting, await answer(status));
    row(`French home page, beside the ${UPSTREAM_DELAY_MS} ms loads`, "bilingue (no cache)", "render", beside, await answer(home));
    await stop(host);
  }
  for (const compress of [true, false]) {
    const server = compress ? PEER_GZ : PEER_PLAIN;
    for (const [what, bundle, paths] of [
      ["English home page", appBundle, compress ? ["/en/"] : []],
      ["heavy page (French)", heavyBundle, ["/fr/"]],
    ]) {
      for (const p of paths) {
        const peer = await startPeer(bundle, compress);
        row(what, server, "render", await load(peer.baseUrl + p, peer), await answer(peer.baseUrl + p));
        await stop(peer);
      }
    }
  }
} finally {
  upstream.close();
}
const cold = await coldStart();
rmSync(work, { recursive: true, force: true });

const ours = rows.filter((r) => r.server.startsWith("bilingue"));
const maxRss = Math.max(...ours.map((r) => r.peakRss));
const binaryMb = statSync(binary).size / 1e6;
const fastP99 = Math.max(...ours.filter((r) => r.kind === "cached" || r.kind === "asset").map((r) => r.p99));
/** Little's law: 64 connections at this rate wait 64 ÷ rps on average; p99 within twice that. */
const starving = ours.filter((r) => r.kind === "render" && r.p99 > (2 * CONNECTIONS * 1000) / r.rps);
const HEAD_TO_HEAD = `French home page${ROUNDS > 1 ? `, median of ${ROUNDS} rounds` : ""}`;
const alone = find(HEAD_TO_HEAD, "bilingue (no cache)");
const besideRow = find(`French home page, beside the ${UPSTREAM_DELAY_MS} ms loads`, "bilingue (no cache)");
const beforeRow = find(`French home page, before the ${UPSTREAM_DELAY_MS} ms loads`, "bilingue (no cache)");
const heavyOurs = find("heavy page (French)", "bilingue (no cache)");
const ratio = (a, b) => a.rps / b.rps;
const times = (v) => `${v.toFixed(2)}×`;
const percent = (v) => `${(100 * v).toFixed(0)}%`;
const atLeast = (bound, show) => ({ ok: (v) => v >= bound, wanted: `≥ ${show(bound)}` });
const atMost = (bound, show) => ({ ok: (v) => v <= bound, wanted: `≤ ${show(bound)}` });
const targets = [
  ["Uncached home page ÷ compressing Node peer", ratio(alone, find(HEAD_TO_HEAD, PEER_GZ)), times, atLeast(1.5, times)],
  ["Uncached home page ÷ non-compressing Node peer", ratio(alone, find(HEAD_TO_HEAD, PEER_PLAIN)), times, atLeast(1.2, times)],
  ["Heavy page ÷ compressing Node peer", ratio(heavyOurs, find("heavy page (French)", PEER_GZ)), times, atLeast(1.3, times)],
  ["Cached home page ÷ /api/status (same binary)", ratio(find("French home page", "bilingue (page cache)"), find("/api/status", "bilingue")), percent, atLeast(0.9, percent)],
  ["Cached home page: brotli-only client ÷ browsers' header", ratio(find("French home page, `Accept-Encoding: br` only", "bilingue (page cache)"), find("French home page", "bilingue (page cache)")), percent, atLeast(0.9, percent)],
  [`Uncached home page beside ${UPSTREAM_DELAY_MS} ms loads ÷ before them (same host)`, ratio(besideRow, beforeRow), percent, atLeast(0.75, percent)],
  ["p99 of cached pages and assets (worst row)", fastP99, (v) => `${v.toFixed(2)} ms`, atMost(5, (v) => `${v} ms`)],
  ["Uncached rows whose p99 exceeds 2 × 64 ÷ rps", starving.length, () => (starving.length === 0 ? "none" : starving.map((r) => `${r.what} (${r.server})`).join(", ")), { ok: (v) => v === 0, wanted: "none" }],
  ["Binary size", binaryMb, (v) => `${v.toFixed(1)} MB`, atMost(60, (v) => `${v} MB`)],
  [`First-load JavaScript (gzip -9, ${firstLoad.files} files)`, firstLoad.bytes / 1000, (v) => `${v.toFixed(1)} KB`, atMost(80, (v) => `${v} KB`)],
  ["Cold start (process start → first 200, median)", cold, (v) => `${v.toFixed(0)} ms`, atMost(100, (v) => `${v} ms`)],
  ["Resident memory under load (bilingue, peak)", maxRss, (v) => `${v.toFixed(0)} MB`, atMost(120, (v) => `${v} MB`)],
];

const cpu = (readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/) ?? [])[1] ?? "unknown CPU";
const lines = [
  "# Benchmarks",
  "",
  `Run ${new Date().toISOString()} by \`node bench/run.mjs\`${smoke ? " --smoke" : ""}: wrk, ${CONNECTIONS} keep-alive connections, ${duration} s per row after ${warmUp} s of warm-up, on 127.0.0.1,`,
  `every request with \`${BROWSERS}\` unless its row says otherwise.`,
  `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}.`,
  `Render threads: ${threads}; each peer has as many worker processes. Absolute numbers on a shared machine are noise: read the ratios.`,
  "",
  "| What | Server | Requests/s | p50 (ms) | p99 (ms) | Sent as | Peak RSS (MB) | Errors |",
  "|---|---|---:|---:|---:|---|---:|---|",
  ...rows.map(
    (r) =>
      `| ${r.what} | ${r.server} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.sent.encoding}, ${(r.sent.bytes / 1000).toFixed(1)} KB | ${r.peakRss.toFixed(0)} | ${r.errors || "none"} |`,
  ),
  "",
  "| Target | Measured | Wanted | |",
  "|---|---:|---:|---|",
  ...targets.map(([what, value, show, { ok, wanted }]) => `| ${what} | ${show(value)} | ${wanted} | ${ok(value) ? "met" : "**missed**"} |`),
  "",
];
const table = lines.join("\n");
console.log(table);
if (out) writeFileSync(out, table);
// The peers' errors (time-outs under load) are theirs to report, in the table; ours fail the run.
const failed = ours.filter((r) => r.errors);
if (failed.length > 0) {
  console.error(`rows with errors: ${failed.map((r) => `${r.what} (${r.server}): ${r.errors}`).join("; ")}`);
  process.exit(1);
}
