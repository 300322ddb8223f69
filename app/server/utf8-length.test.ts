import assert from "node:assert/strict";
import { test } from "node:test";
import { utf8Length } from "./utf8-length";

test("a string's UTF-8 length is Node's, whatever it holds", () => {
  const texts = [
    "",
    "<div class=\"screen\">",
    "été à Noël — « guillemets » ‘’",
    "🇫🇷 \u{1f600} 日本語",
    "\ud800", // a lone high surrogate, at the end
    "a\udc00b", // a lone low surrogate
    "\ud800a", // a high surrogate not followed by a low one
    "\udbff\udfff", // the last pair
    "\udc00\ud800", // two units in the wrong order: two lone surrogates
    "\u007f\u0080\u07ff\u0800\uffff",
  ];
  for (const text of texts) assert.equal(utf8Length(text), Buffer.byteLength(text, "utf8"), JSON.stringify(text));
});

test("random strings of every kind of unit measure as Node measures them", () => {
  const units = [0x41, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x20ac, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff];
  let seed = 42;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  for (let round = 0; round < 2_000; round++) {
    const text = String.fromCharCode(...Array.from({ length: next() % 12 }, () => units[next() % units.length]));
    assert.equal(utf8Length(text), Buffer.byteLength(text, "utf8"), JSON.stringify(text));
  }
});
