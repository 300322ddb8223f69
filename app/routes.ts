// The screens of the app by path (without the language prefix), shared by the server and
// the browser. A route may declare a loader: the data its screen needs, fetched with the
// shared HTTP client, on the server for the first paint and in the browser after.
import type { Loader } from "./data/loader";
import type { PlainKey } from "./i18n/translate";

/** What the host's GET /api/status answers. */
export interface ServerStatus {
  version: string;
  languages: string[];
  /** RFC 3339, UTC. */
  serverTime: string;
}

/**
 * The status screen's data: the server's own, fresh at each request, so never cached. Its
 * shape is checked (`app/data/serverStatus.ts`, loaded with the data, not with the page).
 */
const statusLoader: Loader<ServerStatus> = {
  load: async ({ http }) => {
    const [answer, { serverStatus }] = await Promise.all([http.get<unknown>("/status"), import("./data/serverStatus")]);
    return serverStatus(answer);
  },
};

export type Screen = "home" | "status" | "notFound";

export interface Route {
  screen: Screen;
  status: 200 | 404;
  titleKey: PlainKey;
  /** The page's description, for search engines and link previews. */
  descriptionKey: PlainKey;
  /** Listed in the sitemap, in every language (a pattern with parameters cannot be). */
  indexable: boolean;
  /** The render depends only on (path, language, build): the host may cache the page. */
  cacheable: boolean;
  loader?: Loader<unknown>;
}

/** Paths by pattern: a segment `:name` matches any one segment, given as `params.name`. */
const routes: Record<string, Route> = {
  "/": { screen: "home", status: 200, titleKey: "home.title", descriptionKey: "home.description", indexable: true, cacheable: true },
  "/status": {
    screen: "status",
    status: 200,
    titleKey: "status.title",
    descriptionKey: "status.description",
    indexable: true,
    cacheable: false,
    loader: statusLoader,
  },
};

const notFound: Route = {
  screen: "notFound",
  status: 404,
  titleKey: "notFound.title",
  descriptionKey: "notFound.description",
  indexable: false,
  cacheable: true,
};

/** Every route's pattern (the build gives the host their first segments). */
export function routePatterns(): string[] {
  return Object.keys(routes);
}

/** The paths a crawler may index: the sitemap's pages, in every language. */
export function indexablePaths(): string[] {
  return Object.entries(routes)
    .filter(([pattern, route]) => route.indexable && !pattern.includes(":"))
    .map(([pattern]) => pattern);
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/** The route a path names, and its parameters; the not-found route when none does. */
export function resolveRoute(pathWithoutPrefix: string): Match {
  const segments = pathWithoutPrefix.split("/");
  for (const [pattern, route] of Object.entries(routes)) {
    const parts = pattern.split("/");
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, i) => {
      if (part.startsWith(":") && segments[i] !== "") {
        try {
          params[part.slice(1)] = decodeURIComponent(segments[i]);
          return true;
        } catch {
          return false;
        }
      }
      return part === segments[i];
    });
    if (matches) return { route, params };
  }
  return { route: notFound, params: {} };
}
