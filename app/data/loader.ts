// Loaders: the data a screen needs, declared beside its route and fetched with the shared
// HTTP client. On the server the host runs the loader before it renders (its calls reach
// the host's /api, built in or upstream) and the outcome travels in the boot state, so the
// browser hydrates with it and calls nothing; in the browser a loader runs again on
// navigation, on a change of language, and when the screen asks to reload.
import type { HttpClient } from "../http/client";
import type { ApiError } from "../http/errors";
import type { Language } from "../i18n/languages";

export interface LoaderContext {
  language: Language;
  /** The route's parameters (`:id` in its pattern). */
  params: Record<string, string>;
  /** The shared client: same base path, headers, interceptors and error catalogue everywhere. */
  http: HttpClient;
}

export interface Loader<Data> {
  load(context: LoaderContext): Promise<Data>;
  /**
   * The data is the same for every visitor and may be kept this many seconds: only then may
   * the host keep the page in its cache (never when a call carried the visitor's Cookie or
   * Authorization).
   */
  publicForSeconds?: number;
  /** A 404 from the API for the screen's main resource makes the page a 404. */
  notFoundOn404?: boolean;
}

/** What a loader gave: its data, or the error object of the failed call. */
export type LoadOutcome<Data> = { ok: true; data: Data } | { ok: false; error: ApiError };

/**
 * Runs `loader`, never rejecting: a failure, or data nested too deep to use, becomes the
 * error object.
 */
export async function runLoader<Data>(loader: Loader<Data>, context: LoaderContext): Promise<LoadOutcome<Data>> {
  try {
    // The check loads with the data, not with the page.
    const [data, { checkDepth }] = await Promise.all([loader.load(context), import("./usable")]);
    checkDepth(data);
    return { ok: true, data };
  } catch (error) {
    // Only a failure needs the catalogue's mapping: it loads then, not with the first screen.
    const { toApiError } = await import("../http/errors");
    return { ok: false, error: toApiError(error) };
  }
}

/** The page's status for an outcome: a 404 for the main resource may make it a 404. */
export function statusFor(loader: Loader<unknown>, outcome: LoadOutcome<unknown>, routeStatus: 200 | 404): 200 | 404 {
  if (!outcome.ok && loader.notFoundOn404 && outcome.error.status === 404) return 404;
  return routeStatus;
}
