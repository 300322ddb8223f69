// Varnish (Debian's varnishd, its built-in VCL, nothing of ours) in front of a server, and
// its counters: what share of the requests it answered from its cache.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** A port free on 127.0.0.1 now. */
async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts varnishd in the foreground in front of `backendUrl`; resolves once it listens. */
export async function startVarnish(backendUrl) {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "bilingue-bench-varnish-"));
  const backend = new URL(backendUrl).host;
  const child = spawn("varnishd", ["-F", "-j", "none", "-n", dir, "-a", `127.0.0.1:${port}`, "-b", backend, "-s", "malloc,64m"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const failed = new Promise((_, reject) => {
    child.once("error", (error) => reject(new Error(`cannot run varnishd (${error.message}): apt-get install -y varnish`)));
    child.once("exit", (code) => reject(new Error(`varnishd exited with ${code}: ${stderr}`)));
  });
  const until = Date.now() + 20_000;
  const listening = (async () => {
    while (Date.now() < until) {
      const up = await new Promise((resolve) => net.connect(port, "127.0.0.1").once("connect", function () { this.destroy(); resolve(true); }).once("error", () => resolve(false)));
      if (up) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`varnishd did not listen in 20 s: ${stderr}`);
  })();
  await Promise.race([listening, failed]);
  failed.catch(() => {});
  const varnish = {
    baseUrl: `http://127.0.0.1:${port}`,
    /** The manager and its cache process, where the objects are. */
    pids: () => {
      try {
        return [child.pid, ...execFileSync("pgrep", ["-P", String(child.pid)]).toString().trim().split("\n").map(Number)];
      } catch {
        return [child.pid];
      }
    },
    /**
     * Requests from clients, and those answered from the cache, so far. Varnish's workers
     * publish their counts now and then: read until two readings agree.
     */
    async counters() {
      const read = () => {
        const text = execFileSync("varnishstat", ["-n", dir, "-1", "-f", "MAIN.client_req", "-f", "MAIN.cache_hit"]).toString();
        const count = (name) => Number(text.match(new RegExp(`^${name}\\s+(\\d+)`, "m"))?.[1] ?? NaN);
        return { requests: count("MAIN.client_req"), hits: count("MAIN.cache_hit") };
      };
      for (let last = read(); ; ) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const now = read();
        if (now.requests === last.requests && now.hits === last.hits) return now;
        last = now;
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return varnish;
}
