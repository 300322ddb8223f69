// What the server bundle needs and bare deno_core does not define: AbortController, to
// end a prerendered shell where it waits for data (server/streaming.ts). React's server
// renderer itself needs nothing global here (app/bundling/string-fizz.mjs). Imported
// first by server.tsx; a runtime that has it (Node, for the benchmark's peer) keeps its own.
const g = globalThis as Record<string, unknown>;
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
