// What a loader's data must be before a screen uses it: data from an API is never trusted.
// Nesting is bounded here, once, for every loader (JSON that deep is no data a screen shows,
// and it would break whatever walks it recursively: JSON.stringify, a renderer); each
// screen's module checks the shape it reads (app/data/shape.ts).

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
