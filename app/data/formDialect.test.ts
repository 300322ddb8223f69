import assert from "node:assert/strict";
import { test } from "node:test";
import cases from "./form-cases.json";
import limits from "./form-limits.json";
import { formProblem } from "./formDialect";

// The host runs the same cases through its own engine (host/manifest/forms.rs).
test("a form in the dialect takes the same values in JavaScript as in the host", () => {
  assert.ok(cases.length >= 30);
  for (const { form, value, matches } of cases) {
    assert.equal(formProblem(form, "u"), null, form);
    assert.equal(new RegExp(form, "u").test(value), matches, `${form} on ${JSON.stringify(value)}`);
  }
});

test("a form at the limits is in the dialect (the host compiles each: host/manifest/forms.rs)", () => {
  for (const form of limits) assert.equal(formProblem(form, "u"), null, form);
});

test("a form outside the dialect is refused, saying what to write instead", () => {
  for (const [form, flags, reason] of [
    ["^a$", "", /give it the u flag alone/],
    ["^a$", "ui", /give it the u flag alone/],
    ["a", "u", /anchor it/],
    ["^a\\$", "u", /anchor it/],
    ["^a|b", "u", /anchor it/],
    ["^a|b$", "u", /group the alternatives/],
    ["^.$", "u", /"\." is not read alike/],
    ["^\\w+$", "u", /write \[A-Za-z0-9_\]/],
    ["^\\s$", "u", /in a class/],
    ["^\\bx$", "u", /anchor the whole value/],
    ["^\\p{L}+$", "u", /"\\p" is not read alike/],
    ["^(a)\\1$", "u", /"\\1" is not read alike/],
    ["^(?<name>a)$", "u", /look-arounds and named groups/],
    ["^(?<=a)b$", "u", /look-arounds and named groups/],
    ["^(?i:a)$", "u", /look-arounds and named groups/],
    ["^[a--b]$", "u", /"--" in a class is a set operation/],
    ["^[a~~b]$", "u", /"~~" in a class/],
    ["^a^b$", "u", /only at the ends/],
    ["^a{2}{3}$", "u", /repeats a repetition/],
    ["^a+*$", "u", /repeats a repetition/],
    ["^*a$", "u", /repeats nothing/],
    ["^(a$", "u", /not closed/],
    ["^[^]$", "u", /any character/],
    ["^[a&&b]$", "u", /write "&" once/],
    ["^[a--b]$", "u", /write a dash as/],
    ["^\uD800$", "u", /lone surrogate/],
    ["^a{1001}$", "u", /repeats more than 1000 times/],
    ["^a{2,4294967296}$", "u", /repeats more than 1000 times/],
    ["^(?:[^/]{1,100}){1,100}$", "u", /more than 1000 copies/],
    ["^(?:(?:a{10}){10}){11}$", "u", /more than 1000 copies/],
    [`^${"(?:".repeat(17)}a${")".repeat(17)}$`, "u", /nest deeper than 16/],
  ] as const) {
    const problem = formProblem(form, flags);
    assert.ok(problem !== null && reason.test(problem), `${form}/${flags}: ${problem}`);
  }
});
