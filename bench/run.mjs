// The benchmark: builds the release binary, starts it and the Node peer (our own server
// bundle on `http`, one worker per render thread), drives both with wrk on 127.0.0.1 at
// 64 connections, and prints a markdown table (also written to BENCHMARKS.md).
//   node bench/run.mjs                 full run (10 s per target), writes BENCHMARKS.md
//   node bench/run.mjs --smoke         a short check of the harness itself (CI); writes nothing
//   options: --duration S, --threads N, --no-build, --out FILE
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { requireWrk, rssMb, startServer, stop, wrk } from "./support.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const smoke = flag("--smoke");
const duration = Number(option("--duration", smoke ? "1" : "10"));
const threads = Number(option("--threads", String(os.availableParallelism())));
const out = option("--out", smoke ? null : path.join(root, "BENCHMARKS.md"));
const binary = process.env.BILINGUE_BIN ?? path.join(root, "target/release/bilingue");
const CONNECTIONS = 64;

if (!smoke && !flag("--no-build")) {
  execFileSync("cargo", ["build", "--release"], { cwd: root, stdio: "inherit" });
}
requireWrk();

/** Runs wrk against one URL; samples the server's RSS meanwhile. */
async function load(url, { pid, headers = [] } = {}) {
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, pid ? rssMb(pid) : 0)), 200);
  const headerArgs = headers.flatMap((h) => ["-H", h]);
  const report = await wrk(["-t2", `-c${CONNECTIONS}`, `-d${duration}s`, "--latency", ...headerArgs, url]);
  clearInterval(sampler);
  if (Number.isNaN(report.p99)) throw new Error(`no latency in wrk output:\n${report.text}`);
  const { rps, p50, p99, errors } = report;
  return { rps, p50, p99, errors, peakRss };
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

const bundleDir = mkdtempSync(path.join(os.tmpdir(), "bilingue-bench-"));
execFileSync("node", [path.join(root, "app/build.mjs"), bundleDir], { cwd: root, stdio: "ignore" });

const rows = [];
const row = (what, server, result) => rows.push({ what, server, ...result });
try {
  const host = await startServer(binary, ["--port", "0", "--render-threads", String(threads)]);
  const html = await (await fetch(`${host.baseUrl}/fr/`)).text();
  const asset = html.match(/<script type="module" src="([^"]+)"/)[1];
  const pid = host.child.pid;
  row("French home page", "bilingue (page cache)", await load(`${host.baseUrl}/fr/`, { pid }));
  row("English home page", "bilingue (page cache)", await load(`${host.baseUrl}/en/`, { pid }));
  row("static asset (entry JS, br)", "bilingue", await load(host.baseUrl + asset, { pid, headers: ["Accept-Encoding: br"] }));
  row("/api/status", "bilingue", await load(`${host.baseUrl}/api/status`, { pid }));
  const firstLoad = await firstLoadJs(host.baseUrl);
  await stop(host);

  const uncached = await startServer(binary, ["--port", "0", "--render-threads", String(threads), "--page-cache-entries", "0"]);
  row("French home page", "bilingue (no cache)", await load(`${uncached.baseUrl}/fr/`, { pid: uncached.child.pid }));
  row("English home page", "bilingue (no cache)", await load(`${uncached.baseUrl}/en/`, { pid: uncached.child.pid }));
  await stop(uncached);

  const peer = await startServer("node", [path.join(root, "bench/peer.mjs"), path.join(bundleDir, "server.js"), String(threads)]);
  const peerPids = () => execFileSync("pgrep", ["-f", "bench/peer.mjs"]).toString().trim().split("\n").map(Number);
  const peerRun = async (url) => {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, peerPids().reduce((sum, p) => sum + rssMb(p), 0))), 200);
    const result = await load(url);
    clearInterval(sampler);
    return { ...result, peakRss: peak };
  };
  row("French home page", `Node peer (${threads} workers)`, await peerRun(`${peer.baseUrl}/fr/`));
  row("English home page", `Node peer (${threads} workers)`, await peerRun(`${peer.baseUrl}/en/`));
  await stop(peer);

  const cold = await coldStart();
  const find = (what, server) => rows.find((r) => r.what.startsWith(what) && r.server.startsWith(server));
  const ratio = (a, b) => (a.rps / b.rps).toFixed(2);
  const frNoCache = find("French home page", "bilingue (no cache)");
  const frPeer = find("French home page", "Node peer");
  const frCache = find("French home page", "bilingue (page cache)");
  const assetRow = find("static asset", "bilingue");
  const maxRss = Math.max(...rows.filter((r) => r.server.startsWith("bilingue")).map((r) => r.peakRss));

  const cpu = (readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/) ?? [])[1] ?? "unknown CPU";
  const lines = [
    "# Benchmarks",
    "",
    `Run ${new Date().toISOString()} by \`node bench/run.mjs\`${smoke ? " --smoke" : ""}: wrk, ${CONNECTIONS} connections, ${duration} s per target, on 127.0.0.1.`,
    `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}.`,
    `Render threads: ${threads}; the peer has as many worker processes. Absolute numbers on a shared machine are noise: read the ratios.`,
    "",
    "| What | Server | Requests/s | p50 (ms) | p99 (ms) | Peak RSS (MB) | Errors |",
    "|---|---|---:|---:|---:|---:|---|",
    ...rows.map((r) => `| ${r.what} | ${r.server} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.peakRss.toFixed(0)} | ${r.errors || "none"} |`),
    "",
    "| Headline | Value |",
    "|---|---:|",
    `| SSR without cache ÷ Node peer (French home) | ${ratio(frNoCache, frPeer)}× |`,
    `| SSR with page cache ÷ static asset (same binary) | ${(100 * frCache.rps / assetRow.rps).toFixed(0)}% |`,
    `| Cold start (process start → first 200, median) | ${cold.toFixed(0)} ms |`,
    `| Resident memory under load (bilingue, peak) | ${maxRss.toFixed(0)} MB |`,
    `| Binary size | ${(statSync(binary).size / 1e6).toFixed(1)} MB |`,
    `| First-load JavaScript (gzip -9, ${firstLoad.files} files) | ${(firstLoad.bytes / 1024).toFixed(1)} KiB |`,
    "",
  ];
  const table = lines.join("\n");
  console.log(table);
  if (out) writeFileSync(out, table);
} finally {
  rmSync(bundleDir, { recursive: true, force: true });
}
