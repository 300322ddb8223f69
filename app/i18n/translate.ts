// Translation lookup: a missing key yields "" (and a warning in development builds); a
// compiled message is called with the parameters. The build has compiled every ICU message
// to such a function (app/bundling/catalogue.mjs), so nothing is parsed here, and it
// declares every key with its arguments (./messages.generated.ts): `t` is typed with them.
// A message the page's language lacks is another's (its chain's: a variant's parent, then
// the default language): `t` gives it in an element that says so (`<span lang="fr">`,
// W3C's "Declaring language in HTML"), formatted as its own language formats it; `t.text`
// gives the text alone, where no element can say it (an attribute, a title).
import { createElement, type ReactElement } from "react";
import { formattersOf } from "./formatters";
import { LANGUAGES } from "./languages";
import type { Messages } from "./messages.generated";
import type { Params, Table } from "./table";

export type { Messages, PlainKey } from "./messages.generated";

/** A key of the catalogue. */
export type MessageKey = keyof Messages;

/**
 * What `t(key, …)` takes after the key: nothing, or the message's arguments. A key not in
 * the catalogue leaves K at every key, whose arguments are then optional, so the error is
 * the key, not a number of arguments. Not distributed over K: that would cost the type
 * check a union as large as the catalogue at each call (BENCHMARKS.md).
 */
export type ArgumentsOf<K extends keyof M, M = Messages> = M[K] extends null ? [] : null extends M[K] ? [params?: unknown] : [params: M[K]];

/**
 * What `t` gives: the message's text; or, for a message that is another language's (the
 * page's language lacks it), that text in an element with that language's `lang`.
 */
export type Message = string | ReactElement;

/** `t` for a catalogue's declarations `M` (the corpus checks its own with it). */
export interface TranslateOf<M> {
  /** The message `key` with its arguments, checked by the type check. */
  <K extends keyof M>(key: K, ...params: ArgumentsOf<K, M>): Message;
  /** The message's text alone: for an attribute, a title, a notification. */
  text<K extends keyof M>(key: K, ...params: ArgumentsOf<K, M>): string;
  /**
   * The escape hatch for a key built at run time: no type check, and, as for every
   * lookup, a key the table lacks yields "". Grep for `t.dynamic(` to find them all.
   */
  dynamic(key: string, params?: Params): Message;
}

/** `t` for the app's catalogue. */
export type Translate = TranslateOf<Messages>;

const warnedKeys = new Set<string>();

function warnMissing(key: string, locale: string): void {
  if (process.env.NODE_ENV === "production" || warnedKeys.has(`${locale}:${key}`)) return;
  warnedKeys.add(`${locale}:${key}`);
  console.warn(`[i18n] missing translation key "${key}" for ${locale}`);
}

/** A table module as built: the table (its messages compiled to functions). */
export interface TableModule {
  default: Table;
}

/** The table of a built table module. */
export const tableOf = (module: TableModule): Table => module.default;

const translators = new WeakMap<Table, Map<string, Translate>>();

/**
 * No message is another language's: a translator given this one never looks a key up in
 * it (a page of a complete language, on the server, whose resources never change).
 */
export const NO_FALLBACKS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * `t(key, params)` for `table` in `locale`: a missing key yields "", a compiled message
 * is called with the parameters, a string entry is its own text. `fallbacks`: the keys
 * whose message is another language's, and whose (a partial language's, a variant's);
 * `direction`, the page's. One translator per (table, locale).
 */
export function createTranslator(
  table: Table,
  locale: string,
  fallbacks: Readonly<Record<string, string>> = NO_FALLBACKS,
  direction: "ltr" | "rtl" = "ltr",
): Translate {
  let byLocale = translators.get(table);
  if (!byLocale) translators.set(table, (byLocale = new Map()));
  const existing = byLocale.get(locale);
  if (existing) return existing;

  const formatters = formattersOf(locale);
  // A page asks its table for every text it shows (~150 on a real-size screen), so a key
  // is read once where `hasOwnProperty` then a read made two lookups: a string is always
  // the table's own (Object.prototype has no string property), and only a function, which
  // could be Object.prototype's (`"toString"`), is checked to be its own. The same holds
  // of the fallbacks, whose values are language codes.
  const fallbackFor = (key: string) => {
    const code = fallbacks === NO_FALLBACKS ? undefined : fallbacks[key];
    return typeof code === "string" ? LANGUAGES.find((language) => language.code === code) : undefined;
  };
  const text = (key: string, params?: Params): string => {
    const entry = table[key];
    if (typeof entry === "string") return entry;
    if (typeof entry !== "function" || !Object.hasOwn(table, key)) {
      warnMissing(key, locale);
      return "";
    }
    const from = fallbackFor(key);
    return (entry as (params: Params, f: typeof formatters) => string)(params ?? {}, from ? formattersOf(from.locale) : formatters);
  };
  const message = (key: string, params?: Params): Message => {
    const written = text(key, params);
    const from = fallbackFor(key);
    if (!from || written === "") return written;
    return createElement(
      "span",
      {
        lang: from.code,
        dir: from.direction !== direction ? from.direction : undefined,
        // Development shows each message another language's stands in for (styles.css).
        "data-fallback": process.env.NODE_ENV === "production" ? undefined : "",
      },
      written,
    );
  };
  // The parameters are taken as one argument, not gathered (`...params`): an array less
  // at each of a page's calls. The type check holds the calls to `Translate`'s signatures.
  const t = Object.assign((key: string, params?: Params) => message(key, params), {
    text: (key: string, params?: Params) => text(key, params),
    dynamic: message,
  }) as unknown as Translate;
  byLocale.set(locale, t);
  return t;
}
