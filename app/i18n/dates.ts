// Dates in a time zone, in a language: date-fns's pattern language (the tokens the app's
// patterns and the locales' long formats use), with the words taken from the language's
// date-fns locale and the wall-clock fields from Intl in the given zone. It does what
// date-fns's `format` does on a `TZDate` (its tests hold it to that) for a fraction of
// their size, which keeps both out of the first-load JavaScript. Only numbers come from
// Intl, so the server's ICU and the browser's cannot disagree on a word and spoil hydration.
import type { Locale } from "date-fns";
import { keptIn } from "./kept";

/**
 * What formatting needs of a date-fns locale: the bundles leave out its parsing and
 * distance code, and of its `localize` the era, the quarter and every day period but am
 * and pm (app/bundling/date-locales.mjs), so nothing else of it may be used.
 */
export type DateLocale = Pick<Locale, "code" | "formatLong" | "options"> & {
  localize: Pick<Locale["localize"], "ordinalNumber" | "month" | "day" | "dayPeriod" | "preprocessor">;
};

/** The wall clock in a zone at an instant. */
interface Clock {
  year: number;
  month: number; // 0–11
  day: number;
  weekday: number; // 0 = Sunday
  hours: number;
  minutes: number;
  seconds: number;
  offsetMinutes: number; // east of UTC
}

/** Per zone: what reads its wall clock, and the clocks read lately (a page shows the same
 * instants more than once, in more than one pattern). */
interface Zone {
  /** Absent for UTC, whose clock the Date's own UTC fields give at no cost. */
  reader?: Intl.DateTimeFormat;
  recent: Map<number, Clock>;
}
const zones = new Map<string, Zone>();

function zone(timeZone: string): Zone {
  let found = zones.get(timeZone);
  if (!found) {
    const reader = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    const utc = reader.resolvedOptions().timeZone === "UTC";
    found = { reader: utc ? undefined : reader, recent: new Map() };
    zones.set(timeZone, found);
  }
  return found;
}

function clockAt(instant: number, timeZone: string): Clock {
  // What a Date can hold (NaN fails the test too); date-fns throws the same.
  if (!(Math.abs(instant) <= 8.64e15)) throw new RangeError("Invalid time value");
  const { reader, recent } = zone(timeZone);
  const second = Math.floor(instant / 1000);
  return keptIn(recent, second, () => (reader ? readClock(reader, second * 1000) : utcClock(second * 1000)));
}

function utcClock(instant: number, offsetMinutes = 0): Clock {
  const date = new Date(instant);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth(),
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
    hours: date.getUTCHours(),
    minutes: date.getUTCMinutes(),
    seconds: date.getUTCSeconds(),
    offsetMinutes,
  };
}

/** The zone's wall clock as its fields, put together as a UTC time: that time minus the
 * instant is the zone's offset, and the rest of the clock is read from it. */
function readClock(reader: Intl.DateTimeFormat, instant: number): Clock {
  const field: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of reader.formatToParts(instant)) field[type] = value;
  const shown = Number(field.year);
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(field.era === "BC" || field.era === "B" ? 1 - shown : shown, Number(field.month) - 1, Number(field.day));
  asUtc.setUTCHours(Number(field.hour) % 24, Number(field.minute), Number(field.second), 0);
  return utcClock(asUtc.getTime(), Math.trunc((asUtc.getTime() - instant) / 60_000));
}

const pad = (n: number, length: number) => String(Math.abs(n)).padStart(length, "0");

const DAY_WIDTHS = ["abbreviated", "abbreviated", "abbreviated", "wide", "narrow", "short"] as const;

function offset(minutes: number, long: boolean): string {
  const sign = minutes > 0 ? "-" : "+"; // date-fns works with getTimezoneOffset's sign
  const absolute = Math.abs(minutes);
  const hours = Math.floor(absolute / 60);
  const rest = absolute % 60;
  if (long) return `${sign}${pad(hours, 2)}:${pad(rest, 2)}`;
  return rest === 0 ? `${sign}${hours}` : `${sign}${hours}:${pad(rest, 2)}`;
}

/** One token (a run of one letter) of the pattern. */
function token(letters: string, clock: Clock, locale: DateLocale): string {
  const { localize } = locale;
  const length = letters.length;
  const ordinal = letters.endsWith("o") && length > 1;
  const letter = letters[0];
  switch (letter) {
    case "y": {
      const year = clock.year > 0 ? clock.year : 1 - clock.year;
      if (ordinal) return localize.ordinalNumber(year, { unit: "year" });
      return length === 2 ? pad(year % 100, 2) : pad(year, length);
    }
    case "M":
    case "L": {
      const context = letter === "M" ? "formatting" : "standalone";
      if (ordinal) return localize.ordinalNumber(clock.month + 1, { unit: "month" });
      if (length <= 2) return pad(clock.month + 1, length);
      const width = length === 3 ? "abbreviated" : length === 5 ? "narrow" : "wide";
      return localize.month(clock.month as never, { width, context });
    }
    case "d":
      if (ordinal) return localize.ordinalNumber(clock.day, { unit: "date" });
      return pad(clock.day, length);
    case "E":
      return localize.day(clock.weekday as never, { width: DAY_WIDTHS[length - 1] ?? "wide", context: "formatting" });
    case "a": {
      const period = clock.hours >= 12 ? "pm" : "am";
      if (length === 3) return localize.dayPeriod(period, { width: "abbreviated", context: "formatting" }).toLowerCase();
      const width = length <= 2 ? "abbreviated" : length === 5 ? "narrow" : "wide";
      return localize.dayPeriod(period, { width, context: "formatting" });
    }
    case "h":
      if (ordinal) return localize.ordinalNumber(clock.hours % 12 || 12, { unit: "hour" });
      return pad(clock.hours % 12 || 12, length);
    case "H":
      if (ordinal) return localize.ordinalNumber(clock.hours, { unit: "hour" });
      return pad(clock.hours, length);
    case "m":
      if (ordinal) return localize.ordinalNumber(clock.minutes, { unit: "minute" });
      return pad(clock.minutes, length);
    case "s":
      if (ordinal) return localize.ordinalNumber(clock.seconds, { unit: "second" });
      return pad(clock.seconds, length);
    case "z":
      return `GMT${offset(-clock.offsetMinutes, length >= 4)}`;
    default:
      throw new RangeError(`the date pattern token "${letters}" is not supported`);
  }
}

const LONG_WIDTHS = ["short", "medium", "long", "full"] as const;

/** `P…` and `p…` (the locale's own date and time formats) expanded, quoted text kept. */
function expandLong(pattern: string, locale: DateLocale): string {
  const { formatLong } = locale;
  const width = (letters: string) => LONG_WIDTHS[Math.min(letters.length, 4) - 1];
  let expanded = "";
  for (const [piece] of pattern.matchAll(LONG_TOKENS)) {
    if (piece[0] !== "P" && piece[0] !== "p") {
      expanded += piece;
      continue;
    }
    const [, date, time] = /^(P*)(p*)$/.exec(piece) ?? [];
    if (!date) expanded += formatLong.time({ width: width(time) });
    else if (!time) expanded += formatLong.date({ width: width(date) });
    else
      expanded += formatLong
        .dateTime({ width: width(date) })
        .replace("{{date}}", formatLong.date({ width: width(date) }))
        .replace("{{time}}", formatLong.time({ width: width(time) }));
  }
  return expanded;
}

const LONG_TOKENS = /P+p+|P+|p+|''|'(''|[^'])+('|$)|./g;

/** A pattern's pieces, as date-fns cuts them: tokens, quoted text, anything else. */
const TOKENS = /[yMLdhHms]o|(\w)\1*|''|'(''|[^'])+('|$)|./g;
const SUPPORTED = /^(?:[yMLdhHms]o|y+|M+|L+|d+|E+|a+|h+|H+|m+|s+|z+)$/;

interface Part {
  isToken: boolean;
  value: string;
}
/** Patterns cut into parts, per locale: a page writes the same few patterns many times. */
const cutPatterns = new WeakMap<DateLocale, Map<string, Part[]>>();

function partsOf(pattern: string, locale: DateLocale): Part[] {
  let byPattern = cutPatterns.get(locale);
  if (!byPattern) cutPatterns.set(locale, (byPattern = new Map()));
  let parts = byPattern.get(pattern);
  if (!parts) {
    parts = [...expandLong(pattern, locale).matchAll(TOKENS)].map(([piece]) => {
      if (piece === "''") return { isToken: false, value: "'" };
      if (piece[0] === "'") return { isToken: false, value: piece.replace(/^'([^]*?)'?$/, "$1").replaceAll("''", "'") };
      if (!/[A-Za-z]/.test(piece[0])) return { isToken: false, value: piece };
      if (!SUPPORTED.test(piece)) throw new RangeError(`the date pattern token "${piece}" is not supported`);
      return { isToken: true, value: piece };
    });
    byPattern.set(pattern, parts);
  }
  return parts;
}

type Preprocessor = NonNullable<DateLocale["localize"]["preprocessor"]>;
/** A pattern's parts (as `partsOf` keeps them) as the locale rewrote them, per calendar day. */
const rewritten = new WeakMap<Part[], Map<number, Part[]>>();

/**
 * `parts` as the locale's preprocessor rewrites them for the clock's calendar day. It is
 * given a Date at local noon on that day, so what it gives depends on the day alone: kept,
 * since making that Date asks the host's time zone twice (~5% of a page of 200 dates).
 */
function rewrittenFor(clock: Clock, parts: Part[], preprocessor: Preprocessor): Part[] {
  let byDay = rewritten.get(parts);
  if (!byDay) rewritten.set(parts, (byDay = new Map()));
  const day = (clock.year * 12 + clock.month) * 31 + clock.day; // day is 1–31: one number per date
  return keptIn(byDay, day, () => {
    const date = new Date(2000, 0, 1, 12);
    date.setFullYear(clock.year, clock.month, clock.day); // unlike the constructor, no 19xx for years under 100
    return preprocessor(date, parts);
  });
}

/**
 * `instant` (milliseconds since the epoch) as the wall clock of `timeZone` shows it,
 * written with a date-fns pattern in `locale`: what `format(new TZDate(instant, timeZone),
 * pattern, { locale })` gives. Letters outside quotes are tokens; `'…'` is literal text.
 */
export function formatInZone(instant: number, timeZone: string, pattern: string, locale: DateLocale): string {
  const clock = clockAt(instant, timeZone);
  let parts = partsOf(pattern, locale);
  // A locale may rewrite the tokens for a date (French writes "1er mai" but "2 mai"); it
  // reads the calendar fields of the Date it is given, so it gets one with the zone's.
  const { preprocessor } = locale.localize;
  if (preprocessor) parts = rewrittenFor(clock, parts, preprocessor);
  let text = "";
  for (const part of parts) text += part.isToken ? token(part.value, clock, locale) : part.value;
  return text;
}
