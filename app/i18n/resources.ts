// What a language needs (its table and its date locale) comes in one code-split chunk, so
// the browser fetches only the active language's, in one request. It is found by name,
// tables/<code>.ts, which exports the table and beside it the date locale (esbuild bundles
// every file the pattern matches); the build refuses a listed language that lacks either.
import type { DateLocale } from "./dates";
import declared from "./languages.json";
import type { Language } from "./languages";
import type { Table } from "./table";
import { type TableModule, tableOf } from "./translate";

export interface Resources {
  table: Table;
  dateLocale: DateLocale;
}

export type LoadResources = (language: Language) => Promise<Resources>;

/** A language's module as built: its table (with its parsed messages) and its date locale. */
export interface LanguageModule extends TableModule {
  dateLocale: DateLocale;
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

/** The resources a language's module holds (for `language`, a pseudo-language's, when it carries it). */
export const resourcesOf = (module: LanguageModule, language?: Language): Resources => ({
  table: (process.env.NODE_ENV !== "production" && language && module.pseudo?.[language]) || tableOf(module),
  dateLocale: module.dateLocale,
});

export const loadResources: LoadResources = async (language) =>
  resourcesOf((await import(`./tables/${tableModuleOf(language)}.ts`)) as LanguageModule, language);
