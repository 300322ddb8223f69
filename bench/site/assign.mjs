// Which screen uses which messages: each route its own, none shared, so that a page that
// ships only its messages has something to leave out. The messages are dealt so each
// route gets its share of every kind (names, plurals, selects, numbers, dates); the world
// (the real-size page) gets ~150, the others an even share of the rest; the routes that
// show data first take a number and a date for it.

/** CLDR's messages reordered so any run of them holds each kind in its proportion. */
function interleaved(messages) {
  const byKind = new Map();
  for (const message of messages) {
    if (!byKind.has(message.kind)) byKind.set(message.kind, []);
    byKind.get(message.kind).push(message);
  }
  const placed = [];
  for (const list of byKind.values()) list.forEach((message, i) => placed.push({ message, at: (i + 0.5) / list.length }));
  return placed.sort((a, b) => a.at - b.at).map(({ message }) => message);
}

/** What the world's screen shows: a list of this many items, and this many messages in all. */
export const REAL_SIZE = { items: 100, messages: 150 };

/** What the routes that show data from the API take first: a number (its count) and a date (its time). */
const SHOWS_DATA = { territory: ["number", "date"], language: ["number", "date"], locale: ["number", "date"], timeZone: ["date"] };

/**
 * `count` of `messages` dealt to `routes`: each route's `messages`, in place. Returns the
 * messages dealt, the others being left out of the site.
 */
export function assignMessages(routes, messages, count) {
  const pool = interleaved(messages).slice(0, count);
  const take = (kind) => {
    const at = pool.findIndex((message) => message.kind === kind);
    return at < 0 ? [] : pool.splice(at, 1);
  };
  for (const route of routes) route.messages = (SHOWS_DATA[route.kind] ?? []).flatMap(take);
  const share = Math.floor(count / (routes.length + 1));
  const world = routes.find((route) => route.kind === "world");
  world?.messages.push(...pool.splice(0, Math.min(REAL_SIZE.messages, 2 * share)));
  const others = routes.filter((route) => route !== world);
  const each = Math.floor(pool.length / others.length);
  const extra = pool.length % others.length;
  others.forEach((route, i) => route.messages.push(...pool.splice(0, each + (i < extra ? 1 : 0))));
  return routes.flatMap((route) => route.messages);
}
