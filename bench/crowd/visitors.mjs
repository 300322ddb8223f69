// A crowd: COUNT visitors ask URL at once, each on a connection of its own from an address
// of its own, each with a session of its own (`Cookie: session=crowd-N`), as a person's
// browser asks. Prints
// "sent" once every request has started, then one JSON line: the first bytes and whole
// answers (ttfb.mjs's summary), how many came with their own visitor's data, the first
// few failures, this process's event-loop delay (what it may have added to a time), and
// its pace: visitors started per turn, and how long it took to start them all.
// Usage: node bench/crowd/visitors.mjs URL COUNT
import { monitorEventLoopDelay } from "node:perf_hooks";
import { PERSON } from "../peers/host-page.mjs";
import { summarise } from "../ttfb.mjs";
import { carriesData } from "../upstream.mjs";
import { visit } from "./visit.mjs";

const [url, countArg] = process.argv.slice(2);
const count = Number(countArg);
if (!url || !Number.isInteger(count) || count < 1) {
  console.error("usage: node bench/crowd/visitors.mjs URL COUNT");
  process.exit(2);
}
/**
 * Visitors started per turn of the event loop: between two turns this process hears the
 * connections made and writes their requests, and reads the answers. A visitor is timed
 * from its connection's start, so what this process has left undone counts against the
 * host: at 100 a turn, a connection the kernel had made at once waited a median 12 ms
 * (p99 40 ms) for its request to be written; at 25, 1.3 ms (p99 23 ms). The crowd comes
 * as fast either way (all 3,000 sent within 585 and 639 ms): each run reports its own.
 */
const BATCH = 25;

const cookieOf = (i) => `session=crowd-${i}`;
/**
 * Each visitor comes from an address of its own, as a crowd of people does (the host lets
 * one address hold a quarter of its loading budget): 127.0.x.y, which loopback takes, for
 * a host on 127.0.0.1; none for another host.
 */
const loopback = new URL(url).hostname === "127.0.0.1";
const addressOf = (i) => (loopback ? `127.${1 + Math.floor(i / 65025)}.${1 + Math.floor(i / 255) % 255}.${1 + (i % 255)}` : undefined);
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
const visits = [];
const sending = performance.now();
for (let i = 0; i < count; i++) {
  visits.push(visit(url, { "Accept-Encoding": "gzip, deflate, br", "User-Agent": PERSON, Cookie: cookieOf(i) }, addressOf(i)));
  if ((i + 1) % BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
}
const sentWithinMs = performance.now() - sending;
console.log("sent");
const settled = await Promise.allSettled(visits);
loopDelay.disable();
const answers = settled.map((s) => (s.status === "fulfilled" ? s.value : { error: s.reason.code ?? s.reason.message }));
const ok = answers.map((a, i) => ({ a, i })).filter(({ a }) => !a.error && a.status === 200);
const withData = ok.filter(({ a, i }) => carriesData(a, cookieOf(i))).length;
const failures = answers.filter((a) => a.error || a.status !== 200).map((a) => a.error ?? `status ${a.status}`);
const loopDelayMs = { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
console.log(JSON.stringify({ ...summarise(answers), withData, failures: [...new Set(failures)].slice(0, 5), loopDelayMs, perTurn: BATCH, sentWithinMs }));
