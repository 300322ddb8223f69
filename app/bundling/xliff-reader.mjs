// An XLIFF 2 file's text as an ImportedFile (app/bundling/translators.ts), read with sax, a
// strict XML parser that tells where each element starts: every unit's line, and every
// error's, is the file's own. What XLIFF 2 says of a unit is kept: its segments (and the
// ignorable text between them, as tools split a message by sentence) joined in order, and
// a segment with state="initial" (a draft, as translate-toolkit's markfuzzy writes it)
// not imported. The file is data, never instructions: a DOCTYPE (entities, external
// files) and XInclude are refused, not followed.
import sax from "sax";

const XLIFF_2 = "urn:oasis:names:tc:xliff:document:2.0";
const XINCLUDE = "http://www.w3.org/2001/XInclude";
const VERSIONS = ["2.0", "2.1", "2.2"];

/** Stops the reading of a file at its first fault of structure, with the line. */
class Unreadable extends Error {
  constructor(line, text) {
    super(text);
    this.line = line;
  }
}

/** `text` (a file's) as an ImportedFile: { file, language, languageField, units, errors }. */
export function readXliff(file, text) {
  // XML 1.0 §2.11: a processor reads CR LF, and a lone CR, as LF.
  const normalised = text.replace(/\r\n?/g, "\n");
  const read = { file, language: null, languageField: "trgLang", units: [], errors: [] };
  try {
    parse(normalised, read);
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    return { ...read, units: [], errors: [{ file, line: error.line, text: error.message }] };
  }
  return read;
}

function parse(text, read) {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const lineAt = (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };

  // strictEntities: XML's five entities only (sax knows HTML's, &nbsp; and the rest, unless told).
  const parser = sax.parser(true, { xmlns: true, position: true, strictEntities: true });
  const open = []; // the elements around, outermost first: { name, uri }
  let root = null;
  let unit = null; // { key, line, parts, refused }
  let part = null; // a <segment> or <ignorable>: { element, kind, state, source, target, sourceMarkup, targetMarkup }
  let capture = null; // the text of a <source> or <target>: { into, value, markup }

  parser.onerror = (error) => {
    throw new Unreadable(parser.line + 1, `is not well-formed XML (${error.message.split("\n")[0].toLowerCase()}, at column ${parser.column}): an XLIFF tool writes it whole; export again, or fix it`);
  };
  parser.ondoctype = () => {
    throw new Unreadable(parser.line + 1, "has a DOCTYPE, which an XLIFF file has no need of (its entities and external files would make the import read more than the file): remove it");
  };
  parser.onopentag = (node) => {
    const line = lineAt(parser.startTagPosition - 1);
    const attribute = (name) => node.attributes[name]?.value;
    if (node.uri === XINCLUDE) throw new Unreadable(line, `has an XInclude <${node.name}>, which the import does not follow: write the text in the file itself`);
    if (capture) {
      capture.markup = true;
    } else if (open.length === 0) {
      if (root) throw new Unreadable(line, "has a second root element after its <xliff>: a file is one <xliff>");
      root = node;
      if (node.local !== "xliff") throw new Unreadable(line, `is not an XLIFF file: its root element is <${node.name}>, not <xliff>`);
      if (node.uri !== XLIFF_2 || !VERSIONS.includes(attribute("version"))) {
        throw new Unreadable(line, `is not XLIFF 2: its <xliff> element needs version="2.0" (or 2.1, 2.2) and xmlns="${XLIFF_2}"`);
      }
      read.language = attribute("trgLang") || null;
    } else if (node.uri === XLIFF_2) {
      const parent = open.at(-1);
      if (node.local === "group" && !unit) {
        read.errors.push({ file: read.file, line, text: `the group "${attribute("id") ?? ""}" holds units: write each message as a <unit> of its <file>` });
      } else if (node.local === "unit" && !unit) {
        unit = { key: attribute("id") ?? null, line, parts: [], refused: false };
      } else if ((node.local === "segment" || node.local === "ignorable") && unit && parent.local === "unit") {
        part = { element: node, kind: node.local, state: attribute("state") ?? null, source: null, target: null, sourceMarkup: false, targetMarkup: false };
        unit.parts.push(part);
      } else if ((node.local === "source" || node.local === "target") && part && parent === part.element) {
        if (node.local === "target" && attribute("order") !== undefined) {
          read.errors.push({ file: read.file, line, text: `message "${unit.key}" has a <target order="…">, segments translated in another order, which the import does not follow: translate each segment in its place` });
          unit.refused = true;
        }
        capture = { into: node.local, value: "", markup: false };
      }
    }
    open.push(node);
  };
  parser.ontext = (value) => {
    if (capture) capture.value += value;
  };
  parser.oncdata = parser.ontext;
  parser.onclosetag = () => {
    const node = open.pop();
    if (capture && node.uri === XLIFF_2 && node.local === capture.into && open.at(-1) === part?.element) {
      part[capture.into] = capture.value;
      part[`${capture.into}Markup`] = capture.markup;
      capture = null;
    } else if (part && node === part.element) {
      part = null;
    } else if (unit && node.uri === XLIFF_2 && node.local === "unit") {
      finishUnit(unit, read);
      unit = null;
    }
  };

  parser.write(text).close();
  if (!root) throw new Unreadable(0, "is not an XLIFF file: it has no <xliff> element");
}

/** The unit as an ImportedUnit: its segments joined in order, or why it is not imported. */
function finishUnit(unit, read) {
  const at = { file: read.file, line: unit.line };
  if (unit.key === null || unit.key === "") {
    read.errors.push({ ...at, text: "a <unit> has no id, the key of its message: export again, and keep each unit's id" });
    return;
  }
  if (unit.refused) return;
  if (unit.parts.some((part) => part.targetMarkup)) {
    read.errors.push({ ...at, text: `message "${unit.key}" has markup in its <target> (an inline element): a message is text, its arguments ICU's {braces}` });
    return;
  }
  const segments = unit.parts.filter((part) => part.kind === "segment");
  const translated = segments.filter((part) => part.target !== null);
  // An ignorable part (the space between two sentences) is its target, or else its source.
  const joined = (side) => unit.parts.map((part) => (side === "target" && part.kind === "ignorable" ? (part.target ?? part.source) : part[side])).join("");
  const sourceKnown = unit.parts.every((part) => part.source !== null && !part.sourceMarkup);
  let unfinished = null;
  if (translated.length > 0 && translated.length < segments.length) {
    unfinished = `has ${translated.length} of its ${segments.length} segments translated (not finished)`;
  } else if (translated.length > 0 && segments.some((part) => part.state === "initial")) {
    unfinished = 'is a draft (state="initial": not finished)';
  }
  read.units.push({
    key: unit.key,
    line: unit.line,
    source: sourceKnown ? joined("source") : null,
    target: translated.length === 0 || unfinished ? null : joined("target"),
    unfinished,
  });
}
