// The development loop, `npm run dev`: builds the host once (`cargo build`), builds the
// app in development mode into target/dev-app, runs the host on it (`--dev`), and builds
// again on every save under app/. The host swaps its V8 runtimes and every open tab
// reloads, or swaps a changed stylesheet in place, or shows the error. Rust changes need
// a restart of this command; a change to the list of languages restarts the host itself.
//   node app/dev.mjs [--port 3000] [--binary PATH (skips cargo)] [--out DIR] [--pseudo] [-- HOST OPTIONS]
// `--pseudo` adds the pseudo-languages, /fr-XA/ and /fr-XB/ (docs/translations.md).
// Options after `--` go to the host as they are (`-- --api-upstream http://…`).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync, watch } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { context } from "esbuild";
import { builtLanguages, bundleOptions, checkLanguages, messageGroupsOf, readLanguages, writeManifest } from "./bundle.mjs";
import { builtReport, failedReport } from "./bundling/build-report.mjs";
import { writeDeclarations } from "./bundling/catalogue.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const separator = process.argv.indexOf("--", 2);
const args = process.argv.slice(2, separator === -1 ? undefined : separator);
const hostOptions = separator === -1 ? [] : process.argv.slice(separator + 1);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const port = option("--port", "3000");
const pseudo = args.includes("--pseudo");
const outDir = path.resolve(option("--out", path.join(root, "target/dev-app")));
let binary = option("--binary", null);

const say = (line) => console.log(`[dev] ${line}`);

if (!binary) {
  say("building the host (cargo build): only Rust changes need this again");
  const built = spawnSync("cargo", ["build", "--bin", "bilingue"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
  binary = path.join(process.env.CARGO_TARGET_DIR ? path.resolve(root, process.env.CARGO_TARGET_DIR) : path.join(root, "target"), "debug/bilingue");
}

let contexts = null;
let options = null;
let languages = null;
let builds = 0;
let lastServer = null;
let lastScripts = null;

/** (Re)creates esbuild's incremental contexts, for the current list of languages. */
async function prepare() {
  await contexts?.server.dispose();
  await contexts?.client.dispose();
  const listed = await readLanguages(root);
  await checkLanguages(root, listed);
  languages = await builtLanguages(root, listed, pseudo);
  options = await bundleOptions({ root, outDir, dev: true, buildTime: Date.now(), languages: listed, pseudo });
  contexts = { server: await context(options.server), client: await context(options.client) };
}

/** esbuild's errors (or any other) as the overlay shows them: file, line, column, message. */
function problemsOf(error) {
  // Both builds may report the same error: once is enough.
  const all = error?.errors?.length ? error.errors : [{ text: String(error?.message ?? error) }];
  const seen = new Set();
  const errors = all.filter(({ text, location }) => {
    const key = `${location?.file}:${location?.line}:${text}`;
    return !seen.has(key) && seen.add(key);
  });
  return errors.map(({ text, location }) => ({
    file: location?.file,
    line: location?.line,
    column: location?.column,
    message: text,
  }));
}

/** Builds both bundles; tells the host through build.json, written last. */
async function rebuild() {
  const started = performance.now();
  const id = ++builds;
  let state;
  try {
    if (!contexts) await prepare();
    // Both builds end before the next may start, failed or not.
    let [server, client] = await Promise.allSettled([contexts.server.rebuild(), contexts.client.rebuild()]);
    for (const built of [server, client]) if (built.status === "rejected") throw built.reason;
    // Which page needs which messages, as a production build has them, from the graph this
    // build found: a save that changed them (a key used by another screen, a new route)
    // builds once more with them.
    if (await messageGroupsOf(root, options, client.value.metafile.inputs)) {
      [server, client] = await Promise.allSettled([contexts.server.rebuild(), contexts.client.rebuild()]);
      for (const built of [server, client]) if (built.status === "rejected") throw built.reason;
    }
    const manifest = await writeManifest({ root, outDir, metafile: client.value.metafile, languages, buildTime: Date.now(), dev: true });
    const serverHash = createHash("sha256").update(await readFile(path.join(outDir, "server.js"))).digest("hex");
    const scripts = JSON.stringify([manifest.entry, manifest.preload, manifest.languageChunks, manifest.routeChunks, manifest.messageChunks]);
    // Only a stylesheet changed: the page keeps its state and swaps it.
    const kind = serverHash === lastServer && scripts === lastScripts ? "styles" : "reload";
    lastServer = serverHash;
    lastScripts = scripts;
    state = builtReport(id, kind, Math.round(performance.now() - started));
    say(`built in ${state.ms} ms (${kind})`);
  } catch (error) {
    state = failedReport(id, problemsOf(error));
    // The next good build reloads the page, which clears the problem on show.
    lastServer = null;
    for (const { file, line, column, message } of state.problems) {
      console.error(`[dev] ${[file, line, column].filter(Boolean).join(":")}${file ? ": " : ""}${message}`);
    }
  }
  const written = path.join(outDir, "build.json.part");
  await writeFile(written, JSON.stringify(state));
  await rename(written, path.join(outDir, "build.json"));
  // What `node app/bundling/catalogue.mjs` does: the editor's types follow the tables,
  // after the host is told (the open page does not wait on them).
  if (state.outcome === "built") await writeDeclarations(root).catch((error) => console.error(`[dev] ${error.stack ?? error}`));
}

/**
 * Calls `onChange(file)` for every change under `dir`. Each directory is watched on its
 * own: inotify then reports its files' changes whatever the editor does (Node's recursive
 * watch loses a file once an editor replaces it, as vim and `sed -i` do). A new
 * directory is watched as it appears.
 */
function watchDirectories(dir, onChange) {
  const watchers = [];
  const watched = new Set();
  const add = (directory) => {
    if (watched.has(directory) || directory.includes("node_modules")) return;
    watched.add(directory);
    watchers.push(
      watch(directory, (event, name) => {
        const file = name ? path.join(directory, name.toString()) : directory;
        if (event === "rename" && existsSync(file) && statSync(file).isDirectory()) add(file);
        onChange(file);
      }),
    );
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory()) add(path.join(directory, entry.name));
    }
  };
  add(dir);
  return watchers;
}

let host = null;
function startHost() {
  // One render thread: one developer, and each save warms every thread's runtime anew.
  host = spawn(binary, ["--dev", outDir, "--port", port, "--render-threads", "1", ...hostOptions], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  host.on("exit", (code, signal) => {
    if (!stopping && !restarting) {
      say(`the host stopped (${signal ?? code}); run npm run dev again`);
      process.exit(1);
    }
  });
}

let restarting = false;
async function restartHost() {
  restarting = true;
  await new Promise((resolve) => {
    host.once("exit", resolve);
    host.kill("SIGTERM");
  });
  restarting = false;
  startHost();
}

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
await rebuild();
// The host starts from a build: until the first one succeeds, only the terminal can say why.
while ((await readFile(path.join(outDir, "build.json"), "utf8").then((text) => JSON.parse(text).outcome)) !== "built") {
  say("fix the error above and save: the host starts with the first good build");
  await new Promise((resolve) => {
    const watchers = watchDirectories(path.join(root, "app"), () => {
      for (const watcher of watchers) watcher.close();
      setTimeout(resolve, 20);
    });
  });
  await rebuild();
}
startHost();
say(`watching app/ for changes (Ctrl-C stops)`);

// Saves come in bursts (an editor writes, renames, touches): one build per burst, and
// one at a time (a save during a build asks for one more after it).
let pending = null;
let changedLanguages = false;
let building = false;
let again = false;
async function buildOnce() {
  if (changedLanguages) {
    changedLanguages = false;
    contexts = null;
    await rebuild();
    say("the list of languages changed: restarting the host");
    await restartHost();
  } else {
    await rebuild();
  }
}
async function build() {
  if (building) {
    again = true;
    return;
  }
  building = true;
  try {
    do {
      again = false;
      await buildOnce();
    } while (again);
  } catch (error) {
    console.error(`[dev] ${error.stack ?? error}`);
  } finally {
    building = false;
  }
}
function changed(file) {
  // Written by this loop itself (writeDeclarations) when the keys change.
  if (file?.endsWith("messages.generated.ts")) return;
  if (file?.endsWith("languages.json")) changedLanguages = true;
  clearTimeout(pending);
  pending = setTimeout(build, 20);
}
watchDirectories(path.join(root, "app"), changed);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    stopping = true;
    host?.kill("SIGTERM");
    await contexts?.server.dispose();
    await contexts?.client.dispose();
    process.exit(0);
  });
}
