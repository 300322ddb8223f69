// The two resources a language needs (its table and its date locale), each its own
// code-split chunk, so the browser fetches only the active language's. They are found by
// name, tables/<code>.ts and dateLocales/<code>.ts (esbuild bundles every file the
// pattern matches); the build refuses a listed language that lacks either.
import type { DateLocale } from "./dates";
import type { Language } from "./languages";
import type { Table } from "./table";
import { type TableModule, tableOf } from "./translate";

export interface Resources {
  table: Table;
  dateLocale: DateLocale;
}

export type LoadResources = (language: Language) => Promise<Resources>;

export const loadResources: LoadResources = async (language) => {
  const [table, dateLocale] = await Promise.all([
    import(`./tables/${language}.ts`) as Promise<TableModule>,
    import(`./dateLocales/${language}.ts`) as Promise<{ default: DateLocale }>,
  ]);
  return { table: tableOf(table), dateLocale: dateLocale.default };
};
