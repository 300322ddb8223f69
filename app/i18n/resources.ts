// The two resources a language needs (its table and its date locale), each its own
// code-split chunk, so the browser fetches only the active language's. They are found by
// name, tables/<code>.ts and dateLocales/<code>.ts (esbuild bundles every file the
// pattern matches); the build refuses a listed language that lacks either.
import type { Locale } from "date-fns";
import type { Language } from "./languages";
import type { Table } from "./table";

export interface Resources {
  table: Table;
  dateLocale: Locale;
}

export type LoadResources = (language: Language) => Promise<Resources>;

export const loadResources: LoadResources = async (language) => {
  const [table, dateLocale] = await Promise.all([
    import(`./tables/${language}.ts`) as Promise<{ default: Table }>,
    import(`./dateLocales/${language}.ts`) as Promise<{ default: Locale }>,
  ]);
  return { table: table.default, dateLocale: dateLocale.default };
};
