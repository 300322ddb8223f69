// The translation catalogue as the build checks it: every language's table read together.
// It finds what would show a wrong or empty text at run time (a message that does not
// parse, a key one language lacks, a message whose arguments differ between languages, a
// plural that misses a category of its language), reports keys nothing uses, writes the
// type declarations t() is checked against, and rewrites each table with its messages
// compiled to functions. Each problem names the file and line, the key and the language.
import { type ArgumentType, MessageError, type ReadMessage, readMessage, typeOf } from "./messages";
import { type Coverage, coverageOf, fallbacksOf, type Resolved, resolveChains } from "./resolution";

export { type Coverage, coverageLine } from "./resolution";

export interface CatalogueTable {
  /** The language's code, as in app/i18n/languages.json. */
  language: string;
  locale: string;
  /** The table's file, relative to the repository. */
  file: string;
  source: string;
  /** The table as its module exports it. */
  table: Record<string, unknown>;
  /** Keys its source writes twice (its module keeps the last value), with both lines. */
  duplicates?: DuplicateKey[];
  /** The language it inherits from (a regional variant's parent: `fr` for `fr-CA`). */
  parent?: string;
  /** The build refuses a message it lacks (languages.json's `complete`). */
  complete?: boolean;
}

export interface DuplicateKey {
  key: string;
  /** The line of the first one, then of the one written again. */
  first: number;
  again: number;
}

export interface Problem {
  file: string;
  /** 1-based; 0 when the problem is the file's as a whole. */
  line: number;
  text: string;
}

export interface CheckedCatalogue {
  errors: Problem[];
  warnings: Problem[];
  /** app/i18n/messages.generated.ts, as the tables make it. */
  declarations: string;
  /** Each table's source with its messages compiled, by file. */
  compiled: Map<string, string>;
  /**
   * Each language's messages compiled, by language then key (a JavaScript expression:
   * a string literal, or `(a,f)=>…`), the host's own texts left out: what the per-page
   * message modules are written from (app/bundling/message-modules.mjs). A message a
   * language lacks is its chain's (./resolution.ts), and `fallbacks` says whose.
   */
  messages: Map<string, Map<string, string>>;
  /** By language: the keys whose message is another language's, and that language. */
  fallbacks: Map<string, Map<string, string>>;
  /** By language (but the default): how much of the catalogue it translates. */
  coverage: Coverage[];
  /** The texts the host writes itself, by language, then by key without `host.`. */
  hostTexts: Record<string, Record<string, string>>;
  /** A message's text in a language, ICU quoting undone, when it takes no argument; else null. */
  textOf: (language: string, key: string) => string | null;
}

/**
 * Keys of the texts the host writes itself (a page that could not be made, a crawler's
 * 503, the 500 page): the build writes them into the manifest, per language, and the host
 * reads them strictly. The host gives them no argument, so each is plain text.
 */
export const HOST_KEYS = "host.";

/** A source file of the app, searched for the keys it uses. */
export interface SourceFile {
  file: string;
  text: string;
}

/** A key's message as the check read it. */
type Read = ReadMessage;

/** `problem` as people read it: `file:line: text`. */
export const describe = ({ file, line, text }: Problem): string => `${file}${line ? `:${line}` : ""}: ${text}`;

/** An entry of a table's source: its key (quoted or not), then, when it is one, its string literal. */
const ENTRY = /^(\s*(?:"((?:[^"\\\n]|\\.)+)"|'((?:[^'\\\n]|\\.)+)'|([\w$]+))\s*:\s*)("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')?/gm;

const keyOf = (match: RegExpMatchArray): string => match[4] ?? (new Function(`return ${match[2] !== undefined ? `"${match[2]}"` : `'${match[3]}'`}`)() as string);

const lines = new WeakMap<CatalogueTable, Map<string, number>>();

/** The line of a key in a table's source (0 if it cannot be found), from one pass over it. */
function lineOf(table: CatalogueTable, key: string): number {
  let byKey = lines.get(table);
  if (!byKey) {
    byKey = new Map();
    let line = 1;
    let last = 0;
    for (const match of table.source.matchAll(ENTRY)) {
      for (let i = last; i < (match.index ?? 0); i++) if (table.source.charCodeAt(i) === 10) line++;
      last = match.index ?? 0;
      const name = keyOf(match);
      // A key spelled again (a nested object's) keeps its first line.
      if (!byKey.has(name)) byKey.set(name, line + (match[1].match(/\n/g)?.length ?? 0));
    }
    lines.set(table, byKey);
  }
  return byKey.get(key) ?? 0;
}

const argumentsText = (args: Map<string, ArgumentType>) =>
  args.size === 0 ? "no argument" : [...args].map(([name, type]) => `${name}: ${typeOf(type)}`).join(", ");

/**
 * Checks the tables (`tables[0]` is the default language's, the one others are compared
 * with) and the app's sources (for unused keys).
 */
export function checkCatalogue(tables: CatalogueTable[], sources: SourceFile[]): CheckedCatalogue {
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  // By table, not by language: the import checks a translator's file of the default
  // language against that language's own table.
  const reads = new Map<CatalogueTable, Map<string, Read>>();

  for (const table of tables) {
    const read = new Map<string, Read>();
    reads.set(table, read);
    for (const { key, first, again } of table.duplicates ?? []) {
      const what = Object.prototype.hasOwnProperty.call(table.table, key) ? `message "${key}" (${table.language})` : `the key "${key}"`;
      errors.push({
        file: table.file,
        line: again,
        text: `${what} is written twice, at ${table.file}:${first} and ${table.file}:${again}, and only the last would be kept: remove one`,
      });
    }
    for (const [key, entry] of Object.entries(table.table)) {
      const at = { file: table.file, line: lineOf(table, key) };
      const named = `message "${key}" (${table.language})`;
      if (typeof entry === "function") {
        // Code no translator's file can carry, nor the build check: every entry is a message.
        errors.push({ ...at, text: `${named} is code, a function: write it as an ICU message, which translators can work on and the build checks and compiles` });
      } else if (typeof entry !== "string") {
        errors.push({ ...at, text: `${named} is a ${typeof entry}: a message is a string` });
      } else {
        try {
          const message = readMessage(entry);
          read.set(key, message);
          checkPlurals(message, table, named, at, errors, warnings);
          if (key.startsWith(HOST_KEYS) && message.text === null) errors.push({ ...at, text: hostArgument(named) });
        } catch (error) {
          if (!(error instanceof MessageError)) throw error;
          errors.push({ ...at, text: `${named} ${error.message}` });
        }
      }
    }
  }

  const [first, ...others] = tables;
  const reference = reads.get(first) ?? new Map<string, Read>();
  for (const table of others) {
    const read = reads.get(table) ?? new Map<string, Read>();
    for (const key of Object.keys(first.table)) {
      // A language may be partial: what it lacks comes along its chain (./resolution.ts),
      // unless the project promised it whole.
      if (table.complete && !Object.prototype.hasOwnProperty.call(table.table, key)) {
        errors.push({
          file: table.file,
          line: 0,
          text: `message "${key}" is missing in ${table.language}, which is complete ("complete": true in app/i18n/languages.json; it is in ${first.language}, ${first.file}:${lineOf(first, key)})`,
        });
      }
    }
    for (const key of Object.keys(table.table)) {
      const at = { file: table.file, line: lineOf(table, key) };
      if (!Object.prototype.hasOwnProperty.call(first.table, key)) {
        errors.push({ ...at, text: `message "${key}" is only in ${table.language}: add it to ${first.language} (${first.file}), or remove it` });
        continue;
      }
      const mine = read.get(key);
      const theirs = reference.get(key);
      if (!mine || !theirs) continue; // already reported
      if (sameArguments(mine.arguments, theirs.arguments)) continue;
      const named = `message "${key}" (${table.language}) takes ${argumentsText(mine.arguments)}`;
      const where = `${first.file}:${lineOf(first, key)}`;
      errors.push({
        ...at,
        text:
          table.language === first.language
            ? // A translator's file of the default language itself (the import checks it so).
              `${named}, but at ${where} it takes ${argumentsText(theirs.arguments)}: the default language's arguments are those t() is called with, in every language; change them in its table and the calls, not in a translator's file`
            : `${named}, but in ${first.language} it takes ${argumentsText(theirs.arguments)}: every language takes the same arguments (${first.language}'s is at ${where})`,
      });
    }
  }

  reportUnused(first, sources, warnings);
  const resolved = resolveChains(tables, reads);
  return {
    errors,
    warnings,
    declarations: declarations(first, reference),
    compiled: compiledTables(tables, reads, errors),
    messages: compiledMessages(resolved),
    fallbacks: fallbacksOf(resolved),
    coverage: coverageOf(tables, reads),
    hostTexts: hostTexts(resolved),
    textOf: (language, key) => resolved.get(language)?.get(key)?.read.text ?? null,
  };
}

const hostArgument = (named: string) => `${named} is written by the host, which gives it no argument: write it as plain text`;

function compiledMessages(resolved: Resolved): Map<string, Map<string, string>> {
  const messages = new Map<string, Map<string, string>>();
  for (const [language, found] of resolved) {
    messages.set(language, new Map([...found].filter(([key]) => !key.startsWith(HOST_KEYS)).map(([key, { read }]) => [key, read.code])));
  }
  return messages;
}

/** Each language's host texts (`HOST_KEYS`), by key without the prefix, along its chain. */
function hostTexts(resolved: Resolved): Record<string, Record<string, string>> {
  const texts: Record<string, Record<string, string>> = {};
  for (const [language, found] of resolved) {
    texts[language] = {};
    for (const [key, { read }] of found) {
      if (key.startsWith(HOST_KEYS) && read.text !== null) {
        texts[language][key.slice(HOST_KEYS.length)] = read.text;
      }
    }
  }
  return texts;
}

function sameArguments(a: Map<string, ArgumentType>, b: Map<string, ArgumentType>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, type] of a) {
    const other = b.get(name);
    if (!other || typeOf(other) !== typeOf(type)) return false;
  }
  return true;
}

/** Each plural covers its language's categories; with `other` a missing one is only a warning. */
function checkPlurals(
  message: ReadMessage,
  table: CatalogueTable,
  named: string,
  at: { file: string; line: number },
  errors: Problem[],
  warnings: Problem[],
): void {
  for (const plural of message.plurals) {
    const type = plural.ordinal ? "ordinal" : "cardinal";
    const categories = new Intl.PluralRules(table.locale, { type }).resolvedOptions().pluralCategories;
    const missing = categories.filter((category) => !plural.categories.includes(category));
    const unknown = plural.categories.filter((category) => !(categories as string[]).includes(category));
    const what = `its ${plural.ordinal ? "selectordinal" : "plural"} on "${plural.argument}"`;
    if (unknown.length > 0) {
      errors.push({ ...at, text: `${named}: ${what} has the case ${unknown.join(", ")}, which ${table.locale} never selects (its categories: ${categories.join(", ")})` });
    }
    if (missing.length === 0) continue;
    const text = `${named}: ${what} lacks ${missing.join(", ")} of ${table.locale}'s categories (${categories.join(", ")})`;
    if (plural.categories.includes("other")) warnings.push({ ...at, text: `${text}; \`other\` is shown instead` });
    else errors.push({ ...at, text: `${text}, and has no \`other\`` });
  }
}

/**
 * Keys no source file names as a string: a warning (a key built at run time, t.dynamic(),
 * is one). The host's keys are the host's to use.
 */
function reportUnused(first: CatalogueTable, sources: SourceFile[], warnings: Problem[]): void {
  const quoted = new Set<string>();
  for (const { text } of sources) {
    // Empty and escaped strings too, as app/bundling/message-groups.mjs reads them.
    for (const match of text.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$\n]|\\.)*)`/g)) quoted.add(match[1] ?? match[2] ?? match[3]);
  }
  for (const key of Object.keys(first.table)) {
    if (!quoted.has(key) && !key.startsWith(HOST_KEYS)) {
      warnings.push({ file: first.file, line: lineOf(first, key), text: `message "${key}" is used nowhere in app/ (a key only built at run time, through t.dynamic(), cannot be seen)` });
    }
  }
}

/** app/i18n/messages.generated.ts: the keys and each key's arguments. */
function declarations(first: CatalogueTable, reads: Map<string, Read>): string {
  const lines: string[] = [];
  const plain: string[] = [];
  for (const [key, read] of reads) {
    const name = JSON.stringify(key);
    if (read.arguments.size === 0) {
      plain.push(name);
      lines.push(`  ${name}: null;`);
    } else {
      const args = [...read.arguments].map(([arg, type]) => `${JSON.stringify(arg)}: ${typeOf(type)}`);
      lines.push(`  ${name}: { ${args.join("; ")} };`);
    }
  }
  return [
    `// GENERATED from ${first.file} and the other tables: do not edit. After a change to a`,
    "// table, run `node app/bundling/catalogue.mjs` (npm run dev does, after each build) and",
    "// commit this file: app/bundling/declarations.test.mjs fails when it is not what they make.",
    "",
    "/** Each message's arguments, by key (null: it takes none). */",
    "export interface Messages {",
    ...lines,
    "}",
    "",
    "/** The keys of messages that take no argument. */",
    `export type PlainKey = ${plain.length > 0 ? plain.join(" | ") : "never"};`,
    "",
    "/**",
    " * A table that may say only some messages (a regional variant, a language not finished yet):",
    " * `const frCA = { … } satisfies PartialTable;` checks its keys; the rest comes along its chain.",
    " */",
    "export type PartialTable = { readonly [Key in keyof Messages]?: string };",
    "",
  ].join("\n");
}

/** Where a host text's entry stood, until its line goes (its comma and comment with it). */
const HOST_ENTRY_GONE = "__bilingue_host_text_gone__";

/**
 * Each table's source with every ICU message replaced by its compiled function (plain
 * text stays as it is): the browser gets functions, not messages to parse. A message the
 * source does not spell as one string literal after its key cannot be replaced: an error.
 */
function compiledTables(tables: CatalogueTable[], reads: Map<CatalogueTable, Map<string, Read>>, errors: Problem[]): Map<string, string> {
  const compiled = new Map<string, string>();
  for (const table of tables) {
    const read = reads.get(table) ?? new Map<string, Read>();
    const replaced = new Map<string, number>();
    const source = table.source.replace(ENTRY, (...match) => {
      const [whole, head, , , , literal] = match as string[];
      const key = keyOf(match as unknown as RegExpMatchArray);
      const entry = read.get(key);
      // The host's own texts go to it through the manifest: no page shows them, so no
      // bundle carries them (the first-load JavaScript is counted to the byte). One with
      // ICU quoting is as plain as another: the manifest has its text, quoting undone.
      if (key.startsWith(HOST_KEYS) && literal !== undefined) {
        replaced.set(key, (replaced.get(key) ?? 0) + 1);
        return HOST_ENTRY_GONE;
      }
      if (literal === undefined || !entry || entry.plain) return whole;
      if ((new Function(`return ${literal}`)() as unknown) !== table.table[key]) return whole;
      replaced.set(key, (replaced.get(key) ?? 0) + 1);
      return `${head}${entry.code}`;
    }).replace(new RegExp(`${HOST_ENTRY_GONE},?[^\\n]*\\n`, "g"), "");
    const duplicated = new Set(table.duplicates?.map(({ key }) => key));
    for (const [key, entry] of read) {
      if (entry.plain || replaced.get(key) === 1 || duplicated.has(key)) continue;
      errors.push({
        file: table.file,
        line: lineOf(table, key),
        text: `message "${key}" (${table.language}) must be written as one string literal after its key, for the build to compile it`,
      });
    }
    compiled.set(table.file, source);
  }
  return compiled;
}
