// `npm run messages -- …`: the catalogue out to translators' files and back in
// (docs/translations.md, "Working with translators").
//   npm run messages -- export po DIR      every language's table as DIR/<code>.po
//   npm run messages -- export xliff DIR   … as DIR/<code>.xlf (XLIFF 2.0)
//   npm run messages -- import DIR         every .po, .xlf and .xliff file of DIR into the tables
// app/bundling/translators.ts checks; po.mjs and xliff.mjs read and write the files;
// translator-files.mjs reads a folder's files safely, write-all-or-none.mjs the tables.
// Every failure is one line that says what to do, never a stack trace.
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkAppCatalogue } from "./catalogue.mjs";
import { importAlone } from "./import-alone.mjs";
import { PO_EXTENSION, readPo, writePo } from "./po.mjs";
import { readTranslatorFiles, UsageError } from "./translator-files.mjs";
import { writeAllOrNone } from "./write-all-or-none.mjs";
import { readXliff, writeXliff, XLIFF_EXTENSION } from "./xliff.mjs";

const FORMATS = {
  po: { extension: PO_EXTENSION, write: writePo },
  xliff: { extension: XLIFF_EXTENSION, write: writeXliff },
};
const READERS = { ".po": readPo, ".xlf": readXliff, ".xliff": readXliff };

const describe = ({ file, line, text }) => `${file}${line ? `:${line}` : ""}: ${text}`;

/** The listed languages' tables as the catalogue checks them, the default language's first. */
export async function loadTables(root) {
  const declared = JSON.parse(await readFile(path.join(root, "app/i18n/languages.json"), "utf8"));
  const listed = [...declared.languages.filter(({ code }) => code === declared.default), ...declared.languages.filter(({ code }) => code !== declared.default)];
  return Promise.all(
    listed.map(async ({ code, locale }) => {
      const file = `app/i18n/tables/${code}.ts`;
      const source = await readFile(path.join(root, file), "utf8").catch(() => {
        throw new Error(`app/i18n/languages.json lists "${code}", but ${file} is missing (see "Add a language" in docs/pages-and-languages.md)`);
      });
      const { module } = await importAlone(root, path.join(root, file));
      return { language: code, locale, file, source, table: module.default };
    }),
  );
}

const translators = (root) => importAlone(root, fileURLToPath(new URL("./translators.ts", import.meta.url))).then(({ module }) => module);

/** Writes every language's file into `dir`; gives the files written, or the errors. */
export async function exportMessages(root, format, dir) {
  const { exportCatalogue } = await translators(root);
  const { languages, errors } = exportCatalogue(await loadTables(root));
  if (errors.length > 0) return { errors, files: [] };
  const { name, version } = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
  const existing = await stat(dir).catch(() => null);
  if (existing && !existing.isDirectory()) throw new UsageError(`${dir}: is a file, not a folder: give export a folder to write the files into (it is made if missing)`);
  await mkdir(dir, { recursive: true });
  const files = [];
  for (const language of languages) {
    const file = path.join(dir, `${language.language}${FORMATS[format].extension}`);
    await writeFile(file, await FORMATS[format].write(language, { project: `${name} ${version}` }));
    files.push({ file, units: language.units.length, untranslated: language.units.filter((unit) => unit.target === null).length });
  }
  return { errors: [], files };
}

/**
 * Reads every translator's file of `dir` into the tables; writes them, all or none, only
 * when none breaks a rule. `fileSystem` is write-all-or-none.mjs's, for the tests.
 */
export async function importMessages(root, dir, { fileSystem } = {}) {
  const read = await readTranslatorFiles(dir);
  if (read.errors.length > 0) return { errors: read.errors, notes: [], written: [] };
  const files = read.files.map(({ file, text }) => READERS[path.extname(file).toLowerCase()](file, text));
  const { importCatalogue } = await translators(root);
  const { errors, notes, written } = importCatalogue(await loadTables(root), files);
  if (errors.length > 0) return { errors, notes, written: [] };
  await writeAllOrNone(root, written, fileSystem);
  return { errors, notes, written: [...written.keys()] };
}

/** `npm run` starts commands in the package's folder; a folder given is the caller's. */
const fromCaller = (dir) => path.resolve(process.env.INIT_CWD ?? process.cwd(), dir);

async function main(root, [command, ...args]) {
  const usage = "usage: npm run messages -- export po DIR | export xliff DIR | import DIR";
  if (command === "export" && FORMATS[args[0]] && args[1]) {
    const { errors, files } = await exportMessages(root, args[0], fromCaller(args[1]));
    for (const error of errors) console.error(`error: ${describe(error)}`);
    if (errors.length > 0) return 1;
    for (const { file, units, untranslated } of files) console.log(`wrote ${path.relative(process.cwd(), file)}: ${units} messages, ${untranslated} untranslated`);
    return 0;
  }
  if (command === "import" && args[0]) {
    const { errors, notes, written } = await importMessages(root, fromCaller(args[0]));
    for (const note of notes) console.warn(`note: ${describe(note)}`);
    for (const error of errors) console.error(`error: ${describe(error)}`);
    if (errors.length > 0) {
      console.error("nothing was written");
      return 1;
    }
    console.log(written.length > 0 ? `wrote ${written.join(", ")}` : "the tables already say all that: nothing to write");
    // What the build will say of the tables now (a key a complete language still lacks fails it).
    const checked = await checkAppCatalogue(root, { declarations: null });
    for (const error of checked.errors) console.error(`the build will refuse: ${describe(error)}`);
    return 0;
  }
  console.error(usage);
  return 2;
}

const FILE_SYSTEM_ERRORS = {
  EACCES: "permission denied: check who may write there",
  EPERM: "permission denied: check who may write there",
  EISDIR: "is a folder: move it away, or give another folder",
  ENOTDIR: "a part of the path is a file, not a folder: give another path",
  ENOENT: "no such file or folder: check the path",
  ENOSPC: "no space left on the disk",
  EROFS: "the file system is read-only: give a folder on a writable one",
};

/** `main`, with what it throws as one line: what to do for a usage error, else the failure. */
async function run(root, args) {
  try {
    return await main(root, args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    // A file system's refusal names its path; the rest is the message's first line.
    const what = error.code && error.path ? `${error.path}: ${FILE_SYSTEM_ERRORS[error.code] ?? error.code}` : String(error.message).split("\n")[0].slice(0, 300);
    console.error(`error: ${what}`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  process.exitCode = await run(root, process.argv.slice(2));
}
