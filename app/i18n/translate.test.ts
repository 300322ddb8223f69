import assert from "node:assert/strict";
import { test } from "node:test";
import type { Table } from "./table";
import { createTranslator } from "./translate";
import en from "./tables/en";
import fr from "./tables/fr";

test("a missing key yields an empty string, through the escape hatch too", () => {
  const t = createTranslator({ present: "ici" }, "fr-FR");
  assert.equal(t.dynamic("absent"), "");
  for (const inherited of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
    assert.equal(t.dynamic(inherited), "", `${inherited}: inherited properties are not entries`);
    assert.equal(t.text(inherited as never), "", inherited);
  }
  const own = createTranslator(JSON.parse('{"toString": "à soi", "__proto__": "aussi"}') as Table, "fr-FR");
  assert.equal(own.dynamic("toString"), "à soi", "a table's own message of that name is its own");
  assert.equal(own.dynamic("__proto__"), "aussi");
  const ownFunction = createTranslator({ constructor: () => "construit" }, "fr-FR");
  assert.equal(ownFunction.dynamic("constructor"), "construit");
  assert.equal(t.dynamic("present"), "ici");
  // @ts-expect-error: a key the catalogue lacks fails the type check; at run time it is "".
  assert.equal(createTranslator(fr, "fr-FR")("home.nowhere"), "");
});

test("a function entry is called with the parameters and its result is used", () => {
  const seen: unknown[] = [];
  const table: Table = { greet: (p: { name: string }) => (seen.push(p), `Bonjour ${p.name}`) };
  assert.equal(createTranslator(table, "fr-FR").dynamic("greet", { name: "Zoé" }), "Bonjour Zoé");
  assert.deepEqual(seen, [{ name: "Zoé" }]);
});

test("the tables' messages come compiled from the build, with per-locale plurals", () => {
  assert.equal(typeof fr["home.languages"], "function", "compiled by the build, not a message to parse");
  assert.equal(typeof fr["home.heading"], "string", "plain text stays text");
  const tFr = createTranslator(fr, "fr-FR");
  const tEn = createTranslator(en, "en-US");
  assert.equal(tFr("home.languages", { count: 1 }), "Cette application parle 1 langue.");
  assert.equal(tFr("home.languages", { count: 2 }), "Cette application parle 2 langues.");
  assert.equal(tFr("home.languages", { count: 1_000_000 }), "Cette application parle 1\u202f000\u202f000 de langues.");
  assert.equal(tEn("home.languages", { count: 1 }), "This application speaks 1 language.");
  assert.equal(tEn("home.clicks", { count: 0 }), "No clicks yet");
  assert.equal(tFr("home.clicks", { count: 1500 }), "1\u202f500 clics");
  assert.equal(tEn("home.clicks", { count: 1500 }), "1,500 clicks");
  assert.equal(tFr("status.ok", { version: "1.2", time: "10:00" }), "Le serveur répond : version 1.2, 10:00.");
  assert.equal(tFr("home.heading"), "Bienvenue sur Bilingue");
});

test("one translator per table and locale", () => {
  assert.equal(createTranslator(fr, "fr-FR"), createTranslator(fr, "fr-FR"));
  assert.notEqual(createTranslator(fr, "fr-FR"), createTranslator(fr, "en-US"));
});

test("the French and English tables have the same keys", () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(fr).sort());
});
