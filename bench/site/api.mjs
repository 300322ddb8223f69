// What the API behind the generated site answers (bench/upstream.mjs serves it, as any
// upstream behind `--api-upstream`): a territory, a language, or a locale (a language in a
// territory), each `{ code, count, updated }`, made from its code alone, the same every
// time, for any code of the form its route accepts (so a crawl of all 100,000 locales is
// answered); another form is a 404. The site's loaders call `/api/site/…`
// (bench/site/sources.mjs).
const FORMS = {
  territories: /^[A-Z]{2}$/,
  languages: /^[a-z]{2,3}$/,
  locales: /^[a-z]{2,3}-[A-Z]{2}$/,
};

/** A small number from `code`, the same every time (FNV-1a). */
function hashOf(code) {
  let hash = 0x811c9dc5;
  for (const char of code) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

/** The answer to `pathname` (`/api/site/territories/FR`): { status, body }, or null for a path that is not the site's. */
export function siteAnswer(pathname) {
  const [, kind, code, extra] = pathname.match(/^\/api\/site\/(\w+)\/([^/]+)(\/.*)?$/) ?? [];
  if (!kind) return null;
  const form = FORMS[kind];
  if (!form || extra !== undefined || !form.test(code)) return { status: 404, body: JSON.stringify({ error: "not found" }) };
  const hash = hashOf(code);
  const updated = new Date(Date.UTC(2026, 0, 1) + (hash % (365 * 24 * 60)) * 60_000).toISOString();
  return { status: 200, body: JSON.stringify({ code, count: hash % 1_000_000_000, updated }) };
}
