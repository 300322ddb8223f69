// The contract between the host, the server render and the client entry: where the app
// mounts, and the boot state. The host writes the boot state once: it renders the page
// from it (the server bundle's `render`), and embeds the same JSON, escaped, for the
// client to hydrate with.
import type { LoadOutcome } from "./data/loader";
import type { Language } from "./i18n/languages";

export const ROOT_ID = "app";
export const BOOT_STATE_ID = "bilingue-boot";

export interface BootState {
  language: Language;
  /** The path without its language prefix: it picks the screen. */
  path: string;
  /** The IANA time zone the server formats dates in; the client uses the same, so they match. */
  timeZone: string;
  /** What the screen's loader gave on the server, when the screen has one. */
  data?: LoadOutcome<unknown>;
}

/** What the server bundle answers the host for a page. */
export interface RenderResult {
  status: number;
  title: string;
  description: string;
  html: string;
  /** The render depends only on (path, language, build): the host may cache the page. */
  cacheable: boolean;
  /** The loader's outcome, for the boot state. */
  data?: LoadOutcome<unknown>;
  /** The loader's data is public for this many seconds (see `Loader.publicForSeconds`). */
  publicForSeconds?: number;
}

/** Values fixed when the bundles are built (esbuild `define`), identical on server and client. */
declare global {
  const BILINGUE_VERSION: string;
  const BILINGUE_BUILD_TIME: number;
}
