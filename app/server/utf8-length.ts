// The length in UTF-8 of a string, as Node's `Buffer.byteLength(text, "utf8")` gives it:
// what React's string-writing renderer counts a page's parts with (app/bundling/string-fizz.mjs).

const NOT_ASCII = /[^\x00-\x7f]/;

export function utf8Length(text: string): number {
  // Most of what React writes is tags and attributes: ASCII, one byte a unit.
  if (!NOT_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3; // the rest, and a lone surrogate (written as U+FFFD)
  }
  return bytes;
}
