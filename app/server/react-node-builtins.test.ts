import assert from "node:assert/strict";
import { test } from "node:test";
import { Readable, TextEncoder as ReactsTextEncoder } from "./react-node-builtins";

test("a shell written when it is read is all there", async () => {
  const prelude: Readable = new Readable({
    read: () => {
      prelude.push("<main>");
      prelude.push("</main>");
      prelude.push(null);
    },
  });
  assert.equal(await prelude.text(), "<main></main>");
});

test("a shell written later is there once it ends", async () => {
  const prelude = new Readable({ read: () => {} });
  const text = prelude.text();
  prelude.push("<p>é</p>");
  await Promise.resolve();
  prelude.push(null);
  assert.equal(await text, "<p>é</p>");
});

test("a shell React fails to write fails its reader, once", async () => {
  const prelude = new Readable({ read: () => prelude.destroy(new Error("the shell failed")) });
  await assert.rejects(prelude.text(), /the shell failed/);
  prelude.push(null);
});

test("the web-stream renderers' encoder says why it is not there", () => {
  assert.throws(() => new ReactsTextEncoder().encode(), /writes pages as strings/);
});
