// What React's Bun build takes from Node's `util`, `crypto` and `stream`, in the server
// bundle (app/bundling/string-fizz.mjs): a TextEncoder made at load, for its web-stream
// renderers, which the bundle does not call; and the Readable its prerender hands its
// shell in, here one that holds strings.

export class TextEncoder {
  encode(): never {
    throw new Error("React's web-stream renderers are not in the server bundle: it writes pages as strings (app/bundling/string-fizz.mjs)");
  }
}

/** A prerendered shell, as React pushes it: strings, then `null` at its end. */
export class Readable {
  readonly #read: () => void;
  #text = "";
  #ended: (() => void) | null = null;
  #failed: ((error: unknown) => void) | null = null;
  #outcome: { error: unknown } | "ended" | null = null;

  constructor({ read }: { read(): void }) {
    this.#read = read;
  }

  push(chunk: string | null): boolean {
    if (chunk === null) this.#settle("ended");
    else this.#text += chunk;
    return true;
  }

  destroy(error: unknown): void {
    this.#settle({ error });
  }

  /** The whole shell, once React has written it. */
  text(): Promise<string> {
    const settled = new Promise<string>((resolve, reject) => {
      this.#ended = () => resolve(this.#text);
      this.#failed = reject;
    });
    if (this.#outcome === null) this.#read();
    if (this.#outcome !== null) this.#settle(this.#outcome);
    return settled;
  }

  #settle(outcome: { error: unknown } | "ended"): void {
    this.#outcome ??= outcome;
    if (this.#outcome === "ended") this.#ended?.();
    else this.#failed?.(this.#outcome.error);
  }
}
