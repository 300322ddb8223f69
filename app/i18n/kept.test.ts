import assert from "node:assert/strict";
import { test } from "node:test";
import { keptIn, RECENT } from "./kept";

test("a kept map holds at most RECENT values, and makes each once while it holds it", () => {
  const kept = new Map<number, string>();
  let made = 0;
  const make = (key: number) => () => `${key}:${++made}`;
  for (let key = 0; key < RECENT; key++) keptIn(kept, key, make(key));
  assert.equal(keptIn(kept, 7, make(7)), "7:8", "kept, not made again");
  assert.equal(made, RECENT);
  keptIn(kept, RECENT, make(RECENT));
  assert.ok(kept.size <= RECENT, `${kept.size} kept`);
  for (let key = 0; key < 10 * RECENT; key++) keptIn(kept, key, make(key));
  assert.ok(kept.size <= RECENT, `${kept.size} kept`);
});
