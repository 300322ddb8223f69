// Browser files in one engine, in one process with one browser: the suite runs three of
// these side by side (tests/app_checks.rs), one per engine, for the files whose every
// test is a scenario in each engine on a site that starts in a moment (the built
// binary). Run a file at a time, each launching the three engines, the suite launched
// each engine once per file, and a launch is much of what such a file costs (Firefox
// about 3.9 s of CPU, Chromium about 1.5). A file that also tests the server, or whose
// site is a development loop of its own, runs on its own: here its other tests would run
// once per engine, and its loop start once per engine.
//     BILINGUE_E2E_FILES=e2e/status.test.mjs,e2e/language.test.mjs node --test e2e/one-browser/firefox.mjs
// BILINGUE_ENGINES is honoured: an engine it leaves out runs nothing.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chosenEngines, shareOneBrowser } from "../engines/index.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Registers the scenarios of every file BILINGUE_E2E_FILES lists (from the project's root) in `engine` alone, sharing one launch of it. */
export async function inOneBrowser(/** @type {string} */ engine) {
  const files = process.env.BILINGUE_E2E_FILES?.split(",").map((file) => file.trim()).filter(Boolean);
  if (!files?.length) throw new Error("BILINGUE_E2E_FILES names no file (comma-separated, from the project's root)");
  if (!chosenEngines().includes(engine)) return;
  process.env.BILINGUE_ENGINES = engine;
  const allRegistered = shareOneBrowser();
  try {
    for (const file of files) await import(pathToFileURL(path.join(root, file)).href);
  } finally {
    await allRegistered();
  }
}
