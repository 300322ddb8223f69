import assert from "node:assert/strict";
import { test } from "node:test";
import { TZDate } from "@date-fns/tz";
import { format, type Locale } from "date-fns";
import { ar, de, enUS, es, fr, ja } from "date-fns/locale";
import { formatInZone } from "./dates";

// date-fns's `format` on a `TZDate` is the reference: the app used it before, and the
// dates it wrote must read the same now.
const ZONES = ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "America/St_Johns", "Australia/Lord_Howe", "Pacific/Kiritimati"];
const INSTANTS = [
  Date.UTC(2026, 10, 22, 13, 5, 9),
  Date.UTC(2026, 2, 29, 0, 59, 59), // Paris springs forward at 01:00 UTC
  Date.UTC(2026, 2, 29, 1, 0, 0),
  Date.UTC(2026, 9, 25, 0, 30, 0), // and falls back at 01:00 UTC
  Date.UTC(2026, 9, 25, 1, 30, 0),
  Date.UTC(2026, 2, 8, 7, 0, 0), // New York springs forward
  Date.UTC(1999, 11, 31, 23, 59, 59, 999),
  Date.UTC(2000, 0, 1, 0, 0, 0, 1),
  Date.UTC(2024, 1, 29, 12, 0, 0),
  Date.UTC(1970, 0, 1, 0, 0, 0),
  Date.UTC(1969, 11, 31, 23, 59, 59, 500),
  Date.UTC(2038, 0, 19, 3, 14, 8),
  Date.UTC(2026, 0, 1, 11, 0, 0), // noon in some zones, midnight in others
  Date.UTC(2026, 6, 4, 23, 0, 0),
  Date.UTC(870, 5, 15, 8, 0, 0), // local mean times, offsets in seconds
  Date.UTC(1890, 3, 1, 18, 0, 0),
  Date.UTC(52, 1, 29, 10, 0, 0), // a year under 100, on a leap day
  Date.UTC(2026, 4, 1, 10, 0, 0), // "1er mai"
];
const LOCALES: Locale[] = [fr, enUS, de, es, ja, ar];
const PATTERNS = [
  "PPPP",
  "p",
  "PPpp",
  "P",
  "PP",
  "PPP",
  "Pp",
  "PPPppp",
  "PPPPpppp",
  "pp",
  "ppp",
  "pppp",
  "EEEE d MMMM yyyy 'à' HH:mm:ss",
  "E EE EEE EEEEE EEEEEE",
  "h:mm a, hh:mm aa, aaa aaaa aaaaa",
  "do MMM yy, Mo, yo, Ho, ho, mo, so",
  "M MM MMM MMMM MMMMM L LL LLL LLLL LLLLL",
  "d dd y yy yyy yyyy yyyyy",
  "z zz zzz zzzz",
  "'quoted P and p' P",
  "'it''s' h 'o''clock' '' ''''",
  "'unterminated",
  "yyyy-MM-dd'T'HH:mm:ss",
  "[d/M/y] {H.m.s} – ·",
];

test("dates read as date-fns wrote them, in every zone, language and pattern", () => {
  let compared = 0;
  for (const locale of LOCALES)
    for (const zone of ZONES)
      for (const instant of INSTANTS)
        for (const pattern of PATTERNS) {
          const expected = format(new TZDate(instant, zone), pattern, { locale });
          assert.equal(formatInZone(instant, zone, pattern, locale), expected, `${locale.code} ${zone} ${new Date(instant).toISOString()} ${pattern}`);
          compared++;
        }
  assert.ok(compared > 5000);
});

test("an unknown pattern letter is refused, as date-fns refuses it", () => {
  assert.throws(() => format(new TZDate(0, "UTC"), "d f", { locale: fr }), RangeError);
  assert.throws(() => formatInZone(0, "UTC", "d f", fr), RangeError);
  assert.throws(() => formatInZone(0, "UTC", "oo", fr), RangeError);
  assert.throws(() => formatInZone(0, "UTC", "d Q", fr), RangeError, "quarters are not among the supported tokens");
});

test("an instant no Date can hold is refused, as date-fns refuses it", () => {
  for (const instant of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) {
    assert.throws(() => format(new TZDate(instant, "UTC"), "PPpp", { locale: fr }), RangeError);
    for (const zone of ["UTC", "Europe/Paris"]) assert.throws(() => formatInZone(instant, zone, "PPpp", fr), RangeError, `${instant} ${zone}`);
  }
});

test("the same instant reads the same however often it is asked, in any zone", () => {
  for (let round = 0; round < 3; round++)
    for (const zone of ZONES)
      for (const instant of INSTANTS) assert.equal(formatInZone(instant, zone, "PPPPpppp", enUS), format(new TZDate(instant, zone), "PPPPpppp", { locale: enUS }));
});

test("a locale's rewrite for one day is never given to another", () => {
  // French writes the first of the month "1er", any other day as a number: asked in turns.
  const first = Date.UTC(2026, 4, 1, 10, 0, 0);
  const second = Date.UTC(2026, 4, 2, 10, 0, 0);
  for (let round = 0; round < 3; round++) {
    assert.equal(formatInZone(first, "Europe/Paris", "do MMMM", fr), "1er mai");
    assert.equal(formatInZone(second, "Europe/Paris", "do MMMM", fr), "2 mai");
    assert.equal(formatInZone(Date.UTC(2027, 4, 1, 10), "Europe/Paris", "do MMMM", fr), "1er mai");
  }
});

test("an unknown time zone is refused", () => {
  assert.throws(() => formatInZone(0, "Mars/Olympus_Mons", "p", fr), RangeError);
});
