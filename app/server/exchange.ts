// The exchange between the server bundle and the host while pages load their data. The
// host calls into V8 (a page to render, answers to deliver); each call leaves an outbox:
// the pages finished, the API calls to make, the lines to log. The host makes the calls
// (its own /api, or the upstream) and delivers the answers, while other pages render on
// the same thread. No timer or I/O runs in V8: everything goes through the host.
import type { Answer, Done, Fetch, Log, RenderResult, Shell, StreamEnd, StreamHead, StreamPart } from "../contract";

export type { Answer, Done, Fetch, Log } from "../contract";

const outbox: { done: Done[]; parts: StreamPart[]; fetches: Fetch[]; logs: Log[] } = { done: [], parts: [], fetches: [], logs: [] };
const waiting = new Map<number, (answer: Answer) => void>();
/** How to stop each page being streamed, should its client go away. */
const cancels = new Map<number, () => void>();
let nextFetch = 1;
let loading = 0;

/**
 * The outbox as JSON, emptied whatever happens; `more` says pages are still loading (more
 * may come). Each entry is written alone: one that cannot be written (data too deep for
 * JSON.stringify, say) becomes its own page's failure, and leaves every other page and the
 * exchange itself untouched. Strings are well-formed UTF-16 on the way out, so the host's
 * JSON reader never meets a lone surrogate's escape.
 */
export function takeOutbox(): string {
  const { done, parts, fetches, logs } = outbox;
  outbox.done = [];
  outbox.parts = [];
  outbox.fetches = [];
  outbox.logs = [];
  const doneJson = done.map((entry) => jsonOrElse(entry, (why) => jsonOrElse({ job: entry.job, failed: `the page could not be handed to the host: ${why}` })));
  // A part that cannot be written ends its page's stream with the failure.
  const partJson = parts.map((part) => jsonOrElse(part, (why) => jsonOrElse({ job: part.job, end: { errors: [`a part could not be handed to the host: ${why}`] } })));
  const fetchJson = fetches.map((call) => jsonOrElse(call, (why) => jsonOrElse({ ...call, url: "", body: null, headers: { "x-bilingue-unwritable": why } })));
  const logJson = logs.map((log) => jsonOrElse(log, (why) => jsonOrElse({ level: log.level, message: `(a log line could not be written: ${why})` })));
  return `{"done":[${doneJson.join(",")}],"parts":[${partJson.join(",")}],"fetches":[${fetchJson.join(",")}],"logs":[${logJson.join(",")}],"more":${loading > 0}}`;
}

/** Lone surrogates, as JSON.stringify escapes them (paired ones it writes as they are). */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f][0-9a-f]{2}/i;
const wellFormed = (_key: string, value: unknown) => (typeof value === "string" ? value.toWellFormed() : value);

/** `value` as JSON with well-formed strings; `otherwise(why)` when it cannot be written. */
function jsonOrElse(value: unknown, otherwise: (why: string) => string = (why) => { throw new Error(why); }): string {
  try {
    const json = JSON.stringify(value);
    // Rare: only data that carried a lone surrogate is written a second, slower way.
    return LONE_SURROGATE_ESCAPE.test(json) ? JSON.stringify(value, wellFormed) : json;
  } catch (error) {
    return otherwise(error instanceof Error ? error.message : String(error));
  }
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
    (result) => outbox.done.push({ job, result: handedOver(result) }),
    (error: unknown) => fail(job, error),
  ).finally(() => loading--);
}

/** A streamed page's head: the host sends the document's head and frame with it. */
export function streamHead(job: number, head: StreamHead): void {
  outbox.parts.push({ job, head });
}

/** The static shell the page prerendered, for the host to keep and send first. */
export function streamShell(job: number, shell: Shell): void {
  outbox.parts.push({ job, shell });
}

/** More of a streamed page's markup. */
export function streamHtml(job: number, html: string): void {
  // An index where the host's op took the markup: the host reads it as a render's html
  // (host/render/exchange.rs, `handed_markup`); the generated type says string only.
  outbox.parts.push({ job, html: handOver(html) as string });
}

/** Runs the rest of the streamed page `job` and puts its end (or its failure) in the outbox. */
export function finishStream(job: number, work: Promise<StreamEnd>): void {
  loading++;
  work.then(
    (end) => outbox.parts.push({ job, end }),
    (error: unknown) => fail(job, error),
  ).finally(() => {
    cancels.delete(job);
    loading--;
  });
}

/** What stops the streamed page `job`. */
export function onCancel(job: number, cancel: () => void): void {
  cancels.set(job, cancel);
}

/** The client of the streamed page `job` went away: its render stops. */
export function cancel(job: number): void {
  const stop = cancels.get(job);
  cancels.delete(job);
  stop?.();
}

/** The page `job` failed: `error`, with its stack, is the host's to log. */
export function fail(job: number, error: unknown): void {
  outbox.done.push({ job, failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}

export function finishNow(job: number, result: RenderResult): void {
  outbox.done.push({ job, result: handedOver(result) });
}

/** deno_core's ops, in the host; none where Node runs the bundle (the benchmark's peer). */
const ops = (globalThis as { Deno?: { core?: { ops?: Record<string, (...args: unknown[]) => unknown> } } }).Deno?.core?.ops;
const markupOp = ops?.op_bilingue_markup as ((html: string) => number) | undefined;

/**
 * Markup on its way to the host: handed over as it is, through the host's op (its index
 * goes in the outbox), rather than escaped into the outbox's JSON and read back; inline
 * where there is no such op.
 */
const handOver: (html: string) => string | number = markupOp ?? ((html) => html);

function handedOver(result: RenderResult): RenderResult {
  return typeof result.html === "string" ? { ...result, html: handOver(result.html) } : result;
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
