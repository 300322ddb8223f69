// The screens of the app by name, shared by the server, the browser and the build. Each
// route is one object (app/data/route.ts): its path (without the language prefix; one per
// language where it is translated), its screen (its module is fetched when first needed
// unless it is eager), its loader (the screen's module checks the data and types it), its
// title and description, and who may keep its page. A link names a route by its name, with
// its parameters (`<Link to="languages" params={{ code }}>`). "Add a screen" in
// docs/screens.md says how to add one.
import { defineRoute, eager, lazy, type Route, type Routes } from "./data/route";
import { type Match, matchRoute } from "./data/router";
import { type Language, LANGUAGE_TAG, LANGUAGES } from "./i18n/languages";
import * as home from "./ui/Home";
import * as notFoundScreen from "./ui/NotFound";

export const ROUTES = {
  home: defineRoute({
    path: "/",
    screen: eager(home),
    titleKey: "home.title",
    descriptionKey: "home.description",
    indexable: true,
    sharing: { kind: "public" },
  }),
  status: defineRoute({
    path: { fr: "/etat", en: "/status" },
    screen: lazy(() => import("./ui/Status")),
    // The server's own status, fresh at each request.
    loader: { load: ({ http }) => http.get("/status") },
    titleKey: "status.title",
    descriptionKey: "status.description",
    indexable: true,
    sharing: { kind: "private" },
  }),
  languages: defineRoute({
    path: { fr: "/langues/:code", en: "/languages/:code" },
    // Anything else is no language: the not-found page, without asking the API.
    params: { code: LANGUAGE_TAG },
    screen: lazy(() => import("./ui/Language")),
    loader: { load: ({ http, params }) => http.get(`/languages/${encodeURIComponent(params.code)}`), notFoundOn404: true },
    titleKey: "languages.title",
    descriptionKey: "languages.description",
    indexable: () => LANGUAGES.map(({ code }) => ({ code })),
    sharing: { kind: "public", maxSeconds: 3600 },
  }),
} satisfies Routes;

// Links are checked against these routes (app/data/router.ts).
declare module "./data/router" {
  interface Register {
    routes: typeof ROUTES;
  }
}

export const NOT_FOUND: Route = defineRoute({
  path: "",
  status: 404,
  screen: eager(notFoundScreen),
  titleKey: "notFound.title",
  descriptionKey: "notFound.description",
  indexable: false,
  sharing: { kind: "public" },
});

/** The page a path names in `language`, with its parameters; the not-found route when none does. */
export function resolveRoute(language: Language, pathWithoutPrefix: string): Match {
  return matchRoute(ROUTES, NOT_FOUND, language, pathWithoutPrefix);
}
