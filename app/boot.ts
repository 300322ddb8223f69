// The contract between the host, the server render and the client entry: where the app
// mounts, and the boot state. The host writes the boot state once: it renders the page
// from it (the server bundle's `render`), and embeds the same JSON, escaped, for the
// client to hydrate with.
import type { Language } from "./i18n/languages";

export const ROOT_ID = "app";
export const BOOT_STATE_ID = "bilingue-boot";

export interface BootState {
  language: Language;
  /** The path without its language prefix: it picks the screen. */
  path: string;
  /** The IANA time zone the server formats dates in; the client uses the same, so they match. */
  timeZone: string;
}

/** What the server bundle answers the host. */
export interface RenderResult {
  status: number;
  title: string;
  html: string;
  /** The render depends only on (path, language, build): the host may cache the page. */
  cacheable: boolean;
}

/** Values fixed when the bundles are built (esbuild `define`), identical on server and client. */
declare global {
  const BILINGUE_VERSION: string;
  const BILINGUE_BUILD_TIME: number;
}
