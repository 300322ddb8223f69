// The host's ops (deno_core's `Deno.core.ops`; their names and arguments are the host's,
// `HostOps` in app/contract.ts): how the bundle hands the host what it produced, each op
// naming the page it is for and what it hands over, whether it runs in a call from the host
// or in the microtasks after it. Read once, when the bundle is evaluated (the snapshot keeps
// them). Where the bundle runs in Node (the app's unit tests, the benchmark's whole-page
// peers), whoever runs it puts its own ops on `globalThis.Deno.core.ops` first
// (app/server/test-host.ts for the tests).
import type { HostOps } from "../contract";

const ops = (globalThis as { Deno?: { core?: { ops?: Partial<HostOps> } } }).Deno?.core?.ops;

/** An op that is not there: it says so when called, not when the bundle is loaded. */
function missing(name: string): () => never {
  return () => {
    throw new Error(`the server bundle runs without its host's op ${name}: put the host's ops on globalThis.Deno.core.ops before loading it`);
  };
}

const names: (keyof HostOps)[] = [
  "op_bilingue_rendered",
  "op_bilingue_failed",
  "op_bilingue_head",
  "op_bilingue_shell",
  "op_bilingue_part",
  "op_bilingue_end",
  "op_bilingue_fetch",
  "op_bilingue_log",
  "op_bilingue_shell_sent",
];

export const host = Object.fromEntries(names.map((name) => [name, ops?.[name] ?? missing(name)])) as HostOps;
