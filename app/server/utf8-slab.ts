// Strings to UTF-8 as React's streaming renderer asks for them: once for every string it
// writes (each tag, attribute and text), hundreds a page. deno_core's `encode` made each a
// buffer of its own outside V8's heap (allocated, tracked, freed by the collector); here
// each is a view into a shared slab, written in place by the host's fast op. A view's bytes
// are never written again (a full slab is left to the views that still hold it), so what
// React keeps of a page stays as it was.

/** The slab's size: small enough that the views a waiting page keeps pin little. */
export const SLAB_BYTES = 16 * 1024;
/** A longer string is encoded alone: a slab holds many of the others. */
const LONGEST_IN_SLAB = SLAB_BYTES / 8;

/** What the host's op answers when the bytes do not fit (host/render/markup_op.rs). */
export const NOT_WRITTEN = 0xffff_ffff;

/** `text` as UTF-8 at the start of `out`: the bytes written, or `NOT_WRITTEN`. */
export type EncodeInto = (text: string, out: Uint8Array) => number;

export class SlabEncoder {
  #slab = new Uint8Array(SLAB_BYTES);
  #used = 0;
  readonly #encodeInto: EncodeInto;
  readonly #encodeAlone: (text: string) => Uint8Array;

  constructor(encodeInto: EncodeInto, encodeAlone: (text: string) => Uint8Array) {
    this.#encodeInto = encodeInto;
    this.#encodeAlone = encodeAlone;
  }

  encode(text: string): Uint8Array {
    if (text.length > LONGEST_IN_SLAB) return this.#encodeAlone(text);
    // A UTF-16 unit gives at most three bytes (a pair of them, four).
    if (this.#used + text.length * 3 > SLAB_BYTES) {
      this.#slab = new Uint8Array(SLAB_BYTES);
      this.#used = 0;
    }
    const start = this.#used;
    const written = this.#encodeInto(text, this.#slab.subarray(start));
    if (written === NOT_WRITTEN) return this.#encodeAlone(text);
    this.#used = start + written;
    return this.#slab.subarray(start, this.#used);
  }
}
