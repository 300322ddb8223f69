// The exchange between the server bundle and the host while pages load their data. The
// host calls into V8 (a page to render, answers to deliver); each call leaves an outbox:
// the pages finished, the API calls to make, the lines to log. The host makes the calls
// (its own /api, or the upstream) and delivers the answers, while other pages render on
// the same thread. No timer or I/O runs in V8: everything goes through the host.
import type { RenderResult } from "../boot";

/** An API call the host makes for a page (`job`). */
export interface Fetch {
  id: number;
  job: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

/** What came back: the answer, or why there is none (time-out, refused, unreachable). */
export interface Answer {
  id: number;
  status?: number;
  headers?: [string, string][];
  body?: string;
  error?: string;
  timedOut?: boolean;
}

export type Done = { job: number; result: RenderResult } | { job: number; failed: string };

export interface Log {
  level: "error" | "warn" | "info";
  message: string;
}

const outbox: { done: Done[]; fetches: Fetch[]; logs: Log[] } = { done: [], fetches: [], logs: [] };
const waiting = new Map<number, (answer: Answer) => void>();
let nextFetch = 1;
let loading = 0;

/** The outbox as JSON, emptied; `more` says pages are still loading (more may come). */
export function takeOutbox(): string {
  const taken = JSON.stringify({ ...outbox, more: loading > 0 });
  outbox.done = [];
  outbox.fetches = [];
  outbox.logs = [];
  return taken;
}

/** Asks the host to make an API call for `job`; resolves with its answer. */
export function callHost(job: number, call: Omit<Fetch, "id" | "job">): Promise<Answer> {
  const id = nextFetch++;
  outbox.fetches.push({ id, job, ...call });
  return new Promise((resolve) => waiting.set(id, resolve));
}

/** The host's answers to earlier calls. */
export function deliver(answers: Answer[]): void {
  for (const answer of answers) {
    const resolve = waiting.get(answer.id);
    waiting.delete(answer.id);
    resolve?.(answer);
  }
}

/** Runs `work` for `job` and puts its page (or its failure) in the outbox. */
export function finishLater(job: number, work: Promise<RenderResult>): void {
  loading++;
  work.then(
    (result) => outbox.done.push({ job, result }),
    (error: unknown) => outbox.done.push({ job, failed: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  ).finally(() => loading--);
}

export function finishNow(job: number, result: RenderResult): void {
  outbox.done.push({ job, result });
}

/** The bundle's console, into the host's log (deno_core's own prints to stdout). */
export function routeConsoleToHost(): void {
  const line = (...args: unknown[]) =>
    args.map((arg) => (typeof arg === "string" ? arg : arg instanceof Error ? (arg.stack ?? arg.message) : safeJson(arg))).join(" ");
  const to = (level: Log["level"]) => (...args: unknown[]) => void outbox.logs.push({ level, message: line(...args) });
  const console = globalThis.console as unknown as Record<string, unknown>;
  console.error = to("error");
  console.warn = to("warn");
  console.log = to("info");
  console.info = to("info");
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
