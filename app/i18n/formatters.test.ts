import assert from "node:assert/strict";
import { test } from "node:test";
import { formattersOf } from "./formatters";
import { RECENT } from "./kept";

/** A plural's cases, each writing its category and the number it is given. */
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"] as const;
const cases = Object.fromEntries(CATEGORIES.map((name) => [name, (n: string) => `${name}:${n}`]));

const values = [
  ...Array.from({ length: 3 * RECENT }, (_, i) => i - 5),
  0.5,
  1.5,
  2.25,
  1e21,
  -1234.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];

test("numbers and plural forms, kept or not, are what Intl gives, past the bound of what is kept", () => {
  for (const locale of ["fr-FR", "en-US", "ar", "pl-PL"]) {
    const f = formattersOf(locale);
    const numbers = new Intl.NumberFormat(locale);
    const cardinal = new Intl.PluralRules(locale);
    const ordinal = new Intl.PluralRules(locale, { type: "ordinal" });
    // Twice over, in both directions: the second time, some come from what was kept.
    for (const round of [values, [...values].reverse(), values]) {
      for (const value of round) {
        const written = numbers.format(value);
        assert.equal(f.n(value), written, `${locale} ${value}`);
        assert.equal(f.p(value, 0, 0, cases), `${cardinal.select(value)}:${written}`, `${locale} ${value}`);
        assert.equal(f.p(value, 0, 1, cases), `${ordinal.select(value)}:${written}`, `${locale} ${value}th`);
      }
    }
  }
});

test("-0 is written as Intl writes it, even after 0 (a Map key does not tell them apart)", () => {
  const f = formattersOf("en-US");
  assert.equal(f.n(0), "0");
  assert.equal(f.n(-0), new Intl.NumberFormat("en-US").format(-0));
  assert.equal(f.p(-0, 0, 0, cases), `${new Intl.PluralRules("en-US").select(-0)}:${new Intl.NumberFormat("en-US").format(-0)}`);
  assert.equal(f.n(0), "0");
});

test("a number with options is written with them, not as a plain number kept before", () => {
  const f = formattersOf("fr-FR");
  assert.equal(f.n(0.5), new Intl.NumberFormat("fr-FR").format(0.5));
  assert.equal(f.n(0.5, { style: "percent" }), new Intl.NumberFormat("fr-FR", { style: "percent" }).format(0.5));
});
