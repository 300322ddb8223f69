// The translation catalogue in the build (app/bundling/catalogue.ts does the checking):
// - an esbuild plugin, in both bundles and the development loop: before each build it
//   checks every table (an error fails the build, naming file, line, key and language;
//   warnings are printed once), then gives each table module with its messages compiled
//   to functions, so the browser parses no ICU;
// - a command, `node app/bundling/catalogue.mjs`, the one that rewrites
//   app/i18n/messages.generated.ts (the key union and each key's arguments that t() is
//   typed with) and reports the same problems. That file is committed, so a fresh clone
//   type-checks; a build never writes it (the development loop does, after each build),
//   and app/bundling/declarations.test.mjs fails when it is not what the tables make.
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importAlone } from "./import-alone.mjs";
import { groupsJson } from "./message-groups.mjs";
import { addPathsSource } from "./route-paths.mjs";
import { DATE_LOCALE, GROUPS_MODULE, languageModule, ROUTE_MESSAGES, routeIndex, routeIndexOf, routeMessagesOf, routeModule, wholeLanguageModule } from "./message-modules.mjs";

export const DECLARATIONS = "app/i18n/messages.generated.ts";
const TABLE = /[\\/]app[\\/]i18n[\\/]tables[\\/][\w-]+\.ts$/;

/** The keys `file` writes twice in an object, as esbuild warns of them (its module keeps the last). */
function duplicateKeys(file, warnings) {
  return warnings
    .filter(({ id, location }) => id === "duplicate-object-key" && location?.file === file)
    .map(({ location, notes }) => {
      // esbuild's columns and lengths count UTF-8 bytes.
      const token = Buffer.from(location.lineText).subarray(location.column, location.column + location.length).toString();
      const key = /^["']/.test(token) ? new Function(`return ${token}`)() : token;
      return { key, first: notes[0]?.location?.line ?? 0, again: location.line };
    });
}

let checker = null;
const loadedTables = new Map(); // file → { source, module }
let last = null; // { inputs, result }

/** The app's sources that may name a key (not the tables, tests or build code). */
async function appSources(root) {
  const files = (await readdir(path.join(root, "app"), { recursive: true }))
    .map((file) => file.split(path.sep).join("/"))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|\.generated\.ts$|^i18n\/tables\/|^bundling\//.test(file));
  return Promise.all(files.map(async (file) => ({ file: `app/${file}`, text: await readFile(path.join(root, "app", file), "utf8") })));
}

/** A table's module and its keys written twice, imported again only when its source changed; a problem if it is not one. */
async function tableModule(root, file, source, code) {
  const loaded = loadedTables.get(file);
  if (loaded?.source === source) return loaded;
  if (!/^export default \w+;$/m.test(source)) throw problem(file, `${file} must end with \`export default <table>;\``);
  const { module, warnings } = await importAlone(root, file);
  if (!module.dateLocale?.formatLong || !module.dateLocale?.localize) {
    throw problem(file, `${file} must export its date locale beside the table, e.g. \`export { ${code} as dateLocale } from "date-fns/locale/${code}";\``);
  }
  const table = { source, module, duplicates: duplicateKeys(file, warnings) };
  loadedTables.set(file, table);
  return table;
}

const problem = (file, text) => Object.assign(new Error(text), { problems: [{ file, line: 0, text }] });

/**
 * Checks the catalogue of the app at `root`, read from its files (app/i18n/languages.json's
 * languages, the default first; `checkCatalogue` of catalogue.ts checks what it is given):
 * { errors, warnings, compiled, declarations, fresh }. It writes nothing: the declarations
 * are committed, and only `writeDeclarations` (the command below) rewrites them. The
 * tests give other tables (`tables`: { code, locale, file }, the default first), other
 * sources, and `declarations`: the file to write the declarations to (null: none), which
 * `write: true` writes.
 */
export function checkAppCatalogue(root, options = {}) {
  // One check at a time: the two bundles of a build ask together, and the second one
  // finds the first one's result.
  const run = queue.then(() => check(root, options));
  queue = run.catch(() => {});
  return run;
}
let queue = Promise.resolve();

async function check(root, options) {
  checker ??= (await importAlone(root, fileURLToPath(new URL("./catalogue.ts", import.meta.url)))).module;
  const listed = options.tables ?? (await listedTables(root));
  const tables = [];
  try {
    for (const { code, locale, file, parent, complete } of listed) {
      const source = await readFile(path.join(root, file), "utf8");
      const { module, duplicates } = await tableModule(root, file, source, code);
      tables.push({ language: code, locale, file, source, module, duplicates, parent, complete });
    }
  } catch (error) {
    const errors = error.problems ?? error.errors?.map((e) => ({ file: e.location?.file ?? "", line: e.location?.line ?? 0, text: e.text }));
    if (errors) {
      return { errors, warnings: [], compiled: new Map(), messages: new Map(), fallbacks: new Map(), coverage: [], declarations: null, hostTexts: {}, textOf: () => null, fresh: true };
    }
    throw error;
  }
  const sources = options.sources ?? (await appSources(root));
  const declarations = options.declarations === undefined ? path.join(root, DECLARATIONS) : options.declarations;
  const inputs = JSON.stringify([tables.map((t) => [t.file, t.locale, t.parent, t.complete, t.source]), sources]);
  let result = last?.root === root && last.inputs === inputs ? last.result : null;
  const fresh = result === null;
  if (fresh) {
    result = checker.checkCatalogue(
      tables.map(({ module, ...table }) => ({ ...table, table: module.default })),
      sources,
    );
    last = { root, inputs, result };
  }
  if (declarations && options.write) {
    const current = await readFile(declarations, "utf8").catch(() => null);
    if (current !== result.declarations) await writeFile(declarations, result.declarations);
  }
  return { ...result, fresh };
}

/**
 * Rewrites app/i18n/messages.generated.ts from the tables (when it changed), and gives
 * the check's result: the command below, and the development loop after each build.
 */
export const writeDeclarations = (root) => checkAppCatalogue(root, { write: true });

/** The listed languages' tables, the default language's first. */
async function listedTables(root) {
  const declared = JSON.parse(await readFile(path.join(root, "app/i18n/languages.json"), "utf8"));
  const first = declared.languages.filter(({ code }) => code === declared.default);
  return [...first, ...declared.languages.filter(({ code }) => code !== declared.default)].map(({ code, locale, parent, complete }) => ({
    code,
    locale,
    parent,
    complete: complete === true,
    file: `app/i18n/tables/${code}.ts`,
  }));
}

const describe = ({ file, line, text }) => `${file}${line ? `:${line}` : ""}: ${text}`;

/** esbuild's message for a problem. */
const messageOf = async (root, { file, line, text }) => {
  if (!line) return { text: file && !text.startsWith(file) ? `${file}: ${text}` : text };
  const lineText = (await readFile(path.join(root, file), "utf8")).split("\n")[line - 1] ?? "";
  return { text, location: { file, line, column: 0, lineText } };
};

/**
 * The esbuild plugin: checks before each build, and gives the tables compiled. With
 * `split` (the app's own bundles: { side: "client" | "server", groups, pseudo }), each page
 * ships only its messages: `groups` (./message-groups.mjs, set before each build) says
 * which; the client's table modules become language modules (./message-modules.mjs), and
 * the server's keep their tables whole beside the groups (`bilingue:message-groups`).
 * `pseudo` (development): { base, messages() }, the pseudo-languages' messages, by code then
 * key, which the base language's modules carry. `messageIds` (the client's, in production):
 * the keys' ids, which its modules of messages are keyed by (./message-ids.mjs).
 */
export function catalogue(root, split = null) {
  return {
    name: "catalogue",
    setup(b) {
      let checked = null;
      b.onStart(async () => {
        checked = await checkAppCatalogue(root);
        if (checked.fresh) {
          for (const warning of checked.warnings) console.warn(`[catalogue] warning: ${describe(warning)}`);
          // How much each partial language translates; the rest is its chain's.
          for (const coverage of checked.coverage) if (coverage.missing.length > 0) console.log(`[catalogue] ${checker.coverageLine(coverage)}`);
        }
        if (checked.errors.length > 0) return { errors: await Promise.all(checked.errors.map((p) => messageOf(root, p))) };
        return undefined;
      });
      const relative = (file) => path.relative(root, file).split(path.sep).join("/");
      const codeOf = (file) => path.basename(file, ".ts");
      const pseudoFor = async (code) => (split?.pseudo?.base === code ? await split.pseudo.messages() : null);
      b.onLoad({ filter: TABLE, namespace: "file" }, async (args) => {
        const file = relative(args.path);
        const contents = checked?.compiled.get(file);
        // A table of a language the list does not have is bundled as it is.
        if (contents === undefined) return undefined;
        const code = codeOf(args.path);
        const messages = checked.messages.get(code) ?? new Map();
        const fallbacks = checked.fallbacks.get(code);
        const pseudo = await pseudoFor(code);
        const resolveDir = path.dirname(args.path);
        if (split?.side === "client" && split.groups) {
          // Its route paths: its own language's, and its pseudo-languages'.
          const paths = split.routePatterns && addPathsSource(root, Object.fromEntries([code, ...(pseudo?.keys() ?? [])].map((carried) => [carried, split.routePatterns[carried] ?? {}])));
          return { contents: languageModule({ code, tableFile: args.path, groups: split.groups, messages, fallbacks, pseudo, paths, ids: split.messageIds }), loader: "js", resolveDir };
        }
        // The server's, and a bundle without the split's (the app's unit tests): every message.
        return { contents: wholeLanguageModule({ tableFile: args.path, messages, fallbacks, pseudo }), loader: "js", resolveDir };
      });
      b.onResolve({ filter: new RegExp(`^${GROUPS_MODULE}$`) }, () => ({ path: GROUPS_MODULE, namespace: "message-groups" }));
      b.onLoad({ filter: /.*/, namespace: "message-groups" }, () => ({ contents: JSON.stringify(split?.groups ? groupsJson(split.groups) : null), loader: "json" }));
      // A table's own source, for its date locale alone (the bundler drops its table).
      b.onResolve({ filter: /\?date-locale$/ }, (args) => ({ path: args.path.slice(0, -DATE_LOCALE.length), namespace: "date-locale" }));
      b.onLoad({ filter: /.*/, namespace: "date-locale" }, async (args) => ({ contents: await readFile(args.path, "utf8"), loader: "ts", resolveDir: path.dirname(args.path) }));
      if (!split) return;
      b.onResolve({ filter: new RegExp(`^${ROUTE_MESSAGES}:`) }, (args) => ({ path: args.path.slice(ROUTE_MESSAGES.length + 1), namespace: ROUTE_MESSAGES }));
      b.onLoad({ filter: /.*/, namespace: ROUTE_MESSAGES }, async (args) => {
        const indexOf = routeIndexOf(args.path);
        if (indexOf !== null) return { contents: routeIndex({ code: indexOf, groups: split.groups }), loader: "js" };
        const { code, route } = routeMessagesOf(args.path);
        const keys = split.groups?.routes.get(route) ?? new Set();
        const ids = split.side === "client" ? split.messageIds : null;
        return { contents: routeModule({ keys, messages: checked.messages.get(code) ?? new Map(), fallbacks: checked.fallbacks.get(code), pseudo: await pseudoFor(code), ids }), loader: "js" };
      });
    },
  };
}

// `node app/bundling/catalogue.mjs`: the declarations, and the problems.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const { errors, warnings } = await writeDeclarations(root);
  for (const warning of warnings) console.warn(`warning: ${describe(warning)}`);
  for (const error of errors) console.error(`error: ${describe(error)}`);
  if (errors.length > 0) process.exit(1);
}
