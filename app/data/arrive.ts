// What a navigation waits for before it shows a screen: its module, and its loader's
// outcome, the loader's calls aborted by `signal`. Loaded with the first navigation (or
// the first link pointed at), not with the first page.
import { withConfig } from "../http/client";
import http from "../http/client";
import type { Language } from "../i18n/languages";
import { runLoader } from "./loader";
import type { LoadOutcome } from "./outcome";
import type { Match } from "./router";

/** The outcome of `match`'s loader (null without one), once its screen's module is there
 * too; rejects when the module will not load. */
export async function arrive({ route, params }: Match, language: Language, signal: AbortSignal): Promise<LoadOutcome<unknown> | null> {
  if (!route.loader) {
    await route.screen();
    return null;
  }
  const client = withConfig(http, (config) => ({ ...config, signal }));
  // A loader's failures are its outcome; the screen's module failing rejects.
  const [outcome] = await Promise.all([runLoader(route, { language, params, http: client }), route.screen()]);
  return outcome;
}
