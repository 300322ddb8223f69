import assert from "node:assert/strict";
import { test } from "node:test";
import { checkDepth, MAX_DATA_DEPTH } from "./usable";

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

test("data nested up to the limit is kept; one level more is refused", () => {
  checkDepth(nested(MAX_DATA_DEPTH));
  assert.throws(() => checkDepth(nested(MAX_DATA_DEPTH + 1)), /nested more than 64 levels deep/);
});

test("data nested 100,000 deep is refused without overflowing the stack", () => {
  assert.throws(() => checkDepth(nested(100_000)), /nested more than 64 levels deep/);
});
