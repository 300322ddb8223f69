// What a language needs on a page: its messages and its date locale. A page ships only the
// messages it uses (docs/translations.md, "What a page carries"): a language's module holds
// its date locale and the messages of the first load (its code and the eager screens),
// and the way to its index, which names a module of each route's own messages, fetched
// with its screen. The first page's own come by the URL its boot state names, so the
// first load carries no list of the site's routes (the index comes when another page or
// language first needs it). The language's module is found by name, tables/<code>.ts,
// which the build makes into that module (app/bundling/message-modules.mjs), so the
// browser fetches only the active language's; a development or test build without the
// split has the whole table there. A language's resources are made once: each route's
// messages join its table as they come, so the translator of that table sees them.
import type { DateLocale } from "./dates";
import declared from "./languages.json";
import type { Language } from "./languages";
import type { Table } from "./table";
import type { TableModule } from "./translate";

/** A route's messages in a language, as their module has them. */
export interface RouteMessagesModule {
  default: Table;
  /** Of these, the keys whose message is another language's (its chain's), and whose. */
  fallbacks?: Record<string, string>;
  /** In a development build, the default language's carries its pseudo-languages'. */
  pseudo?: Record<string, Table>;
}

/** A language's index: each route's messages, to load. */
export interface RouteIndexModule {
  default: Readonly<Record<string, () => Promise<RouteMessagesModule>>>;
}

export interface Resources {
  language: Language;
  /** The messages on hand: the first load's, then each route's as it loads. */
  table: Table;
  /** Of those, the keys whose message is another language's, and whose (`t` marks them). */
  fallbacks: Record<string, string>;
  dateLocale: DateLocale;
  /** The index of each route's messages, to load (none: the table holds every message). */
  routes: (() => Promise<RouteIndexModule>) | null;
  /** The routes whose messages are in the table (true), or on their way. */
  arrived: Map<string, true | Promise<void>>;
}

export type LoadResources = (language: Language) => Promise<Resources>;

/** A language's module as built: the first load's table (its messages compiled), its date locale, its routes' messages. */
export interface LanguageModule extends TableModule {
  dateLocale: DateLocale;
  /** The index of each route's own messages; absent when the table is whole. */
  routeMessages?: () => Promise<RouteIndexModule>;
  /** Of its messages, the keys whose message is another language's, and whose. */
  fallbacks?: Record<string, string>;
  /** In a development build, the default language's carries its pseudo-languages' tables. */
  pseudo?: Record<string, Table>;
}

/**
 * The table module a language is in: its own, or for a pseudo-language (development builds
 * only, app/bundling/pseudo-languages.mjs) the one it is made from. A production build has
 * none: its minifier drops the look-up.
 */
export const tableModuleOf = (language: Language): string =>
  process.env.NODE_ENV === "production"
    ? language
    : ((declared.languages.find(({ code }) => code === language) as { pseudoOf?: string } | undefined)?.pseudoOf ?? language);

/** Whether `module` carries `language` as a pseudo-language (whose messages are all its own). */
const pseudoIn = (module: { pseudo?: Record<string, Table> }, language: Language): boolean =>
  process.env.NODE_ENV !== "production" && module.pseudo?.[language] !== undefined;

/** `module`'s table in `language` (a pseudo-language's, when the module carries it). */
const tableIn = (module: { default: Table; pseudo?: Record<string, Table> }, language: Language): Table =>
  (process.env.NODE_ENV !== "production" && module.pseudo?.[language]) || module.default;

/**
 * The resources a language's module holds: a table of their own, which routes' messages
 * join (a whole table, which nothing joins, as it is).
 */
export const resourcesOf = (module: LanguageModule, language: Language): Resources => ({
  language,
  table: module.routeMessages ? { ...tableIn(module, language) } : tableIn(module, language),
  fallbacks: pseudoIn(module, language) ? {} : { ...module.fallbacks },
  dateLocale: module.dateLocale,
  routes: module.routeMessages ?? null,
  arrived: new Map(),
});

const loading = new Map<Language, Promise<Resources>>();

/** A language's resources, fetched once (a failed fetch may be tried again). */
export const loadResources: LoadResources = (language) => {
  let resources = loading.get(language);
  if (!resources) {
    resources = import(`./tables/${tableModuleOf(language)}.ts`).then((module: LanguageModule) => resourcesOf(module, language));
    loading.set(language, resources);
    resources.catch(() => loading.delete(language));
  }
  return resources;
};

/**
 * `route`'s messages in `resources` (null for the not-found route, whose are the first load's):
 * null once they are there, else the promise of their coming (the same one until it
 * settles; a failed load may be asked again). `from`: their module's URL, when the host
 * named it (the first page's, in its boot state), null when it said the route has none of
 * its own; else the language's index says.
 */
export function routeMessages(resources: Resources, route: string | null, from?: string | null): Promise<void> | null {
  const index = resources.routes;
  if (route === null || !index) return null;
  if (from === null) {
    resources.arrived.set(route, true);
    return null;
  }
  const state = resources.arrived.get(route);
  if (state === true) return null;
  if (state) return state;
  const module: Promise<RouteMessagesModule | undefined> =
    from === undefined ? index().then(({ default: routes }) => routes[route]?.()) : import(/* the host's URL of this build's module */ from);
  const coming = module.then(
    (module) => {
      if (module) {
        Object.assign(resources.table, tableIn(module, resources.language));
        if (!pseudoIn(module, resources.language)) Object.assign(resources.fallbacks, module.fallbacks);
      }
      resources.arrived.set(route, true);
    },
    (error: unknown) => {
      resources.arrived.delete(route);
      throw error;
    },
  );
  resources.arrived.set(route, coming);
  return coming;
}

/** A language's resources with the messages of a page of `route`. */
export async function pageResources(language: Language, route: string | null): Promise<Resources> {
  const resources = await loadResources(language);
  await routeMessages(resources, route);
  return resources;
}
