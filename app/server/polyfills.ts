// What react-dom/server's browser build needs at load and bare deno_core does not define.
// Imported first by server.tsx; a runtime that has them (Node, for the benchmark peer) keeps its own.

const g = globalThis as Record<string, unknown>;

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
  g.TextEncoder = class TextEncoder {
    readonly encoding = "utf-8";
    encode(input = ""): Uint8Array {
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

export {};
