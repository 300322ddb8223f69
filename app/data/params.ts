// A route's parameter as its path segment gives it: the segment decoded, or nothing when it
// cannot name anything, whatever the route: a dot segment (`.` or `..`, however written:
// percent-encoded, encoded twice, with `;parameters` as Java servers read them, or in
// look-alike dots such as the fullwidth `．`), a separator (`/`, `\` or a look-alike), a
// control character (NUL and the rest), or escapes that are not UTF-8. Such a path is no
// page: the router gives the not-found route, on the server (a 404) and after a navigation
// alike, since both run this code, before any loader calls the API. The host refuses the
// same segments on its side of a loader's call (`path_problem` in host/api/mod.rs); both
// are held to the cases of app/data/unnameable-segments.json.

/**
 * The form a route declares for a parameter's decoded value, when the pattern's "any one
 * segment" is too broad (`/^[a-z]{2,3}$/u`): anchored at both ends, with the `u` flag alone,
 * in the dialect the host reads as JavaScript does (./formDialect.ts; the build checks it).
 * A value of another form is no page, for the host before any render as for the router.
 */
export type ParamShape = RegExp;

const CONTROL = /\p{Cc}/u;
const SEPARATOR = /[/\\]/;
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/** `segment`, as the URL writes it, decoded; null when it cannot name anything. */
export function paramValue(segment: string): string | null {
  let value: string;
  try {
    value = decodeURIComponent(segment);
  } catch {
    return null;
  }
  // A loader sends the value on, encoded again: whoever decodes it there once more (as
  // some servers do) reads the second reading.
  return namesSomething(value) && namesSomething(decodedLeniently(value)) ? value : null;
}

/** Whether `value` could be the name of something, read as a path segment. */
function namesSomething(value: string): boolean {
  // NFKC reads look-alikes as what they look like: `．．` and `‥` are `..`, `／` is `/`.
  const plain = value.normalize("NFKC");
  if (CONTROL.test(plain) || SEPARATOR.test(plain)) return false;
  const name = plain.split(";", 1)[0];
  return name !== "." && name !== "..";
}

/** `value` with its escapes that make UTF-8 decoded; the others kept as they are. */
function decodedLeniently(value: string): string {
  return value.replace(ESCAPES, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
