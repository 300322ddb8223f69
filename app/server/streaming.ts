// A page streamed to the host as React writes it: its head at once, its markup in the
// order React makes it (the frame, each part that waits for data showing its fallback;
// then each part as its data comes), then its end, with the loader's outcome for the boot
// state. The host sends each part on as it comes (host/pages/streamed.rs). With partial
// prerendering, the frame is the page's static shell, prerendered once (React's
// `prerender`, halted where the data is awaited) and kept by the host, which sends it
// before the bundle sees the request; the bundle then only resumes what waited for data
// (React's `resume`), once the data is there.
import type { ReactElement } from "react";
import { renderToReadableStream, resume } from "react-dom/server";
import { type PostponedState, prerender } from "react-dom/static";
import type { StreamHead } from "../contract";
import type { LoadOutcome } from "../data/outcome";
import { finishStream, onCancel, streamHead, streamHtml, streamShell } from "./exchange";

/** deno_core's UTF-8 decoding, in Rust; Node's own elsewhere. */
const core = (globalThis as { Deno?: { core?: { decode(bytes: Uint8Array): string } } }).Deno?.core;
const decode = (bytes: Uint8Array): string => (core ? core.decode(bytes) : new TextDecoder().decode(bytes));

/**
 * Bytes to text as they come: React cuts its output into buffers of a fixed size, so a
 * character may straddle two of them; what does not end a character waits for the rest.
 */
export class Utf8Pieces {
  #rest = new Uint8Array(0);

  push(bytes: Uint8Array): string {
    const all = this.#rest.length === 0 ? bytes : concat(this.#rest, bytes);
    const whole = completeLength(all);
    this.#rest = all.slice(whole);
    return whole === 0 ? "" : decode(all.subarray(0, whole));
  }

  /** What is left (nothing, when the bytes were whole characters). */
  end(): string {
    const rest = this.#rest;
    this.#rest = new Uint8Array(0);
    return rest.length === 0 ? "" : decode(rest);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(a.length + b.length);
  both.set(a);
  both.set(b, a.length);
  return both;
}

/** How many of `bytes` make whole UTF-8 characters. */
function completeLength(bytes: Uint8Array): number {
  let start = bytes.length - 1;
  // Back over at most three continuation bytes (10xxxxxx) to the last character's lead.
  while (start >= 0 && bytes.length - start <= 3 && (bytes[start] & 0xc0) === 0x80) start--;
  if (start < 0) return bytes.length;
  const lead = bytes[start];
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start >= length ? bytes.length : start;
}

/** What a failed part is, for the host's log and the development overlay. */
function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Sends React's bytes for the page `job` on to the host as text, as they come. */
async function pipeToHost(job: number, stream: ReadableStream<Uint8Array>): Promise<void> {
  const reader = stream.getReader();
  onCancel(job, () => void reader.cancel("the client went away"));
  const pieces = new Utf8Pieces();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const html = pieces.push(value as Uint8Array);
    if (html) streamHtml(job, html);
  }
  const rest = pieces.end();
  if (rest) streamHtml(job, rest);
}

/**
 * Streams `element` as the page `job`: `head` at once; its scripts carry `nonce`; `data`
 * is what the loader gives, for the end; the markup once `ready` (the screen's module).
 */
export function streamPage(
  job: number,
  head: StreamHead,
  element: ReactElement,
  nonce: string,
  data: Promise<LoadOutcome<unknown>>,
  ready: Promise<unknown> = Promise.resolve(),
): void {
  streamHead(job, head);
  const errors: string[] = [];
  const work = (async () => {
    await ready;
    const stream = await renderToReadableStream(element, {
      nonce,
      // A part that fails is rendered by the browser instead; the page goes on.
      onError: (error: unknown) => void errors.push(describe(error)),
    });
    await pipeToHost(job, stream);
    return { data: await data, errors };
  })();
  finishStream(job, work);
}

/** Prerenders whose shell is done and which wait only for data: the next halt ends them. */
const halting = new Set<AbortController>();

/** Why a prerender is halted: not an error of the page's. */
const HALTED = new Error("the shell is what comes before the data");

/** Ends every shell being prerendered where it waits for data (its holes). */
export function haltShells(): void {
  for (const controller of halting) controller.abort(HALTED);
  halting.clear();
}

/**
 * The script React ends a page's first flush with when parts of it wait (it times their
 * reveal). A render writes it with the page's nonce; a prerendered shell, sent to every
 * visitor alike, can carry no nonce, so the script leaves the shell and the resumed part
 * starts with it, with this answer's nonce: the document is the one a render gives.
 */
const REVEAL_TIMER = "requestAnimationFrame(function(){$RT=performance.now()});";
const UNNONCED_REVEAL_TIMER = `<script>${REVEAL_TIMER}</script>`;

/** What the host keeps beside a shell, to resume it: React's state, and whether the shell ended with the reveal timer. */
interface Resumable {
  revealTimer: boolean;
  state: PostponedState;
}

/** The shell as it may be sent under the page's policy: no script without the nonce. */
function sendable(prelude: string): { shell: string; revealTimer: boolean } {
  const revealTimer = prelude.endsWith(UNNONCED_REVEAL_TIMER);
  const shell = revealTimer ? prelude.slice(0, -UNNONCED_REVEAL_TIMER.length) : prelude;
  if (/<script(?![^>]*\snonce=)/.test(shell)) throw new Error(`a prerendered shell holds an inline script the page's policy would block: ${shell}`);
  return { shell, revealTimer };
}

/**
 * Prerenders the static shell of the page `job` (`shellElement`: its data never comes),
 * hands it to the host, then fills its holes as `resumeHoles` does. The host halts the
 * prerender once the shell's own work is done (`haltShells`, in a call of its own).
 */
export function makeShellThenResume(
  job: number,
  head: StreamHead,
  shellElement: ReactElement,
  element: ReactElement,
  nonce: string,
  data: Promise<LoadOutcome<unknown>>,
  ready: Promise<unknown>,
): void {
  streamHead(job, head);
  const errors: string[] = [];
  const work = (async () => {
    await ready;
    const controller = new AbortController();
    halting.add(controller);
    const { prelude, postponed } = await prerender(shellElement, {
      signal: controller.signal,
      onError: (error: unknown) => void (error === HALTED || errors.push(describe(error))),
    });
    const pieces = new Utf8Pieces();
    let html = "";
    const reader = prelude.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      html += pieces.push(value as Uint8Array);
    }
    html += pieces.end();
    const { shell, revealTimer } = sendable(html);
    const postponedJson = postponed === null ? null : JSON.stringify({ revealTimer, state: postponed } satisfies Resumable);
    streamShell(job, { prelude: shell, postponed: postponedJson });
    const end = await filled(job, element, postponedJson, nonce, data);
    return { ...end, errors: [...errors, ...end.errors] };
  })();
  finishStream(job, work);
}

/**
 * Fills the holes of the page `job`, whose shell the host has sent already: once its data
 * is there (nothing of React is held while it waits), React resumes from `postponed` and
 * writes only what the shell lacks.
 */
export function resumeHoles(job: number, element: ReactElement, postponed: string, nonce: string, data: Promise<LoadOutcome<unknown>>): void {
  finishStream(job, filled(job, element, postponed, nonce, data));
}

async function filled(
  job: number,
  element: ReactElement,
  postponed: string | null,
  nonce: string,
  data: Promise<LoadOutcome<unknown>>,
): Promise<{ data: LoadOutcome<unknown>; errors: string[] }> {
  const outcome = await data;
  const errors: string[] = [];
  if (postponed !== null) {
    const { revealTimer, state } = JSON.parse(postponed) as Resumable;
    if (revealTimer) streamHtml(job, `<script nonce="${nonce}">${REVEAL_TIMER}</script>`);
    const stream = await resume(element, state, {
      nonce,
      onError: (error: unknown) => void errors.push(describe(error)),
    });
    await pipeToHost(job, stream);
  }
  return { data: outcome, errors };
}
