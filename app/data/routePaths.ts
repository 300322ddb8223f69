// Where a route's paths are in the browser, when the build split them by language
// (app/bundling/route-paths.mjs): app/routes.ts's per-language `path` objects are left out
// of the first load, each route's path being `pathsOf(name)`, an object that the language
// modules fill with their language's pattern as they load. A page's first load thus
// carries the patterns of its own language only, not those of every language; the server,
// the build and the tests read app/routes.ts as written.

/** Each route's patterns so far, by language: the objects the routes hold. */
const filled: Record<string, Record<string, string>> = Object.create(null);

/** The object `route`'s path is, in a build that split the paths: its patterns by language, as they come. */
export const pathsOf = (route: string): Record<string, string> => (filled[route] ??= {});

/** A language module's patterns: `language`'s pattern of each route whose paths were split. */
export function addPaths(language: string, patterns: Readonly<Record<string, string>>): void {
  for (const [route, pattern] of Object.entries(patterns)) pathsOf(route)[language] = pattern;
}
