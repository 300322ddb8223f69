import assert from "node:assert/strict";
import { test } from "node:test";
import { Suspense, use } from "react";
import type { LoadOutcome } from "../data/outcome";
import { type Handed, handedOver, shellHasGone } from "./test-host";
import { cancel } from "./exchange";
import { fillHeldShell, haltShells, makeShellThenResume, streamPage } from "./streaming";

type Outcome = LoadOutcome<unknown>;

const head = { status: 200, title: "t", description: "d", page: { route: "status", params: {} } } as never;
/** A macrotask: every microtask React scheduled (its "timers" included) has run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));
/** A promise, and what settles it. */
function later<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
/** What was handed over for `job`, in order. */
const of = (job: number) => (handed: Handed[]) => handed.filter((h) => "job" in h && h.job === job);
/** The parts handed over for `job`: the page did not fail. */
function partsOf(job: number): Handed[] {
  const parts = of(job)(handedOver());
  assert.deepEqual(parts.filter((h) => h.op === "failed"), [], "the page did not fail");
  return parts;
}
const kinds = (parts: Handed[]) => parts.map((p) => p.op);
const htmlOf = (part: Handed | undefined) => (part?.op === "part" ? part.html : "");

function Text({ text }: { text: Promise<string> }) {
  return <p>{use(text)}</p>;
}
function Page({ first, second }: { first: Promise<string>; second: Promise<string> }) {
  return (
    <main>
      <Suspense fallback={<i>first…</i>}>
        <Text text={first} />
      </Suspense>
      <Suspense fallback={<i>second…</i>}>
        <Text text={second} />
      </Suspense>
    </main>
  );
}

test("a client that leaves mid-stream has nothing more written for it", async () => {
  const [first, second] = [later<string>(), later<string>()];
  const data = later<Outcome>();
  streamPage(1, head, <Page first={first.promise} second={second.promise} />, "n0nce", data.promise);
  await settled();
  first.resolve("un");
  await settled();
  const before = partsOf(1);
  assert.deepEqual(kinds(before), ["head", "part", "part"]);
  assert.match(htmlOf(before[2]), /un/);
  cancel(1);
  second.resolve("deux");
  data.resolve({ ok: true, data: null });
  await settled();
  assert.deepEqual(kinds(partsOf(1)), ["end"], "nothing of the second part, nor React's abort, was written");
});

test("a client that leaves before the screen's module is there has nothing rendered for it", async () => {
  const screen = later<unknown>();
  streamPage(6, head, <Page first={Promise.resolve("un")} second={Promise.resolve("deux")} />, "n0nce", Promise.resolve({ ok: true, data: null }), screen.promise);
  await settled();
  cancel(6);
  screen.resolve(undefined);
  await settled();
  assert.deepEqual(kinds(partsOf(6)), ["head", "end"]);
});

/** Makes the shell of the page `job`, whose holes wait for `data`, as the host has it made: the parts it sent. */
async function madeShell(job: number, data: Promise<Outcome>): Promise<Handed[]> {
  const never = new Promise<string>(() => {});
  const text = data.then(() => "les données");
  makeShellThenResume(job, head, <Page first={never} second={never} />, <Page first={text} second={text} />, "n0nce", data, Promise.resolve());
  await settled();
  haltShells();
  await settled();
  return partsOf(job);
}

test("a client that leaves while its page waits for its data has nothing resumed for it", async () => {
  const data = later<Outcome>();
  const shell = await madeShell(2, data.promise);
  assert.deepEqual(kinds(shell), ["head", "shell"]);
  assert.match(shell[1].op === "shell" ? shell[1].prelude : "", /first…/);
  cancel(2);
  data.resolve({ ok: true, data: null });
  await settled();
  assert.deepEqual(kinds(partsOf(2)), ["end"], "no resumed markup");
});

test("a client that stays has its page resumed once its data comes", async () => {
  const data = later<Outcome>();
  assert.deepEqual(kinds(await madeShell(3, data.promise)), ["head", "shell"]);
  data.resolve({ ok: true, data: null });
  await settled();
  const rest = partsOf(3);
  assert.equal(kinds(rest).at(-1), "end");
  const resumed = rest.slice(0, -1);
  assert.ok(resumed.length > 0 && resumed.every((p) => p.op === "part"), "the resumed markup, then the end");
  const html = resumed.map(htmlOf).join("");
  assert.match(html, /les données/);
  assert.match(html, /<script nonce="n0nce">/);
});

function Broken(): never {
  throw new Error("the screen is broken");
}

test("a shell that cannot be prerendered fails its page alone, saying why", async () => {
  const data = later<Outcome>();
  makeShellThenResume(4, head, <Broken />, <Broken />, "n0nce", data.promise, Promise.resolve());
  streamPage(5, head, <p>à côté</p>, "n0nce", Promise.resolve({ ok: true, data: null }));
  await settled();
  haltShells();
  await settled();
  const handed = handedOver();
  const failed = handed.filter((h) => h.op === "failed");
  assert.deepEqual(
    failed.map((h) => h.job),
    [4],
  );
  assert.match(failed[0].op === "failed" ? failed[0].why : "", /the screen is broken/);
  assert.deepEqual(kinds(of(4)(handed)), ["head", "failed"], "no shell is kept of it");
  const beside = of(5)(handed);
  assert.deepEqual(kinds(beside).at(-1), "end");
  assert.match(beside.map(htmlOf).join(""), /<p>à côté<\/p>/);
});

/** The shell of page `job` and what it resumes from, as the host keeps them. */
async function keptShell(job: number): Promise<{ prelude: string; postponed: string }> {
  const [shell] = (await madeShell(job, new Promise<Outcome>(() => {}))).filter((h) => h.op === "shell");
  assert.ok(shell?.op === "shell" && shell.postponed !== null, "a shell with holes");
  return { prelude: shell.prelude, postponed: shell.postponed };
}

/** A held page: its whole render, when it goes whole, is a marked paragraph. */
function holdPage(job: number, data: Promise<Outcome>): void {
  const text = data.then(() => "les données");
  const whole = () => ({ html: "<p>entière</p>", result: { status: 200 } as never });
  fillHeldShell(job, () => <Page first={text} second={text} />, "n0nce", data, Promise.resolve(), whole);
}

test("a held page whose data comes before its shell has gone is rendered whole, and resumes nothing", async () => {
  const data = later<Outcome>();
  holdPage(7, data.promise);
  await settled();
  assert.deepEqual(kinds(partsOf(7)), [], "nothing before the data");
  data.resolve({ ok: true, data: null });
  await settled();
  const parts = partsOf(7);
  assert.deepEqual(kinds(parts), ["shell_sent", "rendered"]);
  assert.equal(parts[1].op === "rendered" ? parts[1].html : "", "<p>entière</p>");
  cancel(7);
  assert.deepEqual(kinds(partsOf(7)), [], "a page gone whole has nothing left to stop");
});

test("a held page whose shell has gone has its holes filled from the state the host gives back", async () => {
  const { postponed } = await keptShell(8);
  const data = later<Outcome>();
  holdPage(9, data.promise);
  shellHasGone(9, postponed);
  data.resolve({ ok: true, data: null });
  await settled();
  const parts = partsOf(9);
  assert.deepEqual(kinds(parts).slice(0, 2), ["shell_sent", "part"]);
  assert.equal(kinds(parts).at(-1), "end");
  const html = parts.map(htmlOf).join("");
  assert.match(html, /les données/);
  assert.doesNotMatch(html, /entière/);
});

test("a held page whose client has left asks nothing and renders nothing", async () => {
  const data = later<Outcome>();
  holdPage(10, data.promise);
  await settled();
  cancel(10);
  data.resolve({ ok: true, data: null });
  await settled();
  assert.deepEqual(kinds(partsOf(10)), []);
});
