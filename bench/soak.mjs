// The soak: the release binary under wrk at saturation for 60 s on a mix of requests, with
// the page cache off so every page is rendered in V8, after a warm-up of the same load (V8
// sizes its heaps up over the first seconds: memory is judged from then on); then a second
// load during which the host gets SIGTERM. It checks that no request failed, that memory
// stayed flat, and that the drain lost nothing and ended with exit code 0; prints a report
// (also written to SOAK.md).
//   node bench/soak.mjs             the full soak (10 s of warm-up, 60 s, then SIGTERM after 5 s of a second load)
//   node bench/soak.mjs --smoke     a short one (CI): 2 s of warm-up, 3 s, then SIGTERM after 1.5 s
//   options: --duration S, --out FILE
// Exits 1 when a check fails.
import { writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PERSON } from "./peers/host-page.mjs";
import { readOptions, requireWrk, rssMb, startServer, targetDir, wrk } from "./support.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const options = readOptions({
  usage: "node bench/soak.mjs [--smoke] [--duration S] [--out FILE]",
  flags: ["smoke"],
  strings: ["out"],
  numbers: { duration: 1 },
});
const smoke = options.smoke ?? false;
const duration = options.duration ?? (smoke ? 3 : 60);
const warmUp = smoke ? 2 : 10;
const signalAt = smoke ? 1.5 : 5;
const out = options.out ?? (smoke ? null : path.join(root, "SOAK.md"));
const binary = process.env.BILINGUE_BIN ?? path.join(targetDir(root), "release/bilingue");
const CONNECTIONS = 64;
const DRAIN_DELAY = "2s";
/** RSS may grow by this share between the first sample under load and the last. */
const FLAT = 0.15;

requireWrk();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const host = await startServer(binary, [
  "--port", "0", "--page-cache-entries", "0", "--drain-delay", DRAIN_DELAY, "--drain-timeout", "10s",
]);
const pid = host.child.pid;
const html = await (await fetch(`${host.baseUrl}/fr/`)).text();
const asset = html.match(/type:"module",src:"([^"]+)"/)[1];
// The pages are rendered each time (the status page streamed, its data from the built-in
// API); an unprefixed URL is the way to the prefixed page. Each path, with its answer.
const answers = new Map([["/fr/", 200], ["/en/", 200], ["/", 302], ["/api/status", 200], [asset, 200], ["/fr/etat", 200]]);
const mix = [...answers.keys()];
const script = path.join(os.tmpdir(), `bilingue-soak-${process.pid}.lua`);
writeFileSync(
  script,
  `wrk.headers["Accept-Encoding"] = "gzip, deflate, br"
wrk.headers["User-Agent"] = ${JSON.stringify(PERSON)}
local paths = { ${mix.map((p) => JSON.stringify(p)).join(", ")} }
local i = 0
request = function()
  i = i + 1
  return wrk.format(nil, paths[(i % #paths) + 1])
end
`,
);
const load = (seconds) =>
  wrk(["-t2", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "--timeout", "5s", "-s", script, host.baseUrl]);

// 1. Saturation, after the warm-up: RSS sampled every second.
const rssIdle = rssMb(pid);
const warm = await load(warmUp);
const rssWarm = rssMb(pid);
const samples = [];
const sampler = setInterval(() => samples.push(rssMb(pid)), 1000);
const soak = await load(duration);
clearInterval(sampler);
const rssFirst = samples[0] ?? rssIdle;
const rssLast = samples.at(-1) ?? rssIdle;
const rssPeak = Math.max(...samples, rssIdle);

// 2. SIGTERM under load, as behind a load balancer: Kubernetes takes the pod out of the
// Service when it sends SIGTERM, so no new connection comes; the clients' open keep-alive
// connections go on sending until an answer says `Connection: close`. wrk cannot play that
// part (it reconnects at once, and counts a refused connect as a write error), so a small
// closed-loop client does, counting every request it sent and every answer it got.
const exited = new Promise((resolve) => host.child.once("exit", (code) => resolve({ code, at: performance.now() })));
const drain = { sent: 0, answered: 0, lost: 0, errors: new Map(), retired: 0, signalled: false };
const countError = (what) => drain.errors.set(what, (drain.errors.get(what) ?? 0) + 1);
async function client(worker) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = worker; ; i++) {
    drain.sent++;
    try {
      const { status, close } = await get(`${host.baseUrl}${mix[i % mix.length]}`, agent);
      drain.answered++;
      const path = mix[i % mix.length];
      if (status !== answers.get(path)) countError(`${path}: status ${status}`);
      if (close && drain.signalled) break;
    } catch (error) {
      drain.lost++;
      countError(error.code ?? error.message);
      if (drain.signalled) break;
    }
  }
  drain.retired++;
  agent.destroy();
}
/** Polls /readyz until it is not 200, for at most `withinMs`: its last answer. */
async function readinessFails(withinMs) {
  const until = performance.now() + withinMs;
  for (;;) {
    const status = await fetch(`${host.baseUrl}/readyz`).then((r) => r.status, () => "refused");
    if (status !== 200 || performance.now() > until) return status;
    await sleep(20);
  }
}
function get(url, agent) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, timeout: 10000 }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode, close: response.headers.connection === "close" }));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", reject);
  });
}
const clients = Array.from({ length: CONNECTIONS }, (_, worker) => client(worker));
await sleep(signalAt * 1000);
const answeredBeforeSignal = drain.answered;
const signalled = performance.now();
drain.signalled = true;
host.child.kill("SIGTERM");
// The signal reaches the host's loop a moment later: readiness must fail within the drain
// delay, while the host still answers.
const readyDuringDrain = await readinessFails(1000);
await Promise.all(clients);
const lastAnswerMs = performance.now() - signalled;
const exit = await exited;
const drainedMs = exit.at - signalled;
const drainLog = host.stderr.match(/drained[^\n]*|drain deadline passed[^\n]*/)?.[0] ?? "(no drain line in the log)";
const drainErrors = [...drain.errors].map(([what, n]) => `${what}: ${n}`).join(", ");
const lost = drain.lost + [...drain.errors].filter(([what]) => what.includes("status")).reduce((sum, [, n]) => sum + n, 0);

const checks = [
  [
    `zero failed requests in the warm-up and the soak`,
    [warm, soak].every((run) => run.non2xx === 0 && Object.values(run.socket).every((n) => n === 0)),
    [warm.errors, soak.errors].filter(Boolean).join("; ") || "none",
  ],
  [
    `memory flat (last ≤ first of the soak × ${1 + FLAT})`,
    rssLast <= rssFirst * (1 + FLAT),
    `${rssFirst.toFixed(1)} → ${rssLast.toFixed(1)} MB`,
  ],
  [`readiness fails within 1 s of SIGTERM`, readyDuringDrain === 503, String(readyDuringDrain)],
  [
    `no request lost to SIGTERM (every request sent got its answer)`,
    lost === 0 && drain.sent === drain.answered,
    `${drain.sent} sent, ${drain.answered} answered${drainErrors ? `; ${drainErrors}` : ""}`,
  ],
  [`exit code 0 after the drain`, exit.code === 0, String(exit.code)],
];

const lines = [
  "# Soak",
  "",
  `Run ${new Date().toISOString()} by \`node bench/soak.mjs\`${smoke ? " --smoke" : ""} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}.`,
  `wrk, ${CONNECTIONS} connections, page cache off (every page rendered in V8), default render threads; the mix: ${mix.join(", ")}, as a browser asks (\`Accept-Encoding: gzip, deflate, br\`, a browser's User-Agent).`,
  "",
  "| Phase | Value |",
  "|---|---:|",
  `| Soak: requests served in ${duration} s | ${soak.requests} |`,
  `| Soak: requests/s | ${soak.rps.toFixed(0)} |`,
  `| Soak: p50 / p99 latency | ${soak.p50.toFixed(2)} / ${soak.p99.toFixed(2)} ms |`,
  `| Soak: failed requests | ${soak.non2xx + Object.values(soak.socket).reduce((a, b) => a + b, 0)} |`,
  `| RSS idle after start-up / after ${warmUp} s of warm-up | ${rssIdle.toFixed(1)} / ${rssWarm.toFixed(1)} MB |`,
  `| RSS at 1 s of the soak / at the end / peak | ${rssFirst.toFixed(1)} / ${rssLast.toFixed(1)} / ${rssPeak.toFixed(1)} MB |`,
  `| RSS every 10 s of the soak (MB) | ${samples.filter((_, i) => i % 10 === 0 || i === samples.length - 1).map((mb) => mb.toFixed(1)).join(", ")} |`,
  `| Drain: requests answered (${CONNECTIONS} keep-alive clients, SIGTERM after ${signalAt} s, drain delay ${DRAIN_DELAY}) | ${drain.answered} (${drain.answered - answeredBeforeSignal} after the signal) |`,
  `| Drain: requests lost | ${lost} |`,
  `| Drain: SIGTERM → last answer / process exit | ${lastAnswerMs.toFixed(0)} / ${drainedMs.toFixed(0)} ms |`,
  `| Drain: the host's last line | ${drainLog.replace(/\|/g, "\\|")} |`,
  "",
  "| Check | Result | Seen |",
  "|---|---|---|",
  ...checks.map(([what, ok, seen]) => `| ${what} | ${ok ? "pass" : "**FAIL**"} | ${seen} |`),
  "",
];
const report = lines.join("\n");
console.log(report);
if (out) writeFileSync(out, report);
if (checks.some(([, ok]) => !ok)) process.exit(1);
