// A translation table's source as text, for what must change it without touching the rest:
// the import of a translator's file writes new messages into it (and adds the keys it
// lacked) and leaves every other byte as it was, comments and layout included; the export
// reads the description a developer wrote above a message, a `/** … */` comment.

/** One entry of a table's object literal, as its source spells it. */
export interface SourceEntry {
  key: string;
  /** 1-based line of the key. */
  line: number;
  /** Offsets of its value when it is one string literal (else null: code, or a message built by `+`). */
  literal: { start: number; end: number } | null;
  /** Offset of the line where its block begins: the comments above it, or the entry itself. */
  blockStart: number;
  /** Offset of its own line, and just past it. */
  lineStart: number;
  lineEnd: number;
  /** The `/** … *\/` comment right above it, as text, or null. */
  description: string | null;
}

/** A key (quoted or not), `:`, then, when it is one, a string literal and what follows it on its line. */
const ENTRY = /^([ \t]*)(?:"((?:[^"\\\n]|\\.)+)"|'((?:[^'\\\n]|\\.)+)'|([\w$]+))[ \t]*:[ \t]*(?:("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')(?=[ \t]*(?:,|\n|\/\/|\}|$)))?/gm;
/** A doc comment that ends where the entry's line begins, blank space aside. */
const DESCRIPTION = /\/\*\*((?:[^*]|\*(?!\/))*)\*\/[ \t]*\n?[ \t]*$/;

const unquote = (literal: string): string => new Function(`return ${literal}`)() as string;

/** The entries of a table's source, in order; only those of the object after `const <name>… = {`. */
export function entriesOf(source: string): SourceEntry[] {
  const open = source.search(/^(?:export\s+)?const\s+\w+\b[^=]*=\s*\{/m);
  const body = open < 0 ? 0 : source.indexOf("{", source.indexOf("=", open)) + 1;
  const close = endOfObject(source, body);
  const entries: SourceEntry[] = [];
  ENTRY.lastIndex = body;
  let previousEnd = source[body] === "\n" ? body + 1 : body;
  for (let match = ENTRY.exec(source); match && match.index < close; match = ENTRY.exec(source)) {
    const [whole, , double, single, bare, literal] = match;
    const key = bare ?? unquote(double !== undefined ? `"${double}"` : `'${single}'`);
    const literalStart = literal === undefined ? -1 : match.index + whole.length - literal.length;
    const newline = source.indexOf("\n", match.index);
    const lineEnd = newline < 0 ? source.length : newline + 1;
    const above = source.slice(previousEnd, match.index).match(DESCRIPTION);
    entries.push({
      key,
      line: lineAt(source, match.index),
      literal: literal === undefined ? null : { start: literalStart, end: literalStart + literal.length },
      blockStart: previousEnd,
      lineStart: match.index,
      lineEnd,
      description: above ? descriptionText(above[1]) : null,
    });
    previousEnd = lineEnd;
    ENTRY.lastIndex = lineEnd;
  }
  return entries;
}

/** The offset of the `}` that closes the object whose body starts at `start` (strings and comments skipped). */
function endOfObject(source: string, start: number): number {
  let depth = 1;
  for (let i = start; i < source.length; i++) {
    const char = source[i];
    if (char === '"' || char === "'" || char === "`") {
      for (i++; i < source.length && source[i] !== char; i++) if (source[i] === "\\") i++;
    } else if (char === "/" && source[i + 1] === "/") {
      i = source.indexOf("\n", i);
      if (i < 0) return source.length;
    } else if (char === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i + 2) + 1;
      if (i <= 0) return source.length;
    } else if (char === "{") {
      depth++;
    } else if (char === "}" && --depth === 0) {
      return i;
    }
  }
  return source.length;
}

function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf("\n"); i >= 0 && i < offset; i = source.indexOf("\n", i + 1)) line++;
  return line;
}

/** A doc comment's text: each line without its leading `*`, joined by spaces. */
function descriptionText(comment: string): string {
  return comment
    .split("\n")
    .map((line) => line.replace(/^\s*\*?\s?/, "").trim())
    .filter(Boolean)
    .join(" ");
}

/** The value a source spells at `entry`, when it is one string literal. */
export const literalValue = (source: string, entry: SourceEntry): string | null =>
  entry.literal ? unquote(source.slice(entry.literal.start, entry.literal.end)) : null;

/**
 * `source` with `messages` written in: an entry whose literal already says the message is
 * left as it is (its quotes and escapes too); another gets the message as a new literal; a
 * key the source lacks is added after the nearest key before it in `order` (the default
 * language's keys), or first. Throws for a key whose value is not one string literal.
 */
export function writeMessages(source: string, messages: Map<string, string>, order: readonly string[]): string {
  const entries = entriesOf(source);
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  const edits: { at: number; end: number; text: string }[] = [];
  const added = new Map<SourceEntry, string[]>(); // the entry after which (or, first, before which) keys are added
  let first: string[] = [];
  for (const [key, message] of messages) {
    const entry = byKey.get(key);
    if (entry) {
      if (!entry.literal) throw new Error(`message "${key}" is not one string literal in its table: it cannot be written`);
      if (literalValue(source, entry) !== message) edits.push({ at: entry.literal.start, end: entry.literal.end, text: JSON.stringify(message) });
      continue;
    }
    const line = (indentOf: SourceEntry) => `${source.slice(indentOf.lineStart).match(/^[ \t]*/)?.[0]}${JSON.stringify(key)}: ${JSON.stringify(message)},\n`;
    const before = order.slice(0, Math.max(order.indexOf(key), 0)).reverse().find((other) => byKey.has(other));
    const anchor = before === undefined ? undefined : byKey.get(before);
    if (anchor) added.set(anchor, [...(added.get(anchor) ?? []), line(anchor)]);
    else if (entries[0]) first = [...first, line(entries[0])];
    else throw new Error(`the table has no entry to add message "${key}" beside`);
  }
  if (first.length > 0) edits.push({ at: entries[0].blockStart, end: entries[0].blockStart, text: first.join("") });
  for (const [anchor, lines] of added) {
    // An entry added after the last one needs that one to end with a comma.
    if (anchor.literal && !/^[ \t]*,/.test(source.slice(anchor.literal.end))) edits.push({ at: anchor.literal.end, end: anchor.literal.end, text: "," });
    // After an entry that ends the file without a newline, the added ones start their own line.
    const text = lines.join("");
    edits.push({ at: anchor.lineEnd, end: anchor.lineEnd, text: source[anchor.lineEnd - 1] === "\n" ? text : `\n${text}` });
  }
  edits.sort((a, b) => b.at - a.at || b.end - a.end);
  let written = source;
  for (const { at, end, text } of edits) written = written.slice(0, at) + text + written.slice(end);
  return written;
}
