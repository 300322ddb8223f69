// A page's path as the host takes it (host/url_path.rs, `page_path`): canonical (every byte
// a URL path may not hold as it is percent-encoded: `|` is `%7C`, `é` is `%C3%A9`, a `%`
// that starts no escape is `%25`; the path's own escapes kept as they came), and no page
// at all when it starts with `//` or is longer than PAGE_PATH_AT_MOST once canonical. The
// host sends the server render a canonical path; the browser's router reads the address
// bar's through the same rule. Both sides are held to the cases of ./path-cases.json.
import { PAGE_PATH_AT_MOST } from "../contract";

/** A byte a path may not hold as it is: neither a pchar nor `/`, or a `%` that starts no escape. */
const RAW = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]|%(?![0-9A-Fa-f]{2})/gu;

/** `path`, canonical: as the host writes it. */
export const canonicalPath = (path: string): string => path.replace(RAW, encoded);

/** Whether a canonical path can be a page's: not `//…`, not longer than the host allows. */
export function isPagePath(canonical: string): boolean {
  return canonical.length <= PAGE_PATH_AT_MOST && canonical.startsWith("/") && !canonical.startsWith("//");
}

/**
 * One character's UTF-8 bytes, each as `%XX` (a lone surrogate, which no URL the host
 * reads holds, as U+FFFD's).
 */
function encoded(character: string): string {
  try {
    return encodeURIComponent(character);
  } catch {
    return "%EF%BF%BD";
  }
}
