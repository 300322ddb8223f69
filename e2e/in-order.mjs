// Runs test files in the order given, `concurrency` at a time, and reports in TAP as
// `node --test` does: the browser suite (tests/app_checks.rs) starts its longest files
// first. `node --test` itself runs its files in alphabetical order whatever order they
// are given in (Node 20), and the longest file, last by name, then ran on alone for over
// a minute at the end of the suite.
//     node e2e/in-order.mjs --concurrency 5 FILE…
import path from "node:path";
import { run } from "node:test";
import { tap } from "node:test/reporters";

const args = process.argv.slice(2);
const at = args.indexOf("--concurrency");
const given = at === -1 ? "1" : args.splice(at, 2)[1];
const concurrency = Number(given);
if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`--concurrency takes a whole number of files: ${given}`);
if (args.length === 0) throw new Error("usage: node e2e/in-order.mjs [--concurrency N] FILE…");

const tests = run({ files: args.map((file) => path.resolve(file)), concurrency });
// A failed test fails the run, as with `node --test`; a known bug (a TODO) does not.
tests.on("test:fail", (data) => {
  if (!data.todo) process.exitCode = 1;
});
tests.compose(tap).pipe(process.stdout);
