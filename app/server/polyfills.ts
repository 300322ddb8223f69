// What react-dom/server's browser build needs and bare deno_core does not define:
// MessageChannel and TextEncoder at load, ReadableStream to stream a page, and
// AbortController to end a prerendered shell where it waits for data. Imported first
// by server.tsx; a runtime that has them (Node, for the benchmark's peer) keeps its own.
// Each does only what React and server/streaming.ts ask of it.
import { type EncodeInto, SlabEncoder } from "./utf8-slab";

const g = globalThis as Record<string, unknown>;
/** deno_core's own UTF-8 conversions, in Rust, and the host's ops. */
const core = (g.Deno as { core?: { encode(text: string): Uint8Array; ops?: Record<string, unknown> } } | undefined)?.core;

if (typeof g.MessageChannel === "undefined") {
  type Listener = ((event: { data: unknown }) => void) | null;
  class Port {
    onmessage: Listener = null;
    other: Port | null = null;
    postMessage(data: unknown): void {
      const target = this.other;
      queueMicrotask(() => target?.onmessage?.({ data }));
    }
    close(): void {}
  }
  g.MessageChannel = class MessageChannel {
    port1 = new Port();
    port2 = new Port();
    constructor() {
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  };
}

if (typeof g.TextEncoder === "undefined") {
  const encodeInto = core?.ops?.op_bilingue_encode_into as EncodeInto | undefined;
  const slabs = core && encodeInto ? new SlabEncoder(encodeInto, (text) => core.encode(text)) : null;
  g.TextEncoder = class TextEncoder {
    readonly encoding = "utf-8";
    encode(input = ""): Uint8Array {
      if (slabs) return slabs.encode(input);
      if (core) return core.encode(input);
      const bytes: number[] = [];
      for (const char of input) {
        let code = char.codePointAt(0)!;
        if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
        if (code < 0x80) bytes.push(code);
        else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
        else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
        else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
      }
      return new Uint8Array(bytes);
    }
  };
}

if (typeof g.ReadableStream === "undefined") {
  type Source = { start?(controller: Controller): void; pull?(controller: Controller): void; cancel?(reason: unknown): void };
  type Controller = { enqueue(chunk: Uint8Array): void; close(): void; error(reason: unknown): void; desiredSize: number };
  type Result = { done: boolean; value?: Uint8Array };
  /**
   * A byte stream read by one reader: what React writes a page into (its source pulls on
   * each read) and server/streaming.ts reads.
   */
  g.ReadableStream = class ReadableStream {
    #source: Source;
    #queue: Uint8Array[] = [];
    #ended = false;
    #failure: { reason: unknown } | null = null;
    #waiting: { resolve(result: Result): void; reject(reason: unknown): void } | null = null;
    #controller: Controller = {
      enqueue: (chunk) => {
        if (this.#ended) return;
        const waiting = this.#waiting;
        this.#waiting = null;
        if (waiting) waiting.resolve({ done: false, value: chunk });
        else this.#queue.push(chunk);
      },
      close: () => this.#end(),
      error: (reason) => this.#end({ reason }),
      desiredSize: 0,
    };

    constructor(source: Source) {
      this.#source = source;
      source.start?.(this.#controller);
    }

    #end(failure: { reason: unknown } | null = null): void {
      if (this.#ended) return;
      this.#ended = true;
      this.#failure = failure;
      const waiting = this.#waiting;
      this.#waiting = null;
      if (waiting && failure) waiting.reject(failure.reason);
      else waiting?.resolve({ done: true });
    }

    getReader() {
      return {
        read: (): Promise<Result> => {
          const next = this.#queue.shift();
          if (next) return Promise.resolve({ done: false, value: next });
          if (this.#ended) return this.#failure ? Promise.reject(this.#failure.reason) : Promise.resolve({ done: true });
          const result = new Promise<Result>((resolve, reject) => (this.#waiting = { resolve, reject }));
          this.#source.pull?.(this.#controller);
          return result;
        },
        cancel: async (reason?: unknown): Promise<void> => {
          this.#queue = [];
          this.#end();
          this.#source.cancel?.(reason);
        },
        releaseLock(): void {},
      };
    }
  };
}

if (typeof g.AbortController === "undefined") {
  type Listener = (event: { type: string }) => void;
  /** What React's prerender listens to, to be halted; and what the app's own code reads. */
  class AbortSignal {
    aborted = false;
    reason: unknown = undefined;
    #listeners: Listener[] = [];
    addEventListener(type: string, listener: Listener): void {
      if (type === "abort") this.#listeners.push(listener);
    }
    removeEventListener(type: string, listener: Listener): void {
      if (type === "abort") this.#listeners = this.#listeners.filter((l) => l !== listener);
    }
    throwIfAborted(): void {
      if (this.aborted) throw this.reason;
    }
    abort(reason: unknown): void {
      if (this.aborted) return;
      this.aborted = true;
      this.reason = reason;
      const listeners = this.#listeners;
      this.#listeners = [];
      for (const listener of listeners) listener({ type: "abort" });
    }
  }
  g.AbortSignal = AbortSignal;
  g.AbortController = class AbortController {
    readonly signal = new AbortSignal();
    abort(reason: unknown = new Error("aborted")): void {
      this.signal.abort(reason);
    }
  };
}

export {};
