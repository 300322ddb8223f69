// The crowd (issue 36): VISITORS people stream the status page at once, each with a session
// of their own, behind an upstream that takes DELAY ms for each of them; meanwhile fresh
// visitors ask a cached page, an uncached page and a 404 on new connections. The crowd and
// the fresh visitors run in processes of their own (bench/crowd/visitors.mjs, fresh.mjs),
// so that neither's event loop times the other's answers; the upstream stays here. The
// host's memory and its metrics (connections open, the loading budget held, shells kept)
// are sampled all along; what explains a slow or empty page is counted: connections the
// kernel dropped from a full accept queue, pages the host sent client-rendered.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CRAWLER, PERSON } from "../peers/host-page.mjs";
import { printed, rssMb, stop } from "../support.mjs";
import { startUpstream } from "../upstream.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
/** Connections the host may hold: the crowd, the fresh visitors and room to spare. */
export const MAX_CONNECTIONS = 4096;
/** Descriptors this process and the crowd's each need beyond one per visitor. */
const SPARE_DESCRIPTORS = 512;

/** The soft limit on open files this process was given (what its children inherit). */
function openFilesLimit() {
  return new Promise((resolve, reject) => {
    const shell = spawn("sh", ["-c", "ulimit -Sn"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    shell.stdout.on("data", (d) => (out += d));
    // Once its output is read whole ("close"; at "exit" it may still be in the pipe).
    shell.on("close", () => resolve(out.trim() === "unlimited" ? Infinity : Number(out)));
    shell.on("error", reject);
  });
}

/** Runs a script of this folder; `onLine` sees each line it prints; resolves with its last line, read as JSON. */
function runClient(script, args, onLine = () => {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, script), ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      const lines = (out + d).split("\n");
      out = lines.pop();
      for (const line of lines) {
        onLine(line);
        if (line.startsWith("{") || line.startsWith("[")) child.result = line;
      }
    });
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => (code === 0 && child.result ? resolve(JSON.parse(child.result)) : reject(new Error(`${script} exited with ${code}: ${err}`))));
  });
}

/**
 * Connections the kernel dropped because a listening socket's accept queue was full, on
 * this machine so far (each is tried again by its client a second later).
 */
function acceptQueueDrops() {
  const [names, values] = readFileSync("/proc/net/netstat", "utf8").split("\n").filter((line) => line.startsWith("TcpExt:"));
  const at = names.split(/\s+/).indexOf("ListenOverflows");
  return at < 0 ? NaN : Number(values.split(/\s+/)[at]);
}

/** What the host logs for each page it sends client-rendered because its queue or its loading budget is full. */
const BUSY = /render queue full/g;

/** Reads the host's /metrics: each sample's value by name. */
async function metricsOf(metricsUrl) {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  return Object.fromEntries(text.split("\n").filter((line) => line && !line.startsWith("#")).map((line) => line.split(" ")).map(([name, value]) => [name, Number(value)]));
}

/** Samples the host's RSS and metrics every 100 ms until stopped; their peaks and last values. */
function sampleHost(pid, metricsUrl) {
  const seen = { rss: 0, connections: 0, loadingBytes: 0, shellsKept: 0 };
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(async () => {
      seen.rss = Math.max(seen.rss, rssMb(pid));
      const metrics = await metricsOf(metricsUrl).catch(() => ({}));
      seen.connections = Math.max(seen.connections, metrics.bilingue_open_connections ?? 0);
      seen.loadingBytes = Math.max(seen.loadingBytes, metrics.bilingue_loading_bytes ?? 0);
      seen.shellsKept = metrics.bilingue_shells_kept ?? seen.shellsKept;
    });
  }, 100);
  return async () => {
    clearInterval(timer);
    await sampling;
    return seen;
  };
}

/**
 * The crowd on a host started by `startHost(extraArgs)`: `visitors` at once, the upstream
 * taking `delayMs` for each; fresh visitors every `everyMs` from the moment the crowd is
 * sent until `delayMs` + 500 ms later (the data's answers and the resumes included).
 */
export async function measureCrowd({ startHost, visitors, delayMs, everyMs }) {
  const limit = await openFilesLimit();
  if (limit < visitors + SPARE_DESCRIPTORS) {
    throw new Error(`the crowd of ${visitors} needs ${visitors + SPARE_DESCRIPTORS} open files in this process and in its client, but the limit is ${limit}: raise it (ulimit -n ${2 * visitors + SPARE_DESCRIPTORS}) and run again`);
  }
  // A fresh visitor's uncached page has its data at once; the crowd's each take delayMs.
  const upstream = await startUpstream(delayMs, { delayFor: (session) => (session?.startsWith("fresh-") ? 0 : undefined) });
  const host = await startHost(["--api-upstream", upstream.url, "--max-connections", String(MAX_CONNECTIONS), "--metrics-bind", "127.0.0.1:0"]);
  try {
    const [, metricsUrl] = await printed(host, /metrics on (http:\/\/\S+)/);
    // The host's steady state: the home page kept, the status page's shell made (by its
    // first visitor), a crawler's status page rendered once.
    const browser = { "accept-encoding": "gzip, deflate, br", "user-agent": PERSON };
    await (await fetch(`${host.baseUrl}/fr/`, { headers: browser })).arrayBuffer();
    await (await fetch(`${host.baseUrl}/fr/etat`, { headers: { ...browser, cookie: "session=warm" } })).arrayBuffer();
    await (await fetch(`${host.baseUrl}/fr/etat`, { headers: { ...browser, "user-agent": CRAWLER, cookie: "session=fresh-warm" } })).arrayBuffer();
    const [dropsBefore, busyBefore] = [acceptQueueDrops(), host.stderr.match(BUSY)?.length ?? 0];
    const sampled = sampleHost(host.child.pid, metricsUrl);
    let fresh = Promise.reject(new Error("the crowd's client never said it had sent its requests"));
    fresh.catch(() => {});
    const crowd = runClient("visitors.mjs", [`${host.baseUrl}/fr/etat`, String(visitors)], (line) => {
      if (line === "sent") fresh = runClient("fresh.mjs", [host.baseUrl, String(delayMs + 500), String(everyMs)]);
    });
    // Both settled before either's failure is told, so that no client outlives the host.
    const [crowdSettled, freshSettled] = await Promise.allSettled([crowd, crowd.then(() => fresh, () => fresh)]);
    const seen = await sampled();
    seen.acceptQueueDrops = acceptQueueDrops() - dropsBefore;
    seen.sentClientRendered = (host.stderr.match(BUSY)?.length ?? 0) - busyBefore;
    for (const settled of [crowdSettled, freshSettled]) if (settled.status === "rejected") throw settled.reason;
    return { crowd: crowdSettled.value, fresh: freshSettled.value, host: seen };
  } finally {
    await stop(host);
    upstream.close();
  }
}
