import assert from "node:assert/strict";
import { test } from "node:test";
import { serverStatus } from "./serverStatus";

const good = { version: "1.2.3", languages: ["fr", "en"], serverTime: "2030-01-02T03:04:05.000Z" };

test("a status of the expected shape is kept, and nothing else of it", () => {
  assert.deepEqual(serverStatus({ ...good, extra: [[[1]]] }), good);
});

test("a status the screen cannot use is refused with what is wrong", () => {
  for (const [value, reason] of [
    [{ unexpected: true }, /"version" is not a string/],
    [[], /not an object/],
    ["text", /not an object/],
    [null, /not an object/],
    [{ ...good, languages: "fr" }, /"languages" is not a list of strings/],
    [{ ...good, languages: [1, 2] }, /"languages" is not a list of strings/],
    [{ ...good, serverTime: "yesterday" }, /"serverTime" is not a time/],
  ] as const) {
    assert.throws(() => serverStatus(value), reason, JSON.stringify(value));
  }
});
