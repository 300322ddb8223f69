// Formats an ICU message as the build parsed it (FormatJS's element tree): text,
// arguments, numbers (plain, `integer`, `percent` or a `::skeleton`), `select`, `plural`
// and `selectordinal` (exact `=n` cases, `offset:`, `#`), with Intl's plural rules and
// number formats for the locale. It replaces intl-messageformat in the first load at a
// fraction of its size; dates, times and rich-text tags are refused with the key's name
// (a unit test formats every message of every table).
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type { Params } from "./table";

// FormatJS's element types (its `TYPE` enum, whose module is not part of the first load).
const LITERAL = 0;
const ARGUMENT = 1;
const NUMBER = 2;
const SELECT = 5;
const PLURAL = 6;
const POUND = 7;

const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

function pluralRule(locale: string, type: Intl.PluralRuleType = "cardinal"): Intl.PluralRules {
  const key = `${locale} ${type}`;
  let rules = pluralRules.get(key);
  if (!rules) pluralRules.set(key, (rules = new Intl.PluralRules(locale, { type })));
  return rules;
}

const NUMBER_STYLES: Record<string, Intl.NumberFormatOptions> = { integer: { maximumFractionDigits: 0 }, percent: { style: "percent" } };

/** `elements` in `locale` with `params`; `pound` is the number a `#` stands for. */
export function formatMessage(elements: readonly MessageFormatElement[], locale: string, params: Params, pound?: number): string {
  let out = "";
  for (const element of elements) {
    switch (element.type) {
      case LITERAL:
        out += element.value;
        break;
      case ARGUMENT:
        out += String(argument(params, element.value));
        break;
      case NUMBER: {
        const { style } = element;
        const options = typeof style === "string" ? NUMBER_STYLES[style] : (style?.parsedOptions ?? {});
        if (!options) throw new Error(`the number style "${style}" is not supported`);
        out += numberFormat(locale, options).format(Number(argument(params, element.value)));
        break;
      }
      case POUND:
        out += numberFormat(locale).format(pound ?? 0);
        break;
      case SELECT: {
        const chosen = element.options[String(argument(params, element.value))] ?? element.options.other;
        out += formatMessage(chosen.value, locale, params, pound);
        break;
      }
      case PLURAL: {
        const value = Number(argument(params, element.value));
        const counted = value - element.offset;
        const chosen =
          element.options[`=${value}`] ?? element.options[pluralRule(locale, element.pluralType).select(counted)] ?? element.options.other;
        out += formatMessage(chosen.value, locale, params, counted);
        break;
      }
      default:
        throw new Error(`a message element of type ${element.type} (a date, a time or a tag) is not supported`);
    }
  }
  return out;
}

function argument(params: Params, name: string): Params[string] {
  if (!(name in params)) throw new Error(`the message's argument "${name}" was not given`);
  return params[name];
}
