// The build's checks of app/routes.ts (run by app/bundle.mjs, never shipped): a route
// the host could not serve as declared fails the build, naming the route and saying what
// to write instead. From the routes it also gives the host each route's path in every
// language, and the sitemap's pages, each once, by its parameters (`pagesOf`).
import { canonicalPath, isPagePath } from "./pagePath";
import { formProblem } from "./formDialect";
import { paramValue } from "./params";
import { matchPattern, matchRoute, parameterNames, pathIn, patternIn } from "./router";
import type { Route, Routes } from "./route";

const where = (name: string) => `app/routes.ts: the route "${name}"`;

/** The languages a build serves (app/i18n/languages.json, and in development its pseudo-languages). */
export interface BuiltLanguages {
  default: string;
  languages: readonly { code: string }[];
}

/** A route as the host reads it: its name, and its pattern in every language. */
export interface DeclaredRoute {
  name: string;
  paths: Record<string, string>;
  /** The form of each parameter that declares one, as its source (app/data/formDialect.ts). */
  params: Record<string, string>;
  /** Whether its page waits for data (it has a loader): the host's loading budget is for those. */
  loads: boolean;
}

/** A route's name becomes its purge key, `route-<name>`: a word of letters and digits. */
const NAME = /^[a-z][a-zA-Z0-9]*$/;

/** The pages of a route the sitemap lists, each its parameters' segments joined by "/" (`pagesOf`). */
export interface SitemapRoute {
  route: string;
  pages: string[];
}

/**
 * Throws the first problem of `routes` (and of the not-found route); else each route's
 * path in every language and the sitemap's pages, route by route.
 */
export function checkRoutes(
  routes: Routes,
  notFound: Route,
  languages: BuiltLanguages,
): { routes: DeclaredRoute[]; sitemap: SitemapRoute[] } {
  const codes = languages.languages.map(({ code }) => code);
  const declared: DeclaredRoute[] = [];
  const sitemap: SitemapRoute[] = [];
  for (const [name, route] of Object.entries(routes)) {
    if (!NAME.test(name)) throw new Error(`${where(name)}: a route's name is a word of letters and digits starting with a small letter (its purge key is route-<name>)`);
    const paths = checkPaths(name, route, languages);
    checkSharing(name, route);
    const params = checkParams(name, route, paths[languages.default]);
    declared.push({ name, paths, params, loads: route.loader !== undefined });
  }
  checkCollisions(routes, declared, codes);
  for (const [name, route] of Object.entries(routes)) {
    const pages = pagesOf(name, route, routes, notFound, codes, languages.default);
    if (pages.length > 0) sitemap.push({ route: name, pages });
  }
  checkSharing("the not-found route", notFound);
  if (notFound.status !== 404 || notFound.indexable !== false || notFound.loader) {
    throw new Error("app/routes.ts: the not-found route must have status 404, no loader, and not be indexable");
  }
  return { routes: declared, sitemap };
}

/**
 * `routes` with each one's list of pages read (a route may list its pages from a module of
 * its own, which only the build loads: `async () => …`), for `checkRoutes`.
 */
export async function listedPages(routes: Routes): Promise<Routes> {
  const listed: Record<string, Route> = {};
  for (const [name, route] of Object.entries(routes)) {
    const { indexable } = route;
    if (typeof indexable !== "function") {
      listed[name] = route;
      continue;
    }
    const pages = await indexable();
    listed[name] = { ...route, indexable: () => pages };
  }
  return listed;
}

/**
 * A route's pattern in every language: each starts with "/", has the same parameters as
 * the default language's, each once, and is never taken for a language prefix.
 */
function checkPaths(name: string, route: Route, languages: BuiltLanguages): Record<string, string> {
  const { path } = route;
  const codes = languages.languages.map(({ code }) => code);
  if (typeof path !== "string") {
    if (path === null || typeof path !== "object") throw new Error(`${where(name)}: "path" is a string, or one per language ({ ${languages.default}: "/…", … })`);
    for (const code of Object.keys(path)) {
      if (!codes.includes(code)) throw new Error(`${where(name)} has a path in "${code}", which is not a language of app/i18n/languages.json`);
    }
    if (typeof path[languages.default] !== "string") {
      throw new Error(`${where(name)} needs its path in the default language, "${languages.default}" (a language left out takes that one)`);
    }
  }
  const paths = Object.fromEntries(codes.map((code) => [code, patternIn(route, code)]));
  const expected = parameterNames(paths[languages.default]).sort();
  for (const [code, pattern] of Object.entries(paths)) {
    if (typeof pattern !== "string" || !pattern.startsWith("/")) throw new Error(`${where(name)}: its path in "${code}" must start with "/"`);
    const names = parameterNames(pattern).sort();
    if (new Set(names).size !== names.length) throw new Error(`${where(name)}: its path in "${code}", "${pattern}", names a parameter twice`);
    if (names.join() !== expected.join()) {
      throw new Error(
        `${where(name)}: its path in "${code}", "${pattern}", has the parameters (${names.join(", ")}), its path in "${languages.default}" has (${expected.join(", ")}): a translated path takes the same parameters`,
      );
    }
    const first = pattern.split("/")[1] ?? "";
    if (codes.includes(first)) {
      throw new Error(`${where(name)}: its path in "${code}", "${pattern}", starts with "${first}", a language of app/i18n/languages.json, so its pages could never be reached: rename it`);
    }
    if (first.startsWith(":")) {
      throw new Error(`${where(name)}: its path in "${code}", "${pattern}", starts with a parameter, which would take every language prefix for itself: give it a fixed first segment`);
    }
  }
  return paths;
}

function checkSharing(name: string, route: Route): void {
  const { sharing } = route;
  if (sharing.kind === "private") {
    if (Object.keys(sharing).length > 1) throw new Error(`${where(name)}: a private page takes no "maxSeconds"`);
    return;
  }
  if (sharing.kind !== "public") throw new Error(`${where(name)}: "sharing" is { kind: "public" } or { kind: "private" }, not ${JSON.stringify(sharing)}`);
  const seconds = sharing.maxSeconds;
  if (seconds !== undefined && !(Number.isSafeInteger(seconds) && seconds > 0)) {
    throw new Error(`${where(name)}: "maxSeconds" must be a whole number of seconds above 0, not ${seconds}`);
  }
  if (route.loader && seconds === undefined) {
    throw new Error(
      `${where(name)} has a loader and declares its page public with no "maxSeconds": caches would keep its data until the next deploy. ` +
        `Say how long its data may be shared ({ kind: "public", maxSeconds: 300 }), or declare it { kind: "private" } (fresh at each request).`,
    );
  }
}

/** A declared form names a parameter of the pattern, and matches a whole value, every time. */
function checkParams(name: string, route: Route, pattern: string): Record<string, string> {
  const names = parameterNames(pattern);
  const forms: Record<string, string> = {};
  for (const [param, shape] of Object.entries(route.params ?? {})) {
    if (!names.includes(param)) throw new Error(`${where(name)} declares the form of "${param}", which is not one of its parameters (:name in its path)`);
    if (!(shape instanceof RegExp)) throw new Error(`${where(name)}: the form of "${param}" must be a regular expression, not ${typeof shape}`);
    const problem = formProblem(shape.source, shape.flags);
    if (problem !== null) throw new Error(`${where(name)}: the form of "${param}", /${shape.source}/${shape.flags}, is one the host cannot read as the app does: ${problem}`);
    forms[param] = shape.source;
  }
  return forms;
}

/**
 * No two routes collide: in one language, no route's path takes every page of a later
 * route's (which could then never be reached); across languages, no two routes have the
 * same path, parameters aside (a path would be one route's page in one language and
 * another's in the other, and could not be read in another language's words).
 */
function checkCollisions(routes: Routes, declared: DeclaredRoute[], codes: string[]): void {
  for (const [i, earlier] of declared.entries()) {
    for (const later of declared.slice(i + 1)) {
      for (const code of codes) {
        if (shape(earlier.paths[code]) === shape(later.paths[code]) || covers(routes[earlier.name], earlier.paths[code], later.paths[code])) {
          throw new Error(
            `${where(later.name)} collides with the route "${earlier.name}" in "${code}": "${earlier.paths[code]}" takes every page of "${later.paths[code]}", which could never be reached`,
          );
        }
      }
      for (const one of codes) {
        for (const other of codes) {
          if (one !== other && shape(earlier.paths[one]) === shape(later.paths[other])) {
            throw new Error(
              `${where(later.name)} collides with the route "${earlier.name}": its path in "${other}", "${later.paths[other]}", is the other's in "${one}", "${earlier.paths[one]}"`,
            );
          }
        }
      }
    }
  }
}

/** A pattern with its parameters unnamed: `/languages/:` for `/languages/:code`. */
const shape = (pattern: string) => pattern.replace(/\/:[^/]*/g, "/:");

/** Whether every page of `later` (in one language) is a page of `earlier` there. */
function covers(earlier: Route, earlierPattern: string, laterPattern: string): boolean {
  const parts = earlierPattern.split("/");
  const others = laterPattern.split("/");
  if (parts.length !== others.length) return false;
  return parts.every((part, i) => {
    const other = others[i];
    if (!part.startsWith(":")) return part === other;
    const form = earlier.params?.[part.slice(1)];
    if (!form) return true;
    // A form takes a fixed segment when it takes its value; another parameter, maybe not.
    return !other.startsWith(":") && matchPattern(earlier, `/${part}`, `/${other}`) !== null;
  });
}

/**
 * The pages of `route` the sitemap lists, each written as its parameters' segments (as its
 * paths write them, in the order of its default language's pattern) joined by "/": "" for
 * a route without parameters, "fr/FR" for the page { language: "fr", territory: "FR" }. The
 * host fills each language's pattern with them (host/crawlers/sitemap/), so the manifest
 * carries a page once, not once per language. Each page must be its route's page in every
 * language: its values of their forms, its path one the host takes, and no earlier route
 * taking it (where one may, the router itself is asked, as for a visitor).
 */
function pagesOf(name: string, route: Route, routes: Routes, notFound: Route, codes: string[], defaultCode: string): string[] {
  const { indexable } = route;
  const names = parameterNames(patternIn(route, defaultCode));
  if (typeof indexable === "boolean") {
    if (indexable && names.length > 0) {
      throw new Error(`${where(name)} has parameters, so the sitemap cannot list it by its pattern: give its pages' parameters, indexable: () => [{ ${names[0]}: "…" }, …]`);
    }
    return indexable ? [""] : [];
  }
  if (names.length === 0) throw new Error(`${where(name)} has no parameters: write indexable: true (or false)`);
  const earlier = Object.entries(routes).slice(0, Object.keys(routes).indexOf(name));
  const rivalled = new Set(codes.filter((code) => earlier.some(([, other]) => mayTake(patternIn(other, code), patternIn(route, code)))));
  const wanted = [...names].sort().join();
  const listed = indexable();
  if (listed instanceof Promise) throw new Error(`${where(name)}: its pages' list is still coming: read it first (\`listedPages\`)`);
  return listed.map((params) => {
    const given = Object.keys(params).sort();
    if (given.join() !== wanted) {
      throw new Error(`${where(name)} lists a page with the parameters ${JSON.stringify(params)}: each page gives exactly (${names.join(", ")})`);
    }
    const page = { name, route, params: { ...params } };
    const segments = names.map((param) => encodeURIComponent(params[param]));
    // What the router would read of each segment (matchPattern): the value, of its form.
    const read = names.every((param, i) => segments[i] !== "" && paramValue(segments[i]) === params[param] && (route.params?.[param]?.test(params[param]) ?? true));
    for (const code of codes) {
      const path = pathIn(page, code);
      const found = read && !rivalled.has(code) ? (isPagePath(canonicalPath(path)) ? page : null) : matchRoute(routes, notFound, code, path);
      if (found?.name !== name || names.some((param) => found.params[param] !== params[param])) {
        throw new Error(`${where(name)} lists the page ${JSON.stringify(params)}, whose path in "${code}", "${path}", is not its page (its parameters' forms refuse it, or another route takes it)`);
      }
    }
    return segments.join("/");
  });
}

/** Whether a path of `later`'s pattern may be one of `earlier`'s: as many segments, none fixed in both and different. */
function mayTake(earlier: string, later: string): boolean {
  const [parts, others] = [earlier.split("/"), later.split("/")];
  return parts.length === others.length && parts.every((part, i) => part === others[i] || part.startsWith(":") || others[i].startsWith(":"));
}
