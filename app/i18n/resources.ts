// The two resources a language needs (its table and its date locale), each its own
// code-split chunk, so the browser fetches only the active language's.
import type { Locale } from "date-fns";
import type { Language } from "./languages";
import type { Table } from "./table";

export interface Resources {
  table: Table;
  dateLocale: Locale;
}

export type LoadResources = (language: Language) => Promise<Resources>;

const tables: Record<Language, () => Promise<{ default: Table }>> = {
  fr: () => import("./tables/fr"),
  en: () => import("./tables/en"),
};

const dateLocales: Record<Language, () => Promise<{ default: Locale }>> = {
  fr: () => import("./dateLocales/fr"),
  en: () => import("./dateLocales/en"),
};

export const loadResources: LoadResources = async (language) => {
  const [table, dateLocale] = await Promise.all([tables[language](), dateLocales[language]()]);
  return { table: table.default, dateLocale: dateLocale.default };
};

export const languagesWithLoaders = (): string[] => Object.keys(tables).filter((l) => l in dateLocales);
