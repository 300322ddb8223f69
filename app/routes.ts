// The screens of the app by path (without the language prefix), shared by the server, the
// browser and the build. Each route is one object (app/data/route.ts): its path, its
// screen (its module is fetched when first needed unless it is eager), its loader (the
// screen's module checks the data and types it), its title and description, and who may
// keep its page. "Add a screen" in docs/screens.md says how to add one.
import { defineRoute, eager, lazy, type Match, matchRoute, type Route } from "./data/route";
import { LANGUAGE_TAG, LANGUAGES } from "./i18n/languages";
import * as home from "./ui/Home";
import * as notFoundScreen from "./ui/NotFound";

export const ROUTES: readonly Route[] = [
  defineRoute({
    path: "/",
    screen: eager(home),
    titleKey: "home.title",
    descriptionKey: "home.description",
    indexable: true,
    sharing: { kind: "public" },
  }),
  defineRoute({
    path: "/status",
    screen: lazy(() => import("./ui/Status")),
    // The server's own status, fresh at each request.
    loader: { load: ({ http }) => http.get("/status") },
    titleKey: "status.title",
    descriptionKey: "status.description",
    indexable: true,
    sharing: { kind: "private" },
  }),
  defineRoute({
    path: "/languages/:code",
    // Anything else is no language: the not-found page, without asking the API.
    params: { code: LANGUAGE_TAG },
    screen: lazy(() => import("./ui/Language")),
    loader: { load: ({ http, params }) => http.get(`/languages/${encodeURIComponent(params.code)}`), notFoundOn404: true },
    titleKey: "languages.title",
    descriptionKey: "languages.description",
    indexable: () => LANGUAGES.map(({ code }) => `/languages/${code}`),
    sharing: { kind: "public", maxSeconds: 3600 },
  }),
];

export const NOT_FOUND: Route = defineRoute({
  path: "",
  status: 404,
  screen: eager(notFoundScreen),
  titleKey: "notFound.title",
  descriptionKey: "notFound.description",
  indexable: false,
  sharing: { kind: "public" },
});

/** The route a path names, and its parameters; the not-found route when none does. */
export function resolveRoute(pathWithoutPrefix: string): Match {
  return matchRoute(ROUTES, NOT_FOUND, pathWithoutPrefix);
}
