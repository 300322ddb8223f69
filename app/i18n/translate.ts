// Translation lookup: a missing key yields "" (and a warning in development builds); a
// function entry is called with the parameters; a string entry is an ICU message, parsed
// at build time and formatted for the language's locale (./icu.ts).
import { type MessageFormatElement, parse } from "@formatjs/icu-messageformat-parser";
import { formatMessage } from "./icu";
import type { Params, Table } from "./table";

export type Translate = (key: string, params?: Params) => string;

const warnedKeys = new Set<string>();

function warnMissing(key: string, locale: string): void {
  if (process.env.NODE_ENV === "production" || warnedKeys.has(`${locale}:${key}`)) return;
  warnedKeys.add(`${locale}:${key}`);
  console.warn(`[i18n] missing translation key "${key}" for ${locale}`);
}

type CompiledMessages = Readonly<Record<string, MessageFormatElement[]>>;
const compiledTables = new WeakMap<Table, CompiledMessages>();

/**
 * Called with each table's messages as parsed at build time; a message the build left out
 * is plain text, its own output.
 */
export function registerCompiledMessages(table: Table, compiled: CompiledMessages): void {
  compiledTables.set(table, compiled);
}

/** A table module as built (app/bundle.mjs): the table, and beside it its parsed messages. */
export interface TableModule {
  default: Table;
  compiledMessages?: CompiledMessages;
}

/** The table of a built table module, its parsed messages registered. */
export function tableOf(module: TableModule): Table {
  if (module.compiledMessages) registerCompiledMessages(module.default, module.compiledMessages);
  return module.default;
}

const translators = new WeakMap<Table, Map<string, Translate>>();

/**
 * `t(key, params)`: a missing key yields "", a function entry is called with the
 * parameters, a string entry is an ICU message formatted for `locale`. Compiled
 * formatters are kept per translator, and one translator per (table, locale).
 */
export function createTranslator(table: Table, locale: string): Translate {
  let byLocale = translators.get(table);
  if (!byLocale) translators.set(table, (byLocale = new Map()));
  const existing = byLocale.get(locale);
  if (existing) return existing;

  const messages = new Map<string, MessageFormatElement[]>();
  const compiled = compiledTables.get(table);
  const t: Translate = (key, params = {}) => {
    const entry = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
    if (entry === undefined) {
      warnMissing(key, locale);
      return "";
    }
    if (typeof entry === "function") return entry(params);
    if (compiled && !Object.prototype.hasOwnProperty.call(compiled, key)) return entry;
    let message = messages.get(key);
    if (!message) {
      // Parsed here only outside the bundles (the unit tests): the build parses every table.
      message = compiled?.[key] ?? parse(entry);
      messages.set(key, message);
    }
    return formatMessage(message, locale, params);
  };
  byLocale.set(locale, t);
  return t;
}
