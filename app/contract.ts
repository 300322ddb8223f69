// The contract between the host and the app's bundles: every JSON value that crosses
// between them, the server bundle's entry points and the document's ids. GENERATED from
// host/render/contract.rs and host/dev/mod.rs: do not edit; after a change there, run
// `BILINGUE_WRITE_CONTRACT=1 cargo test --lib contract`.
import type { LoadOutcome } from "./data/outcome";
import type { Language } from "./i18n/languages";

export const ENTRY_POINTS = {"render":"bilingueRender","deliver":"bilingueDeliver","cancel":"bilingueCancel","halt":"bilingueHalt"} as const;

export const ROOT_ID = "app";

export const BOOT_STATE_ID = "bilingue-boot";

export const DEV_PROBLEM_ID = "bilingue-dev-error";

export const PAGE_PATH_AT_MOST = 2048;

export type BootState = { language: Language, 
/**
 * The path without its language prefix, canonical.
 */
path: string, 
/**
 * The page the host's route table found at `path` (its route and parameters): the one
 * the app renders, on the server and in the browser. Absent when the table does not
 * know the bundle's routes (`--server-bundle`): the app matches `path` itself.
 */
page?: PageIdentity, 
/**
 * The URL of the module of the page's own messages in its language, when the build
 * gives each route's messages a module: the browser imports it as it starts (the host
 * preloads it), with no need of the index of every route's.
 */
messages?: string, 
/**
 * The IANA time zone dates are shown in, on the server and in the browser alike.
 */
timeZone: string, 
/**
 * What the screen's loader gave, when it has one (the bundle says; the host writes).
 */
data?: LoadOutcome<unknown>, 
/**
 * Where the site's languages sit, when some has an origin of its own; without it,
 * every language sits under its prefix on the page's origin.
 */
placement?: Placement, };

export type RenderRequest = { boot: BootState, 
/**
 * With it, the bundle may stream the page, its inline scripts carrying this nonce.
 */
streamNonce: string | null, shell: ShellAsk, };

export type ShellAsk = { "kind": "none" } | { "kind": "make" } | { "kind": "hold" };

export type Placement = { 
/**
 * `https://www.example.org`: where the prefixed languages sit.
 */
origin: string, 
/**
 * By language code: the origin a language sits at the root of.
 */
origins: { [key in string]: string }, };

export type RenderResult = { status: number, title: string, 
/**
 * The page's description, for search engines and link previews.
 */
description: string, 
/**
 * Who may keep the page: its route's declaration, unless its data failed to load.
 */
sharing: PageSharing, 
/**
 * The loader's outcome, for the boot state (absent for a screen without a loader).
 */
data?: LoadOutcome<unknown>, };

export type PageSharing = { "kind": "public", maxSeconds?: number, } | { "kind": "private" };

export type PageIdentity = { 
/**
 * Its route's name in `app/routes.ts` (`languages`); `null` for the not-found page
 * (and a page of a bundle whose routes the table does not know).
 */
route: string | null, 
/**
 * Its route's parameters, decoded (`{ "code": "en" }`).
 */
params: Record<string, string>, };

export type StreamHead = { status: number, title: string, description: string, };

export type StreamEnd = { 
/**
 * The loader's outcome, for the boot state.
 */
data?: LoadOutcome<unknown>, 
/**
 * What failed inside a boundary (the browser renders that part itself).
 */
errors: Array<string>, };

export type Fetch = { id: number, 
/**
 * The page it is for.
 */
job: number, method: string, 
/**
 * As the shared client built it: it must name a path under /api on this host.
 */
url: string, headers: Record<string, string>, body: string | null, };

export type Answer = { id: number, status?: number, headers: Array<[string, string]>, body?: string, error?: string, timedOut: boolean, };

export type LogLevel = "error" | "warn" | "info";

export type Problem = { file?: string, line?: number, column?: number, message: string, };

export type Problems = { title: string, problems: Array<Problem>, };

/** The host's ops, as the server bundle calls them (`Deno.core.ops`). */
export type HostOps = {
  /** A page rendered whole: its markup, and the rest of its result (`RenderResult`, JSON). */
  op_bilingue_rendered(job: number, html: string, result: string): void;
  /** A page that failed (its error's stack). */
  op_bilingue_failed(job: number, why: string): void;
  /** A streamed page's head (`StreamHead`, JSON): its stream starts. */
  op_bilingue_head(job: number, head: string): void;
  /** Its static shell, prerendered, and what React resumes it from (its postponed state, JSON; `null` when nothing waits). */
  op_bilingue_shell(job: number, prelude: string, postponed: string | null): void;
  /** More of a streamed page's markup. */
  op_bilingue_part(job: number, html: string): void;
  /** A streamed page's end (`StreamEnd`, JSON). */
  op_bilingue_end(job: number, end: string): void;
  /** An API call to make for a page (`Fetch`, JSON). */
  op_bilingue_fetch(call: string): void;
  /** A line of the bundle's console, for the host's log. */
  op_bilingue_log(level: LogLevel, message: string): void;
  /** Held page `job` has its data: its shell's postponed state if the shell has gone (resume from it), `null` if not (render it whole; its shell will not go). */
  op_bilingue_shell_sent(job: number): string | null;
};

/** The server bundle's entry points, as the host calls them (`globalThis[ENTRY_POINTS.…]`). */
export type EntryPointFunctions = {
  /** A page to render (`RenderRequest`, JSON) as page `job`, streamed if it may and the request gives a nonce. */
  bilingueRender(request: string, job: number): void;
  /** Answers to the API calls asked for (`ApiAnswer[]`, JSON). */
  bilingueDeliver(answers: string): void;
  /** The streamed page `job` lost its client: its render stops. */
  bilingueCancel(job: number): void;
  /** The shells being prerendered are done but for their data: they end there. */
  bilingueHalt(): void;
};
