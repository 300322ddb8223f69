// A page's path as the host takes it (host/url_path.rs, `page_path`): canonical (every byte
// a URL path may not hold as it is percent-encoded: `|` is `%7C`, `é` is `%C3%A9`, a `%`
// that starts no escape is `%25`; the path's own escapes kept as they came), and no page
// at all when it starts with `//` or is longer than PAGE_PATH_AT_MOST once canonical. The
// host sends the server render a canonical path; the browser's router reads the address
// bar's through the same rule. Both sides are held to the cases of ./path-cases.json.
import { PAGE_PATH_AT_MOST } from "../contract";

/** A path with nothing to encode: pchars, slashes and well-formed escapes. */
const PLAIN = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
/** One escape, or one character (a whole code point). */
const PIECE = /%[0-9A-Fa-f]{2}|[A-Za-z0-9\-._~!$&'()*+,;=:@/]+|[\s\S]/gu;

/** `path`, canonical: as the host writes it. */
export function canonicalPath(path: string): string {
  if (PLAIN.test(path)) return path;
  let out = "";
  for (const [piece] of path.matchAll(PIECE)) {
    if (PLAIN.test(piece)) out += piece;
    else out += encoded(piece);
  }
  return out;
}

/** Whether a canonical path can be a page's: not `//…`, not longer than the host allows. */
export function isPagePath(canonical: string): boolean {
  return canonical.length <= PAGE_PATH_AT_MOST && canonical.startsWith("/") && !canonical.startsWith("//");
}

/**
 * One character's UTF-8 bytes, each as `%XX`: encodeURIComponent leaves raw only characters
 * PLAIN has (a lone surrogate, which no URL the host reads holds, is U+FFFD's).
 */
function encoded(character: string): string {
  try {
    return encodeURIComponent(character);
  } catch {
    return "%EF%BF%BD";
  }
}
