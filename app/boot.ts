// The contract between the host, the server render and the client entry: where the app
// mounts, and the boot state. The host writes the boot state once: it renders the page
// from it (the server bundle's `render`), and embeds the same JSON, escaped, for the
// client to hydrate with.

/** The ids of the root and of the boot state's element: the host's (`app/contract.ts`). */
export { BOOT_STATE_ID, ROOT_ID } from "./contract";

/** The boot state and a render's result: their shape is the host's (`app/contract.ts`). */
export type { BootState, RenderResult } from "./contract";

/** Values fixed when the bundles are built (esbuild `define`), identical on server and client. */
declare global {
  const BILINGUE_VERSION: string;
  const BILINGUE_BUILD_TIME: number;
  /**
   * True in the server bundle, false in the client's: for work kept once on the server,
   * where a runtime renders page after page, that the browser, which renders a page or
   * two, would only pay for in bytes. Code under it must do what the other branch does.
   */
  const BILINGUE_SERVER: boolean;
}
