// The exchange between the server bundle and the host while pages load their data. The
// host calls into V8 (a page to render, answers to deliver); what the call produces, and
// what its microtasks produce after it, the bundle hands over through the host's ops
// (./host.ts), each naming its page: the pages finished or their parts, the API calls to
// make, the lines to log. The host takes all of it once the call is over, makes the calls
// (its own /api, or the upstream) and delivers the answers, while other pages render on
// the same thread. No timer or I/O runs in V8: everything goes through the host.
import type { Answer, Fetch, LogLevel, RenderResult, StreamEnd, StreamHead } from "../contract";
import { host } from "./host";

export type { Answer, Fetch } from "../contract";

/** A page rendered whole: its markup, handed over as it is, apart from the rest of its result. */
export interface Rendered {
  html: string;
  result: RenderResult;
}

const waiting = new Map<number, (answer: Answer) => void>();
/** How to stop each page being streamed, should its client go away. */
const cancels = new Map<number, () => void>();
let nextFetch = 1;

/** Lone surrogates, as JSON.stringify escapes them (paired ones it writes as they are). */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f][0-9a-f]{2}/i;
const wellFormed = (_key: string, value: unknown) => (typeof value === "string" ? value.toWellFormed() : value);

/**
 * `value` as JSON for the host, with well-formed strings (the host's JSON reader never
 * meets a lone surrogate's escape); `otherwise(why)` when it cannot be written (data too
 * deep for JSON.stringify, say): each value is written alone, so one that cannot be
 * becomes its own page's failure and leaves every other page and the exchange untouched.
 */
function jsonOrElse(value: unknown, otherwise: (why: string) => string | null): string | null {
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
  const fetch: Fetch = { id, job, ...call };
  // A call that cannot be written still goes, as one the host refuses: its page hears why.
  const unwritable = (why: string) => JSON.stringify({ ...fetch, url: "", body: null, headers: { "x-bilingue-unwritable": why } });
  host.op_bilingue_fetch(jsonOrElse(fetch, unwritable) as string);
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

/** The page `job`, rendered whole, to the host. */
export function finishNow(job: number, { html, result }: Rendered): void {
  const json = jsonOrElse(result, (why) => (fail(job, `the page could not be handed to the host: ${why}`), null));
  if (json !== null) host.op_bilingue_rendered(job, html, json);
}

/** Runs `work` for `job` and hands its page (or its failure) to the host. */
export function finishLater(job: number, work: Promise<Rendered>): void {
  work.then(
    (page) => finishNow(job, page),
    (error: unknown) => fail(job, error),
  );
}

/** A streamed page's head: the host sends the document's head and frame with it. */
export function streamHead(job: number, head: StreamHead): void {
  const json = jsonOrElse(head, (why) => (fail(job, `the page's head could not be handed to the host: ${why}`), null));
  if (json !== null) host.op_bilingue_head(job, json);
}

/** The static shell the page prerendered, for the host to keep and send first; `postponed`: what React resumes it from. */
export function streamShell(job: number, prelude: string, postponed: string | null): void {
  host.op_bilingue_shell(job, prelude, postponed);
}

/** More of a streamed page's markup, as it is. */
export function streamHtml(job: number, html: string): void {
  host.op_bilingue_part(job, html);
}

/** Runs the rest of the streamed page `job` and hands its end (or its failure) to the host. */
export function finishStream(job: number, work: Promise<StreamEnd>): void {
  work.then(
    (end) => {
      // An end that cannot be written ends the page's stream with the failure.
      const failed = (why: string) => JSON.stringify({ errors: [`a part could not be handed to the host: ${why}`] } satisfies StreamEnd);
      host.op_bilingue_end(job, jsonOrElse(end, failed) as string);
    },
    (error: unknown) => fail(job, error),
  ).finally(() => cancels.delete(job));
}

/** What stops the streamed page `job`. */
export function onCancel(job: number, cancel: () => void): void {
  cancels.set(job, cancel);
}

/** The page `job` goes whole after all: nothing of it is left to stop. */
export function forgetCancel(job: number): void {
  cancels.delete(job);
}

/** Held page `job` has its data: its shell's postponed state if the shell has gone, else `null`, and the page goes whole. */
export function shellSent(job: number): string | null {
  return host.op_bilingue_shell_sent(job);
}

/** The client of the streamed page `job` went away: its render stops. */
export function cancel(job: number): void {
  const stop = cancels.get(job);
  cancels.delete(job);
  stop?.();
}

/** The page `job` failed: `error`, with its stack, is the host's to log. */
export function fail(job: number, error: unknown): void {
  host.op_bilingue_failed(job, error instanceof Error ? (error.stack ?? error.message) : String(error));
}

/** The bundle's console, into the host's log (deno_core's own prints to stdout). */
export function routeConsoleToHost(): void {
  const line = (...args: unknown[]) =>
    args.map((arg) => (typeof arg === "string" ? arg : arg instanceof Error ? (arg.stack ?? arg.message) : safeJson(arg))).join(" ");
  const to = (level: LogLevel) => (...args: unknown[]) => host.op_bilingue_log(level, line(...args));
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
