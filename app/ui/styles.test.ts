import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

declare const BILINGUE_TEST_ROOT: string;

test("the styles name sides by the text's direction (logical properties), never left or right", () => {
  const css = readFileSync(path.join(BILINGUE_TEST_ROOT, "app/ui/styles.css"), "utf8");
  const physical = css.split("\n").filter((line) => /\b(left|right)\b|-(left|right)\b|\b(top|bottom)\s*:/.test(line));
  assert.deepEqual(physical, []);
});
