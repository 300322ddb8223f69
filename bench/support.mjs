// What the benchmark, the soak and the browser tests share: starting a server and reading
// its address (and what else it prints), stopping it, reading a process's resident
// memory, running wrk and reading its report.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

/**
 * The script's options (node:util's parseArgs: an unknown or incomplete option is refused),
 * with `numbers` read as whole numbers of at least their minimum. On a mistake it prints
 * the problem and `usage`, and exits 2.
 */
export function readOptions({ usage, flags = [], strings = [], numbers = {} }) {
  const fail = (problem) => {
    console.error(`${problem}\nusage: ${usage}`);
    process.exit(2);
  };
  const options = Object.fromEntries([
    ...flags.map((name) => [name, { type: "boolean" }]),
    ...[...strings, ...Object.keys(numbers)].map((name) => [name, { type: "string" }]),
  ]);
  let values;
  try {
    ({ values } = parseArgs({ options, strict: true, allowPositionals: false }));
  } catch (error) {
    fail(error.message);
  }
  for (const [name, min] of Object.entries(numbers)) {
    if (values[name] === undefined) continue;
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min) fail(`--${name} takes a whole number of at least ${min}, not ${JSON.stringify(values[name])}`);
    values[name] = value;
  }
  return values;
}

/** Fails early, with the fix, when wrk is not installed. */
export function requireWrk() {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
  } catch (error) {
    // wrk --version exits 1 after printing; only a missing program is a problem.
    if (error.code === "ENOENT") throw new Error("wrk is missing: apt-get install -y wrk");
  }
}

/**
 * Starts a server process and resolves with its base URL from its "listening on" line;
 * rejects if it exits first or prints no such line within 20 s. What it prints stays in
 * `server.stdout` (see `printed`).
 */
export function startServer(command, commandArgs, { env } = {}) {
  const started = process.hrtime.bigint();
  const child = spawn(command, commandArgs, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  const server = { child, baseUrl: null, started, stdout: "", stderr: "" };
  child.stderr.on("data", (d) => (server.stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command}: no "listening on" line in 20 s; stderr:\n${server.stderr}`)), 20_000);
    child.stdout.on("data", (d) => {
      server.stdout += d;
      const match = server.stdout.match(/listening on (http:\/\/\S+)/);
      if (match && !server.baseUrl) {
        clearTimeout(timer);
        server.baseUrl = match[1];
        resolve(server);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${server.stderr}`));
    });
  });
}

/** The first match of `pattern` in what `server` printed, once it has; rejects after `timeoutMs`. */
export async function printed(server, pattern, timeoutMs = 5_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const match = server.stdout.match(pattern);
    if (match) return match;
    if (Date.now() > until) throw new Error(`no ${pattern} in what the server printed:\n${server.stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once the host's /readyz answers 200 (its render threads have warmed up). */
export async function waitReady(baseUrl, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ready = await fetch(`${baseUrl}/readyz`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${baseUrl} not ready in ${timeoutMs} ms`);
}

export async function stop(server) {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}

export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024;
  } catch {
    return 0;
  }
}

/**
 * CPU time a process has used so far (user and system, its threads' included), in
 * microseconds; 0 once it is gone. What a row costs the server, whatever else the machine
 * runs meanwhile.
 */
export function cpuUs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return 0;
  }
}

/** Where cargo builds: `CARGO_TARGET_DIR` (as CI sets it), else `target/` under `root`. */
export function targetDir(root) {
  return process.env.CARGO_TARGET_DIR ? path.resolve(root, process.env.CARGO_TARGET_DIR) : path.join(root, "target");
}

/** Runs wrk with these arguments; resolves with its report, read. */
export function wrk(args) {
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", args);
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    // "close", not "exit": wrk's output may still be in its pipes when it exits (Node's
    // `child_process` says so), and on a busy machine a report was read empty.
    child.on("close", (code) => (code === 0 ? resolve(readWrk(text)) : reject(new Error(`wrk failed: ${text}`))));
  });
}

function readWrk(text) {
  const ms = (label) => {
    const m = text.match(new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)\\b`));
    return m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]] : NaN;
  };
  const socket = text.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const [connect, read, write, timeout] = socket ? socket.slice(1).map(Number) : [0, 0, 0, 0];
  const errors = text.match(/Non-2xx or 3xx responses: (\d+)|Socket errors: .*/g) ?? [];
  return {
    text,
    requests: Number(text.match(/(\d+) requests in/)?.[1] ?? NaN),
    rps: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN),
    p50: ms("50%"),
    p99: ms("99%"),
    non2xx: Number(text.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    socket: { connect, read, write, timeout },
    errors: errors.join("; "),
  };
}

/**
 * How a script's own section of BENCHMARKS.md begins: `<!-- bench/site/bench.mjs -->`, or
 * with the options that make it a part of its own (`<!-- bench/run.mjs --only per-visitor -->`).
 */
export const SECTION_MARKER = /^<!-- bench\/[^\n]+ -->$/m;

/**
 * Writes `section` (its first line its marker) into `file`: in place of the section under
 * the same marker, up to the next marker, or at the end; the rest of the file is kept.
 */
/**
 * Checks `writeSection` on a file of three sections whose answer is known: the one
 * rewritten, the others (an `--only` part's among them) kept as they were. Throws if not.
 */
export function checkSectionWriting(dir) {
  const file = path.join(dir, "sections.md");
  const sections = ["# Benchmarks\n\nthe full run\n", "<!-- bench/site/bench.mjs -->\nold site\n", "<!-- bench/run.mjs --only per-visitor -->\na visitor's page\n"];
  writeFileSync(file, sections.join("\n"));
  writeSection(file, "<!-- bench/site/bench.mjs -->\nnew site\n");
  const expected = [sections[0], "<!-- bench/site/bench.mjs -->\nnew site\n", sections[2]].join("\n");
  const written = readFileSync(file, "utf8");
  if (written !== expected) throw new Error(`writeSection kept the wrong parts of BENCHMARKS.md:\n${written}\n(expected:\n${expected})`);
}

export function writeSection(file, section) {
  const marker = section.slice(0, section.indexOf("\n"));
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const at = current.indexOf(`${marker}\n`);
  if (at === -1) return writeFileSync(file, `${current.trimEnd()}\n\n${section.trimEnd()}\n`);
  const rest = current.slice(at + marker.length);
  const next = rest.search(SECTION_MARKER);
  const after = next === -1 ? "" : `\n${rest.slice(next)}`;
  writeFileSync(file, `${current.slice(0, at)}${section.trimEnd()}\n${after}`);
}
