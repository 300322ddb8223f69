import assert from "node:assert/strict";
import { test } from "node:test";
import { data as serverStatus } from "../ui/Status";
import { integer, list, object, oneOf, string } from "./shape";

const good = { version: "1.2.3", languages: ["fr", "en"], serverTime: "2030-01-02T03:04:05.000Z" };

test("data of the declared shape is kept, and nothing else of it", () => {
  assert.deepEqual(serverStatus({ ...good, extra: [[[1]]] }), good);
});

test("data a screen cannot use is refused, saying what is wrong and where", () => {
  for (const [value, reason] of [
    [{ unexpected: true }, /: the status: "version" is not a string$/],
    [[], /: the status is not an object$/],
    ["text", /not an object/],
    [null, /not an object/],
    [{ ...good, languages: "fr" }, /"languages" is not a list/],
    [{ ...good, languages: ["fr", 2] }, /the status: "languages"\[1\] is not a string/],
    [{ ...good, serverTime: "yesterday" }, /"serverTime" is not a time/],
  ] as const) {
    assert.throws(() => serverStatus(value, "the status"), reason, JSON.stringify(value));
  }
});

test("integers and listed words are checked too", () => {
  const shape = object({ count: integer, direction: oneOf("ltr", "rtl"), tags: list(string) });
  assert.deepEqual(shape({ count: 2, direction: "rtl", tags: [] }), { count: 2, direction: "rtl", tags: [] });
  assert.throws(() => shape({ count: 1.5, direction: "rtl", tags: [] }), /"count" is not an integer/);
  assert.throws(() => shape({ count: 1, direction: "up", tags: [] }), /"direction" is not one of "ltr", "rtl"/);
});
