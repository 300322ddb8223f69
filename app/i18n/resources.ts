// What a language needs (its table and its date locale) comes in one code-split chunk, so
// the browser fetches only the active language's, in one request. It is found by name,
// tables/<code>.ts, which exports the table and beside it the date locale (esbuild bundles
// every file the pattern matches); the build refuses a listed language that lacks either.
import type { DateLocale } from "./dates";
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
}

/** The resources a language's module holds. */
export const resourcesOf = (module: LanguageModule): Resources => ({ table: tableOf(module), dateLocale: module.dateLocale });

export const loadResources: LoadResources = async (language) =>
  resourcesOf((await import(`./tables/${language}.ts`)) as LanguageModule);
