import assert from "node:assert/strict";
import { test } from "node:test";
import { handedOver } from "./test-host";
import type { RenderResult } from "../boot";
import { finishNow } from "./exchange";

const page = (data?: unknown) => ({ html: "<p>x</p>", result: { status: 200, title: "t", description: "d", sharing: { kind: "private" }, data } as RenderResult });

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

test("a page whose data cannot be written fails alone, and its markup goes apart from its JSON", () => {
  finishNow(1, page());
  finishNow(2, page({ ok: true, data: nested(100_000) }));
  finishNow(3, page());
  const handed = handedOver();
  assert.deepEqual(
    handed.map((h) => [h.op, "job" in h ? h.job : null]),
    [["rendered", 1], ["failed", 2], ["rendered", 3]],
  );
  assert.match(handed[1].op === "failed" ? handed[1].why : "", /could not be handed to the host: Maximum call stack size exceeded/);
  const first = handed[0];
  assert.ok(first.op === "rendered" && first.html === "<p>x</p>" && !first.json.includes("<p>"), "markup is never in the JSON");
  assert.deepEqual(handedOver(), [], "nothing is left behind");
});

test("lone surrogates leave the bundle well-formed; paired ones and escaped text are kept", () => {
  finishNow(4, page({ ok: true, data: { lone: "a\ud800b", pair: "😀", text: "\\ud800" } }));
  const [rendered] = handedOver();
  assert.ok(rendered.op === "rendered");
  assert.doesNotMatch(rendered.json, /(?<!\\)\\ud8/i, "no lone surrogate's escape");
  assert.deepEqual((rendered.result.data as { data: unknown }).data, { lone: "a\ufffdb", pair: "😀", text: "\\ud800" });
});
