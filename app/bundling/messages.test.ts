import assert from "node:assert/strict";
import { test } from "node:test";
import { formattersOf } from "../i18n/formatters";
import type { Params } from "../i18n/table";
import { readMessage } from "./messages";

/** `message` compiled as the build does, then run as the translator runs it. */
function format(message: string, locale: string, params: Params = {}): string {
  const { code } = readMessage(message);
  const compiled = new Function(`return ${code}`)() as string | ((a: Params, f: unknown) => string);
  return typeof compiled === "string" ? compiled : compiled(params, formattersOf(locale));
}

test("plural: exact cases first, then the locale's category, with # the number counted", () => {
  const m = "{n, plural, =0 {none} one {# thing} other {# things}}";
  assert.equal(format(m, "en-US", { n: 0 }), "none");
  assert.equal(format(m, "en-US", { n: 1 }), "1 thing");
  assert.equal(format(m, "fr-FR", { n: 1.5 }), "1,5 thing", "French counts 1.5 as one");
  assert.equal(format(m, "en-US", { n: 1500 }), "1,500 things");
  assert.equal(format("{n, plural, one {#} many {# de} other {# x}}", "fr-FR", { n: 1e6 }), "1\u202f000\u202f000 de");
  assert.equal(format("{n, plural, offset:1 =1 {you} one {you and # other} other {you and # others}}", "en-US", { n: 3 }), "you and 2 others");
  assert.equal(format("{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", "en-US", { n: 22 }), "22nd");
  assert.equal(format("{n, plural, one {# a {g, select, f {elle} other {il}}} other {#}}", "fr-FR", { n: 1, g: "f" }), "1 a elle");
});

test("select, arguments and number styles", () => {
  assert.equal(format("{g, select, f {elle} other {il}} a {n, number, percent}", "fr-FR", { g: "f", n: 0.5 }), "elle a 50\u00a0%");
  assert.equal(format("{n, number, integer} · {n, number, ::currency/EUR}", "en-US", { n: 2.5 }), "3 · €2.50");
  assert.equal(format("{who} {g, select, f {elle} other {il}}", "fr-FR", { who: "Zoé", g: "toString" }), "Zoé il", "only a case of its own");
  assert.equal(format("{n}", "fr-FR", { n: 1500 }), "1500", "a bare argument is written as it is");
});

test("text: ICU quoting is undone at build time; plain text is itself", () => {
  assert.deepEqual(readMessage("L’été, tout va bien"), {
    arguments: new Map(),
    plurals: [],
    code: '"L’été, tout va bien"',
    plain: true,
    text: "L’été, tout va bien",
  });
  const quoted = readMessage("it''s '{'here'}'");
  assert.equal(quoted.plain, false, "the source is not its text");
  assert.equal(quoted.text, "it's {here}", "its text, as the host writes it");
  assert.equal(format("it''s '{'here'}'", "en-US"), "it's {here}");
  assert.equal(readMessage("Hello {name}").text, null, "a message with an argument has no text of its own");
});

test("what ICU takes for text but a translator hardly means is refused: a stray }, an apostrophe quoting an argument", () => {
  assert.throws(() => readMessage("Cette application parle une langue}, puis l’autre"), /has a \} that closes nothing, at column 35: remove it, or write '\}'/);
  assert.throws(() => readMessage("{n, plural, one {# langue} other {# langues}}}"), /has a \} that closes nothing, at column 46/);
  assert.throws(() => readMessage("👋 {name}} !"), /at column 9:/, "columns count characters, as the parser's do");
  assert.throws(() => readMessage("Version d'{version}'"), /has an apostrophe at column 10 that quotes \{version…\} as text \(ICU quoting\)/);
  assert.throws(() => readMessage("l'{count, plural, one {#} other {#}} x"), /apostrophe at column 2 that quotes \{count…\}/, "unclosed, it quotes to the end");
  assert.throws(() => readMessage("{n, plural, one {l'{n}'} other {#}}"), /apostrophe at column 19 that quotes \{n…\}/, "in a case too");
  // What ICU quoting is for still builds: braces quoted one by one, a doubled or a typographic apostrophe.
  assert.equal(format("it''s '{'name'}' and '}'", "en-US"), "it's {name} and }");
  assert.equal(format("{n, plural, one {'#'{n}'#'} other {#}}", "en-US", { n: 1 }), "#1#");
  assert.equal(format("d''{version} et d’{version}", "fr-FR", { version: "1.2" }), "d'1.2 et d’1.2");
  assert.equal(format("l'été", "fr-FR"), "l'été", "an apostrophe before a letter is text");
});

test("arguments and their types", () => {
  const { arguments: args } = readMessage("{n, plural, one {#} other {# {n, number}}} {who} {g, select, a {} b {} other {}} {n}");
  assert.deepEqual([...args], [
    ["n", { kind: "number" }],
    ["who", { kind: "text" }],
    ["g", { kind: "select", cases: ["a", "b", "other"] }],
  ]);
});

test("what the translator cannot honour is refused, saying why", () => {
  assert.throws(() => readMessage("{d, date, short}"), /as a date, which would follow the browser's time zone/);
  assert.throws(() => readMessage("{d, time}"), /as a time/);
  assert.throws(() => readMessage("<b>x</b>"), /has the tag <b>, but t\(\) returns text/);
  assert.throws(() => readMessage("{g, select, a {x}}"), /selects on "g" without an `other` case/);
  assert.throws(() => readMessage("{n, number, money}"), /number style "money"/);
  assert.throws(() => readMessage("{n, plural, one {#} other {#}"), /is not valid ICU \(EXPECT_ARGUMENT_CLOSING_BRACE/);
  assert.throws(() => readMessage("{n, plural, one {#} other {#}} {n, select, a {} other {}}"), /both as a number and as a select/);
});
