// The dialect of a route's parameter form (`params: { code: /^[a-z]{2,3}$/u }`): the part
// of regular expressions that JavaScript (with the `u` flag) and the host's `regex` crate
// read alike, so that the host, matching a path before any render, takes exactly the pages
// the app's router takes. The build refuses a form outside it (app/data/routeCheck.ts),
// saying what to write instead; both engines are held to app/data/form-cases.json.
//
// In it: characters as they are, `\` before one of `\^$.|?*+()[]{}/` (and `-` in a class),
// classes `[a-z0-9-]` and `[^…]`, groups `(…)` and `(?:…)`, `|` inside a group, and `?`,
// `*`, `+`, `{n}`, `{n,}`, `{n,m}` (each maybe followed by `?`); anchored, `^…$`. Out of
// it, because the two engines differ there: `.` (JavaScript leaves out four line ends,
// `regex` one), `\d`, `\w`, `\s`, `\b` (ASCII in JavaScript, Unicode in `regex`), `\p{…}`,
// look-arounds and back-references (`regex` has none), `[`, `&&`, `--`, `~~` in a class
// (set operations in `regex`, characters in JavaScript), and a lone surrogate (no
// character at all, which the manifest's JSON cannot carry). Out of it too, for the host's
// sake, a form whose repetitions multiply past MOST_COPIES (the compiled form grows with
// them, and the host refuses one past its size limit) or whose groups nest past
// MOST_DEPTH. The host's engine takes time linear in a value's length whatever the form;
// JavaScript's, which reads a path only after a navigation in the browser, backtracks:
// a repeated group that can match a value in many ways (`(?:[a-z]+)+`) can take it
// seconds on a long one, so write `[a-z]+` instead.

const SYNTAX = "\\^$.|?*+()[]{}/";
const ENGINES_DIFFER: Record<string, string> = {
  d: "write [0-9]",
  D: "write [^0-9]",
  w: "write [A-Za-z0-9_]",
  W: "write [^A-Za-z0-9_]",
  s: "write the spaces it may be, in a class",
  S: "write the characters it may be, in a class",
  b: "anchor the whole value, ^…$, instead",
  B: "anchor the whole value, ^…$, instead",
};
/** How many copies of a part its repetitions may make, all nested together (`{1000}`). */
const MOST_COPIES = 1000;
/** How deep groups may nest. */
const MOST_DEPTH = 16;

/** Why the form `/source/flags` is outside the dialect; null when it is in it. */
export function formProblem(source: string, flags: string): string | null {
  if (flags !== "u") return `give it the u flag alone, /…/u (not /…/${flags}): the host reads it as characters, as the u flag does`;
  if (!source.isWellFormed()) return "it holds a lone surrogate, which is no character: write the character whole";
  try {
    new Reader(source).pattern();
    return null;
  } catch (problem) {
    if (problem instanceof OutOfDialect) return problem.message;
    throw problem;
  }
}

class OutOfDialect extends Error {}

/** What a part of a form is, for the limits: how many copies of itself the host's engine makes. */
interface Part {
  copies: number;
}

const ONE: Part = { copies: 1 };

class Reader {
  private at = 0;
  private depth = 0;
  constructor(private readonly source: string) {}

  pattern(): void {
    const escapes = /\\*(?=\$$)/.exec(this.source)?.[0].length ?? 0;
    if (!this.source.startsWith("^") || !this.source.endsWith("$") || escapes % 2 === 1) {
      this.refuse("it must match the whole value: anchor it, /^…$/u");
    }
    this.at = 1;
    this.alternation(this.source.length - 1, true);
    if (this.at !== this.source.length - 1) this.refuse(`an unexpected "${this.source[this.at]}" at ${this.at}`);
  }

  private refuse(why: string): never {
    throw new OutOfDialect(why);
  }

  /** Alternatives up to `end` or a `)`: the most copies any of its parts makes. */
  private alternation(end: number, top = false): Part {
    let most: Part = ONE;
    while (this.at < end) {
      const char = this.source[this.at];
      if (char === ")") break;
      if (char === "|") {
        if (top) this.refuse(`"|" outside a group leaves the other ends open (/^a|b$/ takes "ab…" and "…b"): group the alternatives, /^(?:a|b)$/u`);
        this.at++;
        continue;
      }
      const part = this.quantified(this.atom(end));
      most = { copies: Math.max(most.copies, part.copies) };
    }
    return most;
  }

  private atom(end: number): Part {
    const char = this.source[this.at];
    switch (char) {
      case "(":
        return this.group(end);
      case "[":
        this.klass(end);
        return ONE;
      case "\\":
        this.escape(false);
        return ONE;
      case ".":
        this.refuse(`"." is not read alike by JavaScript and the host: write the characters it may be, in a class`);
      case "^":
      case "$":
        this.refuse(`"${char}" only at the ends: the form matches the whole value`);
      case "?":
      case "*":
      case "+":
      case "{":
        this.refuse(`"${char}" at ${this.at} repeats nothing`);
      case "]":
      case "}":
        this.refuse(`write "${char}" as "\\${char}"`);
      default:
        this.at += char.length;
        return ONE;
    }
  }

  private group(end: number): Part {
    this.at++;
    if (this.source[this.at] === "?") {
      if (this.source[this.at + 1] !== ":") this.refuse(`"(?${this.source[this.at + 1] ?? ""}": look-arounds and named groups are not read alike by JavaScript and the host; write (?:…)`);
      this.at += 2;
    }
    if (++this.depth > MOST_DEPTH) this.refuse(`groups nest deeper than ${MOST_DEPTH}`);
    const inside = this.alternation(end);
    this.depth--;
    if (this.source[this.at] !== ")") this.refuse("a group is not closed");
    this.at++;
    return inside;
  }

  private klass(end: number): void {
    this.at++;
    if (this.source[this.at] === "^") this.at++;
    if (this.source[this.at] === "]") {
      this.refuse(this.source[this.at - 1] === "^" ? `"[^]" (any character) is not read alike by the host: write the characters it may be` : "an empty class matches nothing");
    }
    while (this.at < end && this.source[this.at] !== "]") {
      const char = this.source[this.at];
      const pair = this.source.slice(this.at, this.at + 2);
      if (char === "[") this.refuse(`write "[" in a class as "\\["`);
      if (pair === "&&" || pair === "~~") this.refuse(`"${pair}" in a class is a set operation for the host, two characters for JavaScript: write "${pair[0]}" once (a class holds each character once)`);
      if (pair === "--") this.refuse(`"--" in a class is a set operation for the host, a range for JavaScript: write a dash as "\\-"`);
      if (char === "\\") this.escape(true);
      else this.at++;
    }
    if (this.source[this.at] !== "]") this.refuse("a class is not closed");
    this.at++;
  }

  private escape(inClass: boolean): void {
    const next = this.source[this.at + 1] ?? "";
    if ((next !== "" && SYNTAX.includes(next)) || (inClass && next === "-")) {
      this.at += 2;
      return;
    }
    this.refuse(`"\\${next}" is not read alike by JavaScript and the host${ENGINES_DIFFER[next] ? `: ${ENGINES_DIFFER[next]}` : ""}`);
  }

  /** `part`, with the repetition that follows it, if any. */
  private quantified(part: Part): Part {
    const at = this.at;
    const char = this.source[at];
    let [least, most] = [0, 0];
    if (char === "?" || char === "*" || char === "+") {
      [least, most] = [char === "+" ? 1 : 0, char === "?" ? 1 : Infinity];
      this.at++;
    } else if (char === "{") {
      const bound = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(at));
      if (!bound) this.refuse(`write "{" as "\\{" where it repeats nothing`);
      least = Number(bound[1]);
      most = bound[2] === undefined ? least : bound[3] === "" ? Infinity : Number(bound[3]);
      if (Math.max(least, Number.isFinite(most) ? most : 0) > MOST_COPIES) this.refuse(`"${bound[0]}" repeats more than ${MOST_COPIES} times`);
      this.at += bound[0].length;
    } else {
      return part;
    }
    if (this.source[this.at] === "?") this.at++;
    const after = this.source[this.at];
    if (after === "?" || after === "*" || after === "+" || after === "{") this.refuse(`"${after}" at ${this.at} repeats a repetition: group it, (?:…)`);
    // The host's engine writes a part out once for each copy it must match, then loops.
    const copies = part.copies * Math.max(Number.isFinite(most) ? most : least, 1);
    if (copies > MOST_COPIES) this.refuse(`its repetitions, nested, make more than ${MOST_COPIES} copies of a part`);
    return { copies };
  }
}
