// The dialect of a route's parameter form (`params: { code: /^[a-z]{2,3}$/u }`): the part
// of regular expressions that JavaScript (with the `u` flag) and the host's `regex` crate
// read alike, so that the host, matching a path before any render, takes exactly the pages
// the app's router takes. The build refuses a form outside it (app/data/routeCheck.ts),
// saying what to write instead; both engines are held to app/data/form-cases.json.
//
// In it: characters as they are, `\` before one of `\^$.|?*+()[]{}/` (and `-` in a class),
// classes `[a-z0-9-]` and `[^…]`, groups `(…)` and `(?:…)`, `|`, and `?`, `*`, `+`, `{n}`,
// `{n,}`, `{n,m}` (each maybe followed by `?`); anchored, `^…$`. Out of it, because the
// two engines differ there: `.` (JavaScript leaves out four line ends, `regex` one), `\d`,
// `\w`, `\s`, `\b` (ASCII in JavaScript, Unicode in `regex`), `\p{…}`, look-arounds and
// back-references (`regex` has none), and `[`, `&&`, `--`, `~~` in a class (set
// operations in `regex`, characters in JavaScript).

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

/** Why the form `/source/flags` is outside the dialect; null when it is in it. */
export function formProblem(source: string, flags: string): string | null {
  if (flags !== "u") return `give it the u flag alone, /…/u (not /…/${flags}): the host reads it as characters, as the u flag does`;
  try {
    new Reader(source).pattern();
    return null;
  } catch (problem) {
    if (problem instanceof OutOfDialect) return problem.message;
    throw problem;
  }
}

class OutOfDialect extends Error {}

class Reader {
  private at = 0;
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

  private alternation(end: number, top = false): void {
    while (this.at < end) {
      const char = this.source[this.at];
      if (char === ")") return;
      if (char === "|") {
        if (top) this.refuse(`"|" outside a group leaves the other ends open (/^a|b$/ takes "ab…" and "…b"): group the alternatives, /^(?:a|b)$/u`);
        this.at++;
        continue;
      }
      this.atom(end);
      this.quantifier();
    }
  }

  private atom(end: number): void {
    const char = this.source[this.at];
    switch (char) {
      case "(":
        this.group(end);
        return;
      case "[":
        this.klass(end);
        return;
      case "\\":
        this.escape(false);
        return;
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
    }
  }

  private group(end: number): void {
    this.at++;
    if (this.source[this.at] === "?") {
      if (this.source[this.at + 1] !== ":") this.refuse(`"(?${this.source[this.at + 1] ?? ""}": look-arounds and named groups are not read alike by JavaScript and the host; write (?:…)`);
      this.at += 2;
    }
    this.alternation(end);
    if (this.source[this.at] !== ")") this.refuse("a group is not closed");
    this.at++;
  }

  private klass(end: number): void {
    this.at++;
    if (this.source[this.at] === "^") this.at++;
    if (this.source[this.at] === "]") this.refuse("an empty class matches nothing");
    while (this.at < end && this.source[this.at] !== "]") {
      const char = this.source[this.at];
      const pair = this.source.slice(this.at, this.at + 2);
      if (char === "[") this.refuse(`write "[" in a class as "\\["`);
      if (pair === "&&" || pair === "--" || pair === "~~") this.refuse(`"${pair}" in a class is a set operation for the host, two characters for JavaScript: escape one, "\\${pair[0]}"`);
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

  private quantifier(): void {
    const char = this.source[this.at];
    if (char === "?" || char === "*" || char === "+") {
      this.at++;
    } else if (char === "{") {
      const bound = /^\{\d+(?:,\d*)?\}/.exec(this.source.slice(this.at));
      if (!bound) this.refuse(`write "{" as "\\{" where it repeats nothing`);
      this.at += bound[0].length;
    } else {
      return;
    }
    if (this.source[this.at] === "?") this.at++;
    const after = this.source[this.at];
    if (after === "?" || after === "*" || after === "+" || after === "{") this.refuse(`"${after}" at ${this.at} repeats a repetition: group it, (?:…)`);
  }
}
