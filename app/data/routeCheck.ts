// The build's checks of app/routes.ts (run by app/bundle.mjs, never shipped): a route
// the host could not serve as declared fails the build, naming the route and saying what
// to write instead. From the routes it also gives the host their patterns and the
// sitemap's pages.
import { matchRoute, type Route } from "./route";

const where = (route: Route) => `app/routes.ts: the route "${route.path}"`;

/** Throws the first problem of `routes` (and of the not-found route); else the sitemap's pages. */
export function checkRoutes(routes: readonly Route[], notFound: Route): { sitemap: string[]; patterns: string[] } {
  const seen = new Set<string>();
  const sitemap: string[] = [];
  for (const route of routes) {
    if (seen.has(route.path)) throw new Error(`${where(route)} is declared twice`);
    seen.add(route.path);
    if (!route.path.startsWith("/")) throw new Error(`${where(route)} must start with "/"`);
    checkSharing(route);
    checkParams(route);
    sitemap.push(...pagesOf(route));
  }
  checkSharing(notFound);
  if (notFound.status !== 404 || notFound.indexable !== false || notFound.loader) {
    throw new Error("app/routes.ts: the not-found route must have status 404, no loader, and not be indexable");
  }
  return { sitemap, patterns: routes.map((route) => route.path) };
}

function checkSharing(route: Route): void {
  const { sharing } = route;
  if (sharing.kind === "private") {
    if (Object.keys(sharing).length > 1) throw new Error(`${where(route)}: a private page takes no "maxSeconds"`);
    return;
  }
  if (sharing.kind !== "public") throw new Error(`${where(route)}: "sharing" is { kind: "public" } or { kind: "private" }, not ${JSON.stringify(sharing)}`);
  const seconds = sharing.maxSeconds;
  if (seconds !== undefined && !(Number.isSafeInteger(seconds) && seconds > 0)) {
    throw new Error(`${where(route)}: "maxSeconds" must be a whole number of seconds above 0, not ${seconds}`);
  }
  if (route.loader && seconds === undefined) {
    throw new Error(
      `${where(route)} has a loader and declares its page public with no "maxSeconds": caches would keep its data until the next deploy. ` +
        `Say how long its data may be shared ({ kind: "public", maxSeconds: 300 }), or declare it { kind: "private" } (fresh at each request).`,
    );
  }
}

/** A declared form names a parameter of the pattern, and matches a whole value, every time. */
function checkParams(route: Route): void {
  const names = route.path.split("/").filter((part) => part.startsWith(":")).map((part) => part.slice(1));
  for (const [name, shape] of Object.entries(route.params ?? {})) {
    if (!names.includes(name)) throw new Error(`${where(route)} declares the form of "${name}", which is not one of its parameters (:name in its path)`);
    if (!(shape instanceof RegExp)) throw new Error(`${where(route)}: the form of "${name}" must be a regular expression, not ${typeof shape}`);
    if (!shape.source.startsWith("^") || !shape.source.endsWith("$")) {
      throw new Error(`${where(route)}: the form of "${name}", /${shape.source}/, must match the whole value: anchor it, /^…$/`);
    }
    if (shape.global || shape.sticky) {
      throw new Error(`${where(route)}: the form of "${name}" must not have the g or y flag (its test would depend on the last one)`);
    }
  }
}

/** The pages of `route` the sitemap lists. */
function pagesOf(route: Route): string[] {
  const { indexable } = route;
  const hasParameters = route.path.split("/").some((part) => part.startsWith(":"));
  if (typeof indexable === "boolean") {
    if (indexable && hasParameters) {
      throw new Error(`${where(route)} has parameters, so the sitemap cannot list it by its pattern: give its pages, indexable: () => ["/…", …]`);
    }
    return indexable ? [route.path] : [];
  }
  if (!hasParameters) throw new Error(`${where(route)} has no parameters: write indexable: true (or false)`);
  const pages = [...indexable()];
  const none = { ...route };
  for (const page of pages) {
    if (matchRoute([route], none, page).route !== route) {
      throw new Error(`${where(route)} lists "${page}" among its pages, which its pattern does not match`);
    }
  }
  return pages;
}
