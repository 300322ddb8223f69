// A page streamed to the host as React writes it: its head at once, its markup in the
// order React makes it (the frame, each part that waits for data showing its fallback;
// then each part as its data comes), then its end, with the loader's outcome for the boot
// state. The host sends each part on as it comes (host/pages/streamed.rs).
import type { ReactElement } from "react";
import { renderToReadableStream } from "react-dom/server";
import type { StreamHead } from "../contract";
import type { LoadOutcome } from "../data/outcome";
import { finishStream, onCancel, streamHead, streamHtml } from "./exchange";

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
    return { data: await data, errors };
  })();
  finishStream(job, work);
}
