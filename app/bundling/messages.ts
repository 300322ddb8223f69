// One ICU message, read at build time: the arguments it takes (with their types) and the
// small JavaScript function it is compiled to, which app/i18n/formatters.ts runs. What the
// translator cannot honour is refused here, with the reason: a date or a time (it would be
// written in the browser's time zone, not the page's, and break hydration: format it with
// app/i18n/dates.ts and pass the text), a rich-text tag (t() returns text), a plural or
// select without `other` (no case for a value the message did not foresee), and two
// slips the parser takes for text: a `}` that closes nothing, and an apostrophe that
// quotes an argument away (`d'{version}'` shows "d{version}").
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";

/** What a message needs of one argument. */
export type ArgumentType =
  | { kind: "text" } // {name}: a string or a number, written as it is
  | { kind: "number" } // {n, number}, {n, plural}, {n, selectordinal}
  | { kind: "select"; cases: string[] }; // {x, select, a {…} other {…}}

/** A plural message's cases, for the check against its language's categories. */
export interface PluralUse {
  argument: string;
  ordinal: boolean;
  /** Its category cases (`=n` cases left out). */
  categories: string[];
}

export interface ReadMessage {
  /** Arguments by name, in the order they first appear. */
  arguments: Map<string, ArgumentType>;
  plurals: PluralUse[];
  /** A JavaScript expression: `(a, f) => string`, or a string literal for plain text. */
  code: string;
  /** True when the message has no ICU syntax: its source is its text. */
  plain: boolean;
  /** Its text, ICU quoting undone, when it takes no argument; else null. */
  text: string | null;
}

/** Thrown for a message the build refuses; the reason names the argument. */
export class MessageError extends Error {}

const NUMBER_STYLES: Record<string, Intl.NumberFormatOptions> = {
  integer: { maximumFractionDigits: 0 },
  percent: { style: "percent" },
};

/** Reads and compiles `message`; throws a MessageError (or the parser's error, reworded). */
export function readMessage(message: string): ReadMessage {
  let elements: MessageFormatElement[];
  try {
    elements = parse(message, { requiresOtherClause: false, shouldParseSkeletons: true, captureLocation: true });
  } catch (error) {
    const { message: code, location } = error as Error & { location?: { start: { column: number } } };
    const at = location ? ` at column ${location.start.column}` : "";
    throw new MessageError(`is not valid ICU (${code}${at})`);
  }
  checkLiterals(message, elements, false);
  const text = plainText(elements);
  const read: ReadMessage = { arguments: new Map(), plurals: [], code: "", plain: false, text };
  if (text !== null) {
    read.plain = text === message;
    read.code = JSON.stringify(text);
    return read;
  }
  read.code = `(a,f)=>${compile(elements, read, false)}`;
  return read;
}

/**
 * Refuses what ICU reads as text but a translator hardly means: the parser (like ICU's
 * own MessagePattern) keeps a `}` outside every argument as text, and an apostrophe
 * before `{` quotes everything up to the next apostrophe, arguments included. Each
 * literal's source is read again as the parser reads it (ICU's "'" rules).
 */
function checkLiterals(message: string, elements: MessageFormatElement[], inPlural: boolean): void {
  for (const element of elements) {
    if (element.type === TYPE.literal && element.location) {
      checkLiteral(message, element.location.start.offset, element.location.end.offset, inPlural);
    } else if (element.type === TYPE.select || element.type === TYPE.plural) {
      for (const option of Object.values(element.options)) checkLiterals(message, option.value, element.type === TYPE.plural);
    } else if (element.type === TYPE.tag) {
      checkLiterals(message, element.children, inPlural);
    }
  }
}

/** An argument's opening, as the parser reads one: `{name}` or `{name,`. */
const ARGUMENT = /\{\s*([^\s{}',#]+)\s*[},]/;

function checkLiteral(message: string, start: number, end: number, inPlural: boolean): void {
  const column = (offset: number) => [...message.slice(0, offset)].length + 1;
  for (let i = start; i < end; i++) {
    const char = message[i];
    if (char === "}") {
      throw new MessageError(`has a } that closes nothing, at column ${column(i)}: remove it, or write '}' to show one`);
    }
    if (char !== "'") continue;
    const next = message[i + 1] ?? "";
    if (next === "'") {
      i++; // '' is one apostrophe
      continue;
    }
    if (!(next !== "" && "{}<>".includes(next)) && !(next === "#" && inPlural)) continue; // an apostrophe as text
    let close = i + 1;
    while (close < end && !(message[close] === "'" && message[close + 1] !== "'")) close += message[close] === "'" ? 2 : 1;
    const swallowed = message.slice(i + 1, close).match(ARGUMENT);
    if (swallowed) {
      throw new MessageError(
        `has an apostrophe at column ${column(i)} that quotes {${swallowed[1]}…} as text (ICU quoting), so it would never be replaced: ` +
          `write the apostrophe ’ (or '' for a straight one), or quote each brace, '{'${swallowed[1]}'}', to show the braces`,
      );
    }
    i = close;
  }
}

/** The text of a message without arguments, or null. */
function plainText(elements: MessageFormatElement[]): string | null {
  let text = "";
  for (const element of elements) {
    if (element.type !== TYPE.literal) return null;
    text += element.value;
  }
  return text;
}

function use(read: ReadMessage, name: string, type: ArgumentType): void {
  const known = read.arguments.get(name);
  if (!known || known.kind === "text") {
    read.arguments.set(name, type.kind === "text" && known ? known : type);
    return;
  }
  if (type.kind === "text") return; // {n} beside {n, number}: a number, written as it is
  if (known.kind !== type.kind) throw new MessageError(`uses the argument "${name}" both as a ${known.kind} and as a ${type.kind}`);
  if (known.kind === "select" && type.kind === "select") {
    read.arguments.set(name, { kind: "select", cases: [...new Set([...known.cases, ...type.cases])] });
  }
}

/** A JavaScript expression for `elements`; `pound` is true inside a plural (`#` is `n`). */
function compile(elements: MessageFormatElement[], read: ReadMessage, pound: boolean): string {
  const parts: string[] = [];
  for (const element of elements) {
    switch (element.type) {
      case TYPE.literal:
        parts.push(JSON.stringify(element.value));
        break;
      case TYPE.argument:
        use(read, element.value, { kind: "text" });
        parts.push(`a[${JSON.stringify(element.value)}]`);
        break;
      case TYPE.number: {
        use(read, element.value, { kind: "number" });
        const { style } = element;
        let options: Intl.NumberFormatOptions | undefined;
        if (typeof style === "string") {
          options = NUMBER_STYLES[style];
          if (!options) throw new MessageError(`formats "${element.value}" with the number style "${style}", which is not one of integer, percent or a ::skeleton`);
        } else if (style) {
          options = style.parsedOptions;
        }
        const value = `a[${JSON.stringify(element.value)}]`;
        parts.push(options && Object.keys(options).length > 0 ? `f.n(${value},${JSON.stringify(options)})` : `f.n(${value})`);
        break;
      }
      case TYPE.pound:
        if (!pound) throw new MessageError("has a # outside a plural");
        parts.push("n");
        break;
      case TYPE.select: {
        const cases = Object.keys(element.options);
        if (!cases.includes("other")) throw new MessageError(`selects on "${element.value}" without an \`other\` case`);
        use(read, element.value, { kind: "select", cases });
        const options = cases.map((name) => `${JSON.stringify(name)}:()=>${compile(element.options[name].value, read, pound)}`);
        parts.push(`f.s(a[${JSON.stringify(element.value)}],{${options.join(",")}})`);
        break;
      }
      case TYPE.plural: {
        const ordinal = element.pluralType === "ordinal";
        use(read, element.value, { kind: "number" });
        const cases = Object.keys(element.options);
        const categories = cases.filter((name) => !name.startsWith("="));
        read.plurals.push({ argument: element.value, ordinal, categories });
        const options = cases.map((name) => `${JSON.stringify(name)}:n=>${compile(element.options[name].value, read, true)}`);
        parts.push(`f.p(a[${JSON.stringify(element.value)}],${element.offset},${ordinal ? 1 : 0},{${options.join(",")}})`);
        break;
      }
      case TYPE.date:
      case TYPE.time:
        throw new MessageError(
          `formats "${element.value}" as a ${element.type === TYPE.date ? "date" : "time"}, which would follow the browser's time zone, not the page's: format it with app/i18n/dates.ts and pass the text`,
        );
      case TYPE.tag:
        throw new MessageError(`has the tag <${element.value}>, but t() returns text: split the message around it`);
    }
  }
  if (parts.length === 0) return '""';
  // A string first makes `+` concatenate; an argument first may be a number.
  return parts[0].startsWith("a[") ? `""+${parts.join("+")}` : parts.join("+");
}

/** A TypeScript type for an argument. */
export function typeOf(type: ArgumentType): string {
  switch (type.kind) {
    case "text":
      return "string | number";
    case "number":
      return "number";
    case "select":
      return type.cases.map((name) => JSON.stringify(name)).join(" | ");
  }
}
