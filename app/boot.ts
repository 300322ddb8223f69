// The contract between the server render and the client entry: where the app mounts and
// the state the client hydrates with (the host embeds it as JSON, escaped).
import type { Language } from "./i18n/languages";

export const ROOT_ID = "app";
export const BOOT_STATE_ID = "bilingue-boot";

export interface BootState {
  language: Language;
  /** The path without its language prefix: it picks the screen. */
  path: string;
  /** The IANA time zone the server formatted dates in; the client uses the same, so they match. */
  timeZone: string;
}

/** What the host asks of the server bundle. */
export interface RenderRequest {
  language: Language;
  path: string;
  timeZone: string;
}

/** What the server bundle answers. */
export interface RenderResult {
  status: number;
  title: string;
  html: string;
  boot: BootState;
  cacheable: boolean;
}

/** Values fixed when the bundles are built (esbuild `define`), identical on server and client. */
declare global {
  const BILINGUE_VERSION: string;
  const BILINGUE_BUILD_TIME: number;
}
