// The app's routes read and written, by the server, the browser and the build alike: the
// page the host found (`matchOf`: the host's route table decides which page a request is,
// and the boot state says it), the page a path names in a language after a navigation
// (`matchRoute`, held to the host's cases, app/data/route-cases.json), and a page's path in
// each language (`pathIn`). A link names a route and its parameters, never a path
// (`PageRef`): its URL in any language is written here.
import type { PageIdentity } from "../contract";
import { chainOf, DEFAULT_LANGUAGE, type Language, languageUrl } from "../i18n/languages";
import { canonicalPath, isPagePath } from "./pagePath";
import { paramValue } from "./params";
import type { Route, Routes } from "./route";

/**
 * Filled by app/routes.ts (`declare module`), so that a link's route and parameters are
 * checked against the app's routes without importing them (the screens are imported by
 * the routes, and may not import them back).
 */
// biome-ignore lint/suspicious/noEmptyInterface: declaration merging fills it.
export interface Register {}

type Registered = Register extends { routes: infer Table extends Routes } ? Table : Routes;

/** The name of one of the app's routes: `"home"`, `"languages"`. */
export type RouteName = keyof Registered & string;

type ParamNamesOf<Name extends RouteName> = Registered[Name] extends Route<infer Names> ? Names : string;

/** A page of the app as a link names it: its route, and its parameters when it has any. */
export type PageRef = {
  [Name in RouteName]: [ParamNamesOf<Name>] extends [never]
    ? { to: Name; params?: undefined }
    : { to: Name; params: { readonly [Param in ParamNamesOf<Name>]: string } };
}[RouteName];

/** A page: its route (by name; null for the not-found route) and its parameters, decoded. */
export interface Match {
  name: string | null;
  route: Route;
  params: Record<string, string>;
  /** The not-found page: the path asked (without its prefix), the same in every language. */
  asked?: string;
}

/**
 * A route's pattern in `language`: its own, else its chain's first (a variant's parent's,
 * then the default language's). In the browser, a language's patterns come with its module
 * (./routePaths.ts): asked before, it throws.
 */
export function patternIn(route: Route, language: string): string {
  const { path } = route;
  if (typeof path === "string") return path;
  const own = path[language];
  if (own !== undefined) return own;
  const found = path[chainOf(language).find((code) => path[code] !== undefined) ?? DEFAULT_LANGUAGE];
  if (found === undefined) throw new Error(`no path in ${language} yet`);
  return found;
}

/** A route's parameters' names: the same in every language, so any language's pattern says them. */
function parameterNamesOf(route: Route): readonly string[] {
  const { path } = route;
  const pattern = typeof path === "string" ? path : Object.values(path)[0];
  if (pattern === undefined) throw new Error("no path yet");
  return cut(pattern).names;
}

/** A pattern cut at its slashes, and the names of its parameters, in order. */
interface Cut {
  parts: readonly string[];
  names: readonly string[];
}

/**
 * Patterns cut once: every link of every page writes its route's pattern (~5% of a page of
 * a hundred links went to cutting the same few patterns). Patterns come from the routes,
 * so there are few; the bound only keeps a caller that makes patterns from costing memory.
 */
const cuts = new Map<string, Cut>();
const MOST_CUTS = 256;

function cut(pattern: string): Cut {
  let found = cuts.get(pattern);
  if (found === undefined) {
    const parts = pattern.split("/");
    found = { parts, names: parts.filter((part) => part.startsWith(":")).map((part) => part.slice(1)) };
    if (cuts.size >= MOST_CUTS) cuts.clear();
    cuts.set(pattern, found);
  }
  return found;
}

/** The names of a pattern's parameters, in order. */
export function parameterNames(pattern: string): string[] {
  return [...cut(pattern).names];
}

/** `route`'s parameters, when `pathWithoutPrefix` is its page in `language`; else null. */
export function matchPattern(route: Route, pattern: string, pathWithoutPrefix: string): Record<string, string> | null {
  return matchSegments(route, pattern, pathWithoutPrefix.split("/"));
}

/** `matchPattern` for a path already cut at its slashes. */
function matchSegments(route: Route, pattern: string, segments: readonly string[]): Record<string, string> | null {
  const { parts } = cut(pattern);
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    if (!part.startsWith(":")) {
      if (part !== segments[i]) return null;
      continue;
    }
    const name = part.slice(1);
    const value = segments[i] === "" ? null : paramValue(segments[i]);
    if (value === null || !(route.params?.[name]?.test(value) ?? true)) return null;
    params[name] = value;
  }
  return params;
}

/**
 * The page `pathWithoutPrefix` names in `language` (the route whose path in that language
 * takes it, the first in order); the not-found route when none does, or when no page can
 * be at that path (./pagePath.ts: the host's rule). A path in another language's words is
 * none of this language's: the host redirects it before any render.
 */
export function matchRoute(routes: Routes, notFound: Route, language: string, pathWithoutPrefix: string): Match {
  const path = canonicalPath(pathWithoutPrefix);
  if (isPagePath(path)) {
    // Every render matches its path against the routes in order: the path is cut once,
    // and, on the server, the routes' list is read once per table, not once per render.
    const segments = path.split("/");
    for (const [name, route] of BILINGUE_SERVER ? entriesOf(routes) : Object.entries(routes)) {
      const params = matchSegments(route, patternIn(route, language), segments);
      if (params) return { name, route, params };
    }
  }
  return { name: null, route: notFound, params: {}, asked: path };
}

const routeLists = new WeakMap<Routes, readonly (readonly [string, Route])[]>();

/** A route table's routes in order, listed once (a table is never changed once made). */
function entriesOf(routes: Routes): readonly (readonly [string, Route])[] {
  let list = routeLists.get(routes);
  if (list === undefined) routeLists.set(routes, (list = Object.entries(routes)));
  return list;
}

/**
 * The page a link names (the type check holds links to the routes; a cast that gets past
 * it throws here, naming the route).
 */
export function pageOf(routes: Routes, { to, params = {} }: { to: string; params?: Readonly<Record<string, string>> }): Match {
  const route = Object.hasOwn(routes, to) ? routes[to] : undefined;
  if (!route || parameterNamesOf(route).some((name) => typeof params[name] !== "string")) {
    throw new Error(`no link to "${to}" with ${JSON.stringify(params)}`);
  }
  return { name: to, route, params: { ...params } };
}

/** `match`'s path in `language`, without the prefix: its route's pattern there, filled. */
export function pathIn(match: Match, language: string): string {
  if (match.name === null) return match.asked ?? "/";
  const pattern = patternIn(match.route, language);
  const { parts, names } = cut(pattern);
  if (names.length === 0) return pattern;
  return parts.map((part) => (part.startsWith(":") ? encodeURIComponent(match.params[part.slice(1)]) : part)).join("/");
}

/**
 * `match`'s URL in `language`, prefix and all: `/fr/langues/en` (absolute when the language
 * sits on another origin than the document's).
 */
export function hrefIn(match: Match, language: Language): string {
  return languageUrl(language, pathIn(match, language));
}

/**
 * The page the host's route table found (`page`, from the boot state): that route, with
 * those parameters; the not-found route when it found none, `path` being what was asked.
 * The host's table is the app's routes (the build writes it from them), so a route it names
 * is one of `routes`; one that is not fails the render, saying so.
 */
export function matchOf(routes: Routes, notFound: Route, page: PageIdentity, path: string): Match {
  if (page.route === null) return { name: null, route: notFound, params: {}, asked: canonicalPath(path) };
  if (!Object.hasOwn(routes, page.route)) throw new Error(`the host found a page of the route "${page.route}", which the app does not declare`);
  return pageOf(routes, { to: page.route, params: page.params });
}
