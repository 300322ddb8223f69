// Loaders: the data a screen needs, declared with its route (app/data/route.ts) and fetched
// with the shared HTTP client. On the server the host runs the loader before it renders
// (its calls reach the host's /api, built in or upstream) and the outcome travels in the
// boot state, so the browser hydrates with it and calls nothing; in the browser a loader
// runs again on navigation, on a change of language, and when the screen asks to reload.
import type { LoadOutcome } from "./outcome";
import type { LoaderContext, Route } from "./route";

export type { LoaderContext, LoadOutcome };

/**
 * Runs `route`'s loader and its screen's check of the answer, never rejecting: a failure,
 * data nested too deep to use, or data not of the screen's shape becomes the error object.
 */
export async function runLoader(route: Route, context: LoaderContext): Promise<LoadOutcome<unknown>> {
  try {
    // The checks load with the data, not with the page.
    const [answer, { checkDepth }, screen] = await Promise.all([route.loader!.load(context), import("./usable"), route.screen()]);
    if (!screen.data) throw new Error(`the screen of ${JSON.stringify(route.path)} exports no \`data\` check`);
    // The screen's check keeps what it reads (walking no deeper than its shape); what it
    // keeps must still be usable as a whole (the boot state writes it).
    const data = await screen.data(answer);
    checkDepth(data);
    return { ok: true, data };
  } catch (error) {
    // Only a failure needs the catalogue's mapping: it loads then, not with the first screen.
    const { toApiError } = await import("../http/errors");
    return { ok: false, error: toApiError(error) };
  }
}

/** The page's status for an outcome: a 404 for the main resource may make it a 404. */
export function statusFor(route: Route, outcome: LoadOutcome<unknown>): 200 | 404 {
  if (!outcome.ok && route.loader?.notFoundOn404 && outcome.error.status === 404) return 404;
  return route.status;
}
