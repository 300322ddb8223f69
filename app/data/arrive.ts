// What a navigation waits for before it shows a screen: its module, its messages, and its
// loader's outcome, the loader's calls aborted by `signal`. Loaded with the first navigation (or
// the first link pointed at), not with the first page.
import { withConfig } from "../http/client";
import http from "../http/client";
import type { Language } from "../i18n/languages";
import { pageResources } from "../i18n/resources";
import { runLoader } from "./loader";
import type { LoadOutcome } from "./outcome";
import type { Match } from "./router";

/** The outcome of `match`'s loader (null without one), once its screen's module and its
 * messages in `language` are there too; rejects when either will not load. */
export async function arrive({ name, route, params }: Match, language: Language, signal: AbortSignal): Promise<LoadOutcome<unknown> | null> {
  const needed = Promise.all([route.screen(), pageResources(language, name)]);
  if (!route.loader) {
    await needed;
    return null;
  }
  const client = withConfig(http, (config) => ({ ...config, signal }));
  // A loader's failures are its outcome; the screen's module failing rejects.
  const [outcome] = await Promise.all([runLoader(route, { language, params, http: client }), needed]);
  return outcome;
}
