// The host's ops for the app's unit tests, which run the server's modules in Node: each op
// keeps what it is handed (its JSON read back), for `handedOver()`. Imported by a test
// before any server module, so that app/server/host.ts finds these ops when it is loaded.
import type { Fetch, HostOps, LogLevel, RenderResult, StreamEnd, StreamHead } from "../contract";

/** What the bundle handed over, op by op. */
export type Handed =
  | { op: "rendered"; job: number; html: string; result: RenderResult; json: string }
  | { op: "failed"; job: number; why: string }
  | { op: "head"; job: number; head: StreamHead }
  | { op: "shell"; job: number; prelude: string; postponed: string | null }
  | { op: "part"; job: number; html: string }
  | { op: "end"; job: number; end: StreamEnd }
  | { op: "fetch"; call: Fetch }
  | { op: "log"; level: LogLevel; message: string }
  | { op: "shell_sent"; job: number };

let handed: Handed[] = [];
/** The held pages whose shell has gone, with what their holes resume from. */
const shellsSent = new Map<number, string>();

/** The shell of held page `job` has gone, with `postponed`: asked, the host says so. */
export function shellHasGone(job: number, postponed: string): void {
  shellsSent.set(job, postponed);
}

const ops: HostOps = {
  op_bilingue_rendered: (job, html, json) => void handed.push({ op: "rendered", job, html, result: JSON.parse(json) as RenderResult, json }),
  op_bilingue_failed: (job, why) => void handed.push({ op: "failed", job, why }),
  op_bilingue_head: (job, head) => void handed.push({ op: "head", job, head: JSON.parse(head) as StreamHead }),
  op_bilingue_shell: (job, prelude, postponed) => void handed.push({ op: "shell", job, prelude, postponed }),
  op_bilingue_part: (job, html) => void handed.push({ op: "part", job, html }),
  op_bilingue_end: (job, end) => void handed.push({ op: "end", job, end: JSON.parse(end) as StreamEnd }),
  op_bilingue_fetch: (call) => void handed.push({ op: "fetch", call: JSON.parse(call) as Fetch }),
  op_bilingue_log: (level, message) => void handed.push({ op: "log", level, message }),
  op_bilingue_shell_sent: (job) => {
    handed.push({ op: "shell_sent", job });
    return shellsSent.get(job) ?? null;
  },
};
(globalThis as { Deno?: unknown }).Deno = { core: { ops } };

/** What was handed over since the last look, in order; the host's JSON as it reads it. */
export function handedOver(): Handed[] {
  const taken = handed;
  handed = [];
  return taken;
}
