// A page streamed to the host as React writes it: its head at once, its markup in the
// order React makes it (the frame, each part that waits for data showing its fallback;
// then each part as its data comes), then its end, with the loader's outcome for the boot
// state. The host sends each part on as it comes (host/pages/streamed.rs). With partial
// prerendering, the frame is the page's static shell, prerendered once (React's
// `prerender`, halted where the data is awaited) and kept by the host, which sends it
// before the bundle sees the request; the bundle then only resumes what waited for data
// (React's `resume`), once the data is there.
import type { ReactElement } from "react";
import type { PostponedState } from "react-dom/static";
import { prerenderToNodeStream, renderToPipeableStream, resumeToPipeableStream, type StringDestination, type StringRendering } from "bilingue:react-dom-strings";
import type { StreamHead } from "../contract";
import type { LoadOutcome } from "../data/outcome";
import { fail, finishNow, finishStream, forgetCancel, onCancel, type Rendered, shellSent, streamHead, streamHtml, streamShell } from "./exchange";

/** What a failed part is, for the host's log and the development overlay. */
function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Where React writes a page, as strings (its server build for Bun: app/bundling/string-fizz.mjs):
 * what it writes between two flushes goes to the host as one part, `first` before all.
 */
class HostDestination implements StringDestination {
  readonly #job: number;
  readonly #parts: string[];
  readonly #settle: { resolve(): void; reject(error: unknown): void };
  /** The client went away: nothing more is kept or sent. */
  #gone = false;
  /** React's own handler for a destination that closes: it stops writing to it, and aborts what is left. */
  #onClose: (() => void) | null = null;

  constructor(job: number, first: string, settle: { resolve(): void; reject(error: unknown): void }) {
    this.#job = job;
    this.#parts = first ? [first] : [];
    this.#settle = settle;
  }

  write(chunk: string): boolean {
    if (!this.#gone) this.#parts.push(chunk);
    return true;
  }

  flush(): void {
    if (this.#gone || this.#parts.length === 0) return;
    streamHtml(this.#job, this.#parts.join(""));
    this.#parts.length = 0;
  }

  end(): void {
    this.flush();
    this.#settle.resolve();
  }

  /** The render failed as a whole (React calls it so; `fail` is for its onShellError): what it wrote goes, then the failure. */
  destroy(error: unknown): void {
    this.flush();
    this.#settle.reject(error);
  }

  readonly fail = (error: unknown): void => this.destroy(error);

  /** The client went away: React is told, as a Node stream that closes tells it; nothing more is written, and the page is over. */
  close(): void {
    this.#gone = true;
    this.#parts.length = 0;
    this.#onClose?.();
    this.#settle.resolve();
  }

  /** React listens for a Node stream's drain, error and close: a host's part never backs up or errors; it closes when its client goes. */
  on(event: "drain" | "error" | "close", listener: () => void): this {
    if (event === "close") this.#onClose = listener;
    return this;
  }
}

/** Whether the client of a page has gone: the host's cancel says so, whenever it comes. */
interface Client {
  readonly left: boolean;
}

/**
 * The client of the page `job`, watched from the page's start: a client that leaves while
 * its page waits (for the screen's module, for its data) has nothing rendered for it once
 * that comes. Once React writes, `written` takes the watch over: `left` then stays false,
 * and React's own stop is what a cancel does.
 */
function watched(job: number): Client {
  const client = { left: false };
  onCancel(job, () => (client.left = true));
  return client;
}

/**
 * Writes the page `job` as `start` renders it into a destination of the host's; ends when
 * React ends it. Should the client go away, React stops (what is left is not written).
 */
function written(job: number, first: string, start: (destination: HostDestination) => StringRendering): Promise<void> {
  return new Promise((resolve, reject) => {
    const destination = new HostDestination(job, first, { resolve, reject });
    const stream = start(destination);
    onCancel(job, () => {
      destination.close();
      // Already done by React's close handler; should a React not have one, still done.
      stream.abort(new Error("the client went away"));
    });
    stream.pipe(destination);
  });
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
  const client = watched(job);
  const errors: string[] = [];
  const work = (async () => {
    await ready;
    if (!client.left) {
      await written(job, "", (destination) =>
        renderToPipeableStream(element, {
          nonce,
          // A part that fails is rendered by the browser instead; the page goes on.
          onError: (error: unknown) => void errors.push(describe(error)),
          onShellError: destination.fail,
        }),
      );
    }
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
export interface Resumable {
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
  // The shell is made even if the client leaves meanwhile: it comes within the call that
  // started the page (the host's halt ends it there), and the host keeps it for the
  // page's next visitors.
  const client = watched(job);
  const errors: string[] = [];
  const work = (async () => {
    await ready;
    const controller = new AbortController();
    halting.add(controller);
    const { prelude, postponed } = await prerenderToNodeStream(shellElement, {
      signal: controller.signal,
      onError: (error: unknown) => void (error === HALTED || errors.push(describe(error))),
    });
    const html = await prelude.text();
    const { shell, revealTimer } = sendable(html);
    const resumable: Resumable | null = postponed === null ? null : { revealTimer, state: postponed };
    streamShell(job, shell, resumable === null ? null : JSON.stringify(resumable));
    const end = await filled(job, element, resumable, nonce, data, client);
    return { ...end, errors: [...errors, ...end.errors] };
  })();
  finishStream(job, work);
}

/**
 * The page `job`, whose kept shell the host holds a moment for its data (`--shell-hold`):
 * once the data (and the screen's module, `ready`) is there, the host says whether the
 * shell has gone. If not, the page is rendered whole (`whole`), as any page with its data,
 * and goes in one piece; if it has, React resumes `element()` from the postponed state the
 * host gives back and writes only what the shell lacks. Nothing, if its client has left by then.
 */
export function fillHeldShell(
  job: number,
  element: () => ReactElement,
  nonce: string,
  data: Promise<LoadOutcome<unknown>>,
  ready: Promise<unknown>,
  whole: (outcome: LoadOutcome<unknown>) => Rendered,
): void {
  const client = watched(job);
  Promise.all([data, ready])
    .then(([outcome]) => {
      if (client.left) return;
      const postponed = shellSent(job);
      if (postponed === null) {
        forgetCancel(job);
        finishNow(job, whole(outcome));
      } else {
        finishStream(job, filled(job, element(), JSON.parse(postponed) as Resumable, nonce, data, client));
      }
    })
    .catch((error: unknown) => fail(job, error));
}

async function filled(
  job: number,
  element: ReactElement,
  postponed: Resumable | null,
  nonce: string,
  data: Promise<LoadOutcome<unknown>>,
  client: Client,
): Promise<{ data: LoadOutcome<unknown>; errors: string[] }> {
  const outcome = await data;
  const errors: string[] = [];
  if (postponed !== null && !client.left) {
    const { revealTimer, state } = postponed;
    const first = revealTimer ? `<script nonce="${nonce}">${REVEAL_TIMER}</script>` : "";
    await written(job, first, (destination) =>
      resumeToPipeableStream(element, state, {
        nonce,
        onError: (error: unknown) => void errors.push(describe(error)),
        onShellError: destination.fail,
      }),
    );
  }
  return { data: outcome, errors };
}
