import assert from "node:assert/strict";
import { test } from "node:test";
import type { RenderResult } from "../boot";
import { finishNow, takeOutbox } from "./exchange";

const page = (data?: unknown): RenderResult =>
  ({ status: 200, title: "t", description: "d", html: "<p>x</p>", sharing: { kind: "private" }, data }) as RenderResult;

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

test("a page whose data cannot be written fails alone, and the outbox is emptied", () => {
  finishNow(1, page());
  finishNow(2, page({ ok: true, data: nested(100_000) }));
  finishNow(3, page());
  const outbox = JSON.parse(takeOutbox());
  assert.deepEqual(
    outbox.done.map((d: { job: number; failed?: string }) => [d.job, d.failed === undefined ? "ok" : "failed"]),
    [[1, "ok"], [2, "failed"], [3, "ok"]],
  );
  assert.match(outbox.done[1].failed, /could not be handed to the host: Maximum call stack size exceeded/);
  assert.deepEqual(JSON.parse(takeOutbox()).done, [], "nothing is left behind");
});

test("lone surrogates leave the bundle well-formed; paired ones and escaped text are kept", () => {
  finishNow(4, page({ ok: true, data: { lone: "a\ud800b", pair: "😀", text: "\\ud800" } }));
  const json = takeOutbox();
  assert.doesNotMatch(json, /(?<!\\)\\ud8/i, "no lone surrogate's escape");
  const data = JSON.parse(json).done[0].result.data.data;
  assert.deepEqual(data, { lone: "a\ufffdb", pair: "😀", text: "\\ud800" });
});
