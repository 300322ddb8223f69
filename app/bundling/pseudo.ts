// The pseudo-languages of development builds (docs/translations.md): each message of the
// default language made to look translated, so what is not translated shows. Its text is
// accented (a font or an encoding that drops them shows), about a third longer (a layout
// that cannot grow shows) and in brackets (a message cut off or glued to another shows);
// the right-to-left one also wraps each word in bidi overrides, so it reads right to left
// as a right-to-left script would. Only literal text changes: the arguments, plurals and
// selects stay ICU, so each message takes what the original takes.
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { printAST } from "@formatjs/icu-messageformat-parser/printer.js";

export type PseudoKind = "accented" | "right-to-left";

/** A pseudo-language of the default one, as the development build lists it. */
export interface PseudoLanguage {
  kind: PseudoKind;
  /** `<default>-XA` (accented) and `<default>-XB` (right to left), as Android and Chrome name theirs. */
  code: string;
  direction: "ltr" | "rtl";
  name: string;
}

/** The pseudo-languages of a default language `code`. */
export function pseudoLanguages(code: string): PseudoLanguage[] {
  return [
    { kind: "accented", code: `${code}-XA`, direction: "ltr", name: pseudoText("Pseudo", "accented") },
    { kind: "right-to-left", code: `${code}-XB`, direction: "rtl", name: pseudoText("Pseudo RTL", "accented") },
  ];
}

const ACCENTED: Record<string, string> = Object.fromEntries(
  [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((letter, i) => [letter, [..."åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"][i]]),
);
/** Words the text grows by, already accented. */
const FILLER = ["ôñé", "ţŵô", "ţĥŕéé", "ƒöûŕ", "ƒîṽé", "šîẋ", "šéṽéñ", "éîĝĥţ", "ñîñé", "ţéñ"];
/** Right-to-left mark, right-to-left override, pop directional formatting. */
const RLM = "\u200f";
const RLO = "\u202e";
const PDF = "\u202c";

/**
 * Braces the text shows become look-alikes: ICU would quote them, and the build refuses a
 * quote that holds what looks like an argument.
 */
const LOOK_ALIKES: Record<string, string> = { "{": "❴", "}": "❵" };

/** `text` as the pseudo-language writes literal text. */
export function pseudoText(text: string, kind: PseudoKind): string {
  const accented = [...text].map((char) => ACCENTED[char] ?? LOOK_ALIKES[char] ?? char).join("");
  return kind === "accented" ? accented : accented.replace(/\S+/gu, (word) => `${RLM}${RLO}${word}${PDF}${RLM}`);
}

/** `message` (ICU) in the pseudo-language: the same arguments, its text changed. */
export function pseudoMessage(message: string, kind: PseudoKind): string {
  const elements = parse(message, { requiresOtherClause: false, shouldParseSkeletons: false });
  const grown = Math.ceil(visibleLength(elements) / 3);
  const filler: string[] = [];
  for (let i = 0; filler.join(" ").length < grown; i++) filler.push(FILLER[i % FILLER.length]);
  const padding = filler.length > 0 ? ` ${filler.join(" ")}` : "";
  const open: MessageFormatElement = { type: TYPE.literal, value: kind === "accented" ? "[" : `${RLM}[` };
  const close: MessageFormatElement = { type: TYPE.literal, value: `${pseudoText(padding, kind)}${kind === "accented" ? "]" : `]${RLM}`}` };
  return printAST([open, ...transform(elements, kind), close]);
}

/** The elements with their literal text made pseudo, everywhere in the message. */
function transform(elements: MessageFormatElement[], kind: PseudoKind): MessageFormatElement[] {
  return elements.map((element) => {
    switch (element.type) {
      case TYPE.literal:
        // A new literal: not its source's spelling (rawValue) nor place.
        return { type: TYPE.literal, value: pseudoText(element.value, kind) };
      case TYPE.plural:
      case TYPE.select:
        return {
          ...element,
          options: Object.fromEntries(Object.entries(element.options).map(([name, option]) => [name, { ...option, value: transform(option.value, kind) }])),
        };
      case TYPE.tag:
        return { ...element, children: transform(element.children, kind) };
      default:
        return element;
    }
  });
}

/** About how many characters the message shows: its text, with each plural or select's longest case. */
function visibleLength(elements: MessageFormatElement[]): number {
  let length = 0;
  for (const element of elements) {
    if (element.type === TYPE.literal) length += [...element.value].length;
    else if (element.type === TYPE.plural || element.type === TYPE.select) {
      length += Math.max(0, ...Object.values(element.options).map((option) => visibleLength(option.value)));
    } else length += 3; // an argument's value
  }
  return length;
}
