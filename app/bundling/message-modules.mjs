// The modules a language's messages reach the browser in, once the build knows which page
// needs which (./message-groups.mjs): each language's module (what app/i18n/tables/<code>.ts
// becomes in the client bundle) holds the first load's messages, its date locale, and the way to
// its index (`bilingue-messages:index-<code>`), which names each route's messages, a module
// of their own (`bilingue-messages:messages-<code>--<route>`): esbuild makes each a chunk, and
// the page that needs a route's fetches it beside its screen (the first page by the URL its
// boot state names, without the index). The server
// bundle keeps every table whole, and reads the groups to render each page with the same
// messages the browser will have (`bilingue:message-groups`).

import { writtenKey } from "./message-ids.mjs";

/** The namespace of a route's messages in a language. */
export const ROUTE_MESSAGES = "bilingue-messages";

/**
 * The module of `route`'s messages in `code` (`bilingue-messages:messages-fr--status`);
 * its chunk is `messages-fr-<hash>.js` (./first-load-chunk.mjs says why not by route).
 */
export const routeMessagesModule = (code, route) => `${ROUTE_MESSAGES}:messages-${code}--${route}`;

/**
 * The module of the way to each route's messages in `code` (`bilingue-messages:index-fr`):
 * fetched when a page of another route, or the page in another language, first needs
 * some, so that the first load carries no list of the site's routes.
 */
export const routeIndexModule = (code) => `${ROUTE_MESSAGES}:index-${code}`;

/** The language a module of `routeIndexModule` is of (its path, without the namespace); null for another. */
export const routeIndexOf = (modulePath) => (modulePath.startsWith("index-") ? modulePath.slice("index-".length) : null);

/** The language and the route a module of `routeMessagesModule` names (its path, without the namespace). */
export function routeMessagesOf(modulePath) {
  const at = modulePath.lastIndexOf("--");
  return { code: modulePath.slice("messages-".length, at), route: modulePath.slice(at + 2) };
}
/** The module the server bundle reads the groups from. */
export const GROUPS_MODULE = "bilingue:message-groups";
/** The suffix under which a table's own source is read for its date locale alone. */
export const DATE_LOCALE = "?date-locale";

/**
 * `{"key":compiled,…}` for `keys`, in their order, with the compiled messages `codes`; each
 * key written as its id when `ids` has one (./message-ids.mjs).
 */
function objectOf(keys, codes, ids) {
  const entries = [];
  for (const key of keys) {
    const code = codes.get(key);
    if (code !== undefined) entries.push(`${JSON.stringify(writtenKey(ids, key))}:${code}`);
  }
  return `{${entries.join(",")}}`;
}

/**
 * `export const fallbacks = {"key":"fr",…};`: of `keys`, those whose message is another
 * language's (a partial language's, a variant's), and whose: the page marks them with that
 * language (`lang`).
 */
function fallbacksOf(keys, fallbacks, ids) {
  const entries = [];
  for (const key of keys) {
    const from = fallbacks?.get(key);
    if (from !== undefined) entries.push(`${JSON.stringify(writtenKey(ids, key))}:${JSON.stringify(from)}`);
  }
  return entries.length > 0 ? `export const fallbacks = {${entries.join(",")}};\n` : "";
}

/** `export const pseudo = {"<code>":{…},…};` for `keys`, when the language carries pseudo-languages. */
export function pseudoOf(keys, pseudo, ids = null) {
  if (!pseudo) return "";
  const tables = [...pseudo].map(([code, codes]) => `${JSON.stringify(code)}:${objectOf(keys, codes, ids)}`);
  return `export const pseudo = {${tables.join(",")}};\n`;
}

/**
 * A language's module: its date locale (re-exported from its table's own source, of which
 * nothing else is kept), the first load's messages (each a language's along its chain, and
 * which are another's), and its index of routes' messages as a dynamic import. `pseudo`: the
 * pseudo-languages made from it (development), by code then key. `paths`: the source that
 * adds its languages' route paths (./route-paths.mjs). `ids`: the keys' ids, if any.
 */
export function languageModule({ code, tableFile, groups, messages, fallbacks, pseudo, paths = null, ids = null }) {
  return [
    `export { dateLocale } from ${JSON.stringify(tableFile + DATE_LOCALE)};`,
    `export default ${objectOf(groups.firstLoad, messages, ids)};`,
    `export const routeMessages = () => import(${JSON.stringify(routeIndexModule(code))});`,
    fallbacksOf(groups.firstLoad, fallbacks, ids),
    pseudoOf(groups.firstLoad, pseudo, ids),
    paths ?? "",
  ].join("\n");
}

/** The index of `code`'s routes' messages: each route's module, as a dynamic import. */
export function routeIndex({ code, groups }) {
  const routes = [...groups.routes.keys()].map((route) => `${JSON.stringify(route)}:()=>import(${JSON.stringify(routeMessagesModule(code, route))})`);
  return `export default {${routes.join(",")}};\n`;
}

/** A route's messages in a language (and in its pseudo-languages); `ids`: the keys' ids, if any. */
export function routeModule({ keys, messages, fallbacks, pseudo, ids = null }) {
  return `export default ${objectOf(keys, messages, ids)};\n${fallbacksOf(keys, fallbacks, ids)}${pseudoOf(keys, pseudo, ids)}`;
}

/**
 * A language's module in the server bundle: every message (along its chain, and which are
 * another language's), and its date locale.
 */
export function wholeLanguageModule({ tableFile, messages, fallbacks, pseudo }) {
  const keys = [...messages.keys()];
  return [
    `export { dateLocale } from ${JSON.stringify(tableFile + DATE_LOCALE)};`,
    `export default ${objectOf(keys, messages)};`,
    fallbacksOf(keys, fallbacks),
    pseudoOf(keys, pseudo),
  ].join("\n");
}
