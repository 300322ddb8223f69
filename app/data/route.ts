// What a route is: one object (see app/routes.ts) with its path (one for every language,
// or one per language; app/data/router.ts matches and writes them), its screen (a module,
// loaded when first needed unless the route is eager), its loader and the check of the
// loader's data (exported by the screen's module beside the screen, so both stay out of
// the first load), its title and description keys, and who may keep its page. The
// screen's data type is the check's: `defineRoute` makes the loader, the check and the
// screen agree, and no screen casts.
import type { ComponentType } from "react";
import type { PageSharing } from "../contract";
import type { HttpClient } from "../http/client";
import type { Language } from "../i18n/languages";
import type { MessageKey, PlainKey } from "../i18n/translate";
import type { LoadOutcome } from "./outcome";
import type { ParamShape } from "./params";

export type { PageSharing, ParamShape };

export interface LoaderContext {
  language: Language;
  /** The route's parameters (`:id` in its pattern). */
  params: Record<string, string>;
  /** The shared client: same base path, headers, interceptors and error catalogue
   * everywhere. In the browser its calls are aborted when a newer navigation supersedes
   * this one. */
  http: HttpClient;
}

/** The data of the screen on show, as its screen receives it. */
export interface ScreenData<Data> {
  /**
   * The last outcome of the screen's loader; null for a screen without one. On a streamed
   * page's server render, reading it waits for the data: the nearest `<Suspense>` boundary
   * around the part that reads it shows its fallback meanwhile, and the rest of the page
   * is sent at once (with no boundary, the whole screen waits).
   */
  readonly outcome: LoadOutcome<Data> | null;
  /** The loader runs again (a reload, a change of language); the outcome on show stays. */
  loading: boolean;
  reload: () => void;
}

export interface ScreenProps<Data = never> {
  data: ScreenData<Data>;
  /** The route's parameters (`:code` in its pattern), decoded. */
  params: Record<string, string>;
  /** The IANA time zone dates are shown in. */
  timeZone: string;
}

/** What a screen's loader gives the check: the API's answer, not trusted yet. */
export interface Loader {
  load(context: LoaderContext): Promise<unknown>;
  /** A 404 from the API for the screen's main resource makes the page a 404. */
  notFoundOn404?: boolean;
}

/** A screen's module: the screen, and for a screen with a loader the check of its data. */
export interface ScreenModule<Data> {
  default: ComponentType<ScreenProps<Data>>;
  /** The loader's answer, checked (it throws when the answer is not of the shape). */
  data?: (answer: unknown) => Data | Promise<Data>;
}

/** The names of a pattern's parameters: `"code"` for `/languages/:code`. */
export type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * A route's path, without the language prefix: one for every language (`/`), or one per
 * language (`{ fr: "/langues/:code", en: "/languages/:code" }`): the default language's is
 * required, and a language left out takes it. Every language's path has the same
 * parameters.
 */
export type RoutePath = string | { readonly [language: string]: string };

/** The patterns of a path: each language's. */
type Patterns<Path extends RoutePath> = Path extends string ? Path : Path[keyof Path];

/** A route's parameters, by name, as a link gives them: `{ code: "en" }`. */
export type Params<Names extends string> = { readonly [Name in Names]: string };

interface Declared<Path extends RoutePath, Names extends string = ParamNames<Patterns<Path>>> {
  /**
   * `/languages/:code`, or one per language: a segment `:name` matches any one segment
   * that can name something (app/data/params.ts), given decoded as `params.name`.
   */
  path: Path;
  /** The form of a parameter's value, when any segment is too broad: `{ code: /^[a-z]{2,3}$/ }`. */
  params?: [Names] extends [never] ? never : { readonly [Name in Names]?: ParamShape };
  status?: 200 | 404;
  titleKey: PlainKey;
  /** The page's description, for search engines and link previews. */
  descriptionKey: PlainKey;
  /**
   * Listed in the sitemap, in every language at its path there: `true` or `false` for a
   * route without parameters; for one with them, `false` or its pages' parameters
   * (`() => [{ code: "fr" }, …]`). A long list may come from a module of its own, which
   * only the build loads, never the browser: an `async` function that imports it.
   */
  indexable: [Names] extends [never] ? boolean : false | (() => readonly Params<Names>[] | Promise<readonly Params<Names>[]>);
  /**
   * Who may keep the page: anyone (every cache, for at most `maxSeconds` when given: a
   * route with a loader must say how long its data may be shared), or its visitor alone,
   * revalidated each time (data fresh at each request; such a page is streamed to a
   * person). The build refuses a declaration the host cannot honour.
   */
  sharing: PageSharing;
  /**
   * The keys its screen builds at run time (`t.dynamic(…)`), which no source names as a
   * string: a page ships only the messages its code names (docs/translations.md), so these
   * come with the route's too. A key left out shows "" on the server and in the browser.
   */
  messages?: readonly MessageKey[];
}

type Lazy<Module> = (() => Promise<Module>) & { loaded?: Module };

/** A route with a loader: its screen's module checks the data the screen receives. */
export interface RouteWithData<Data, Path extends RoutePath = string> extends Declared<Path> {
  screen: Lazy<ScreenModule<Data> & { data: NonNullable<ScreenModule<Data>["data"]> }>;
  loader: Loader;
}

export interface RouteWithoutData<Path extends RoutePath = string> extends Declared<Path> {
  screen: Lazy<{ default: ComponentType<ScreenProps> }>;
  loader?: undefined;
}

/** Never set: a route's type carries the names of its parameters (`Route<"code">`), for links to it. */
declare const PARAMETERS: unique symbol;

/** A route as the router holds it: its data type is its own business (see `defineRoute`). */
export interface Route<Names extends string = string> extends Omit<Declared<RoutePath>, "params" | "indexable"> {
  params?: Readonly<Record<string, ParamShape>>;
  indexable: boolean | (() => readonly Params<string>[] | Promise<readonly Params<string>[]>);
  status: 200 | 404;
  screen: Lazy<ScreenModule<unknown>>;
  loader?: Loader;
  readonly [PARAMETERS]?: Names;
}

/** The app's routes by name (`app/routes.ts`): the name is the route's for links and purges. */
export type Routes = Readonly<Record<string, Route>>;

/**
 * A route, its loader, data check and screen agreeing on one data type. The router hands
 * each screen the outcome of its own route's loader and check, so the type is forgotten
 * here, once; the names of its parameters are kept, for links to it.
 */
export function defineRoute<Data, const Path extends RoutePath>(route: RouteWithData<Data, Path>): Route<ParamNames<Patterns<Path>>>;
export function defineRoute<const Path extends RoutePath>(route: RouteWithoutData<Path>): Route<ParamNames<Patterns<Path>>>;
export function defineRoute(route: RouteWithData<unknown, RoutePath> | RouteWithoutData<RoutePath>): Route {
  return { ...route, status: route.status ?? 200 } as Route;
}

/** A screen in the first load: its module is there before anything renders. */
export function eager<Module>(module: Module): Lazy<Module> {
  return Object.assign(() => Promise.resolve(module), { loaded: module });
}

/** A screen loaded when first needed (its module's chunk is fetched once). */
export function lazy<Module>(load: () => Promise<Module>): Lazy<Module> {
  let loading: Promise<Module> | undefined;
  const screen: Lazy<Module> = () => {
    loading ??= load().then(
      (module) => (screen.loaded = module),
      (error) => {
        // A chunk that failed to load may be asked for again.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return screen;
}
