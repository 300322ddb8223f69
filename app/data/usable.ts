// What a loader's data must be before a screen uses it: data from an API is never trusted.
// Nesting is bounded here, once, for every loader (JSON that deep is no data a screen shows,
// and it would break whatever walks it recursively: JSON.stringify, a renderer); each
// loader checks the shape its screen reads.

/** Objects and arrays nested deeper than this are refused. */
export const MAX_DATA_DEPTH = 64;

/** Throws when `data` nests objects or arrays deeper than MAX_DATA_DEPTH. */
export function checkDepth(data: unknown): void {
  const stack: [unknown, number][] = [[data, 0]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    if (depth >= MAX_DATA_DEPTH) throw new Error(`the answer is nested more than ${MAX_DATA_DEPTH} levels deep`);
    seen.add(value);
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
}

/** `value` as an object whose listed fields are strings, or an error that says what is wrong. */
export function objectWithStrings<Key extends string>(value: unknown, keys: readonly Key[], what: string): Record<Key, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${what}: not an object`);
  const record = value as Record<string, unknown>;
  for (const key of keys) {
    if (typeof record[key] !== "string") throw new Error(`${what}: "${key}" is not a string`);
  }
  return record as Record<Key, string>;
}
