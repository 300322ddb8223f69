// Values made once and kept, a few hundred at most: what a page writes more than once
// (the clocks and date patterns of its instants, its counts' words and plural forms) is
// worked out by Intl once, where each working out costs far more than a lookup.

/** What a kept map holds at most: past it, it starts again empty. */
export const RECENT = 256;

/** `kept`'s value for `key`, made by `make` the first time; at most RECENT kept. */
export function keptIn<V>(kept: Map<number, V>, key: number, make: () => V): V {
  let found = kept.get(key);
  if (found === undefined) {
    found = make();
    if (kept.size >= RECENT) kept.clear();
    kept.set(key, found);
  }
  return found;
}
