// The development loop on a temporary copy of the app, for tests that edit it: the copy
// has the app, the package files and a link to node_modules, and runs its own
// app/dev.mjs with the binary under test.
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BINARY } from "./support.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** A copy of the app to edit; `prepare(dir)` may change it before the loop starts. */
export async function copyOfTheApp(prepare = async () => {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bilingue-dev-"));
  await cp(path.join(root, "app"), path.join(dir, "app"), { recursive: true });
  for (const file of ["package.json", "tsconfig.json"]) await cp(path.join(root, file), path.join(dir, file));
  await symlink(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  await prepare(dir);
  return {
    dir,
    file: (relative) => path.join(dir, relative),
    read: (relative) => readFile(path.join(dir, relative), "utf8"),
    write: (relative, text) => writeFile(path.join(dir, relative), text),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Runs the copy's `app/dev.mjs` with the binary under test (and `hostOptions` for it);
 * resolves once the host listens.
 */
export async function startDevLoop(copy, hostOptions = []) {
  const loopOptions = ["--binary", BINARY, "--port", "0", "--out", copy.file("dev-app")];
  const child = spawn(process.execPath, [copy.file("app/dev.mjs"), ...loopOptions, "--", ...hostOptions], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const baseUrl = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the loop did not start in 60 s:\n${output}`)), 60_000);
    const look = () => {
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        child.stdout.off("data", look);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", look);
    child.on("exit", (code) => reject(new Error(`the loop exited with ${code}:\n${output}`)));
  });
  // The host warms up after it listens.
  for (let ready = false; !ready; await new Promise((r) => setTimeout(r, 50))) {
    ready = await fetch(`${baseUrl}/readyz`).then((r) => r.ok, () => false);
  }
  return {
    baseUrl,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
