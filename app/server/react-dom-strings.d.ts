// React's server renderers as the server bundle has them (app/bundling/string-fizz.mjs):
// those of React's Bun build that write strings to a destination, and renderToString.
declare module "bilingue:react-dom-strings" {
  import type { ReactNode } from "react";
  import type { RenderToPipeableStreamOptions, ResumeToPipeableStreamOptions } from "react-dom/server";
  import type { PostponedState, PrerenderOptions } from "react-dom/static";

  /** Where React writes a page: what it writes between two flushes is one part. */
  export interface StringDestination {
    write(chunk: string): boolean;
    flush(): void;
    end(): void;
    destroy(error: unknown): void;
    on(event: "drain" | "error" | "close", listener: () => void): unknown;
  }

  /** A render under way: it writes into one destination; `abort` ends it where it is. */
  export interface StringRendering {
    pipe(destination: StringDestination): StringDestination;
    abort(reason?: unknown): void;
  }

  /** A prerendered shell (app/server/react-node-builtins.ts: React's Readable there). */
  export interface StringPrelude {
    text(): Promise<string>;
  }

  export function renderToString(children: ReactNode): string;
  export function renderToPipeableStream(children: ReactNode, options?: RenderToPipeableStreamOptions): StringRendering;
  export function resumeToPipeableStream(children: ReactNode, postponedState: PostponedState, options?: ResumeToPipeableStreamOptions): StringRendering;
  export function prerenderToNodeStream(children: ReactNode, options?: PrerenderOptions): Promise<{ prelude: StringPrelude; postponed: PostponedState | null }>;
}
