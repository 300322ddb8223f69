import assert from "node:assert/strict";
import { test } from "node:test";
import { type EncodeInto, NOT_WRITTEN, SLAB_BYTES, SlabEncoder } from "./utf8-slab";

/** Node's own encoder, answering as the host's op does. */
const encodeInto: EncodeInto = (text, out) => {
  const { read, written } = new TextEncoder().encodeInto(text, out);
  return read === text.length ? written : NOT_WRITTEN;
};
const encodeAlone = (text: string) => new TextEncoder().encode(text);

test("each string's bytes stay as they were while later ones fill new slabs", () => {
  let alone = 0;
  const slabs = new SlabEncoder(encodeInto, (text) => (alone++, encodeAlone(text)));
  const texts = Array.from({ length: 3_000 }, (_, i) => `<p class="n${i}">données ${i} · 🇫🇷 \u{1f600}</p>`);
  const views = texts.map((text) => slabs.encode(text));
  assert.ok(new Set(views.map((view) => view.buffer)).size > 1, "more than one slab was used");
  assert.equal(alone, 0, "a full slab is replaced: no short string is encoded alone");
  views.forEach((view, i) => assert.equal(new TextDecoder().decode(view), texts[i]));
  assert.deepEqual(slabs.encode(""), new Uint8Array(0));
});

test("a lone surrogate is written as TextEncoder writes it", () => {
  const slabs = new SlabEncoder(encodeInto, encodeAlone);
  assert.deepEqual(slabs.encode("a\ud800b"), encodeAlone("a\ud800b"));
});

test("a long string, and one the op could not write, are encoded alone", () => {
  const alone: string[] = [];
  const slabs = new SlabEncoder(encodeInto, (text) => (alone.push(text), encodeAlone(text)));
  const long = "x".repeat(SLAB_BYTES / 8 + 1);
  assert.deepEqual(slabs.encode(long), encodeAlone(long));
  const refusing = new SlabEncoder(() => NOT_WRITTEN, (text) => (alone.push(text), encodeAlone(text)));
  assert.deepEqual(refusing.encode("é"), encodeAlone("é"));
  assert.deepEqual(alone, [long, "é"]);
});
