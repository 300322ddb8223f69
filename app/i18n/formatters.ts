// What a compiled message calls (app/bundling/messages.ts writes the calls): numbers, plural
// and select, with Intl's number formats and plural rules for one locale. This is the whole
// of the message runtime in the browser: no ICU parser, no interpreter. The server and the
// browser run the same compiled functions on the same Intl data, so a hydrated page
// writes what the server wrote.
import { keptIn } from "./kept";

/** The helpers a compiled message is called with, bound to one locale. */
export interface Formatters {
  /** A number, with Intl.NumberFormat options. */
  n(value: unknown, options?: Intl.NumberFormatOptions): string;
  /** A plural (ordinal when `ordinal` is 1): an exact `=value` case, else the locale's category, else `other`; each case is given `#`, the number counted, written. */
  p(value: unknown, offset: number, ordinal: number, cases: Record<string, (n: string) => string>): string;
  /** A select: the case named by the value, else `other`. */
  s(value: unknown, cases: Record<string, () => string>): string;
}

const byLocale = new Map<string, Formatters>();

const own = <T>(cases: Record<string, T>, name: string): T | undefined =>
  Object.prototype.hasOwnProperty.call(cases, name) ? cases[name] : undefined;

/** The formatters of `locale`, made once. */
export function formattersOf(locale: string): Formatters {
  let formatters = byLocale.get(locale);
  if (formatters) return formatters;
  const numberFormats = new Map<string, Intl.NumberFormat>();
  const rules: Intl.PluralRules[] = [];
  const numberFormat = (options?: Intl.NumberFormatOptions) => {
    const key = options ? JSON.stringify(options) : "";
    let format = numberFormats.get(key);
    if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)));
    return format;
  };
  // Intl's answers for the numbers written without options and the plural forms, kept
  // (a Map key cannot tell -0 from 0, which are written "-0" and "0": -0 is not kept).
  const plainlyWritten = new Map<number, string>();
  const written = (number: number) =>
    Object.is(number, -0) ? numberFormat().format(number) : keptIn(plainlyWritten, number, () => numberFormat().format(number));
  const categories = [new Map<number, string>(), new Map<number, string>()];
  const category = (number: number, ordinal: number) => {
    const kind = ordinal ? 1 : 0;
    rules[kind] ??= new Intl.PluralRules(locale, { type: kind ? "ordinal" : "cardinal" });
    return keptIn(categories[kind], number, () => rules[kind].select(number));
  };
  formatters = {
    n: (value, options) => (options ? numberFormat(options).format(Number(value)) : written(Number(value))),
    p(value, offset, ordinal, cases) {
      const number = Number(value);
      const counted = number - offset;
      const chosen = own(cases, `=${number}`) ?? own(cases, category(counted, ordinal)) ?? cases.other;
      return chosen(written(counted));
    },
    s: (value, cases) => (own(cases, String(value)) ?? cases.other)(),
  };
  byLocale.set(locale, formatters);
  return formatters;
}
