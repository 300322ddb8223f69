// The shape a screen's data must have, declared once: the same declaration checks an API's
// answer at the boundary (it throws, saying what is wrong and where) and gives the screen
// its type (`Checked<typeof shape>`), so no screen casts. What the shape does not declare
// is dropped. Hand-written and small: it loads with the screen that declares it, never
// with the first page.

/** Checks `value` (found at `at`, for the message) and returns it typed; throws if it is not. */
export type Check<T> = (value: unknown, at?: string) => T;

/** The type a check gives. */
export type Checked<C> = C extends Check<infer T> ? T : never;

const fail = (at: string, expected: string): never => {
  throw new Error(`${at} is not ${expected}`);
};

export const string: Check<string> = (value, at = "the answer") => (typeof value === "string" ? value : fail(at, "a string"));

export const integer: Check<number> = (value, at = "the answer") =>
  typeof value === "number" && Number.isSafeInteger(value) ? value : fail(at, "an integer");

/** A string `Date.parse` reads (RFC 3339, as APIs write times). */
export const time: Check<string> = (value, at = "the answer") =>
  typeof value === "string" && !Number.isNaN(Date.parse(value)) ? value : fail(at, "a time");

/** One of the strings listed. */
export function oneOf<const Values extends readonly string[]>(...values: Values): Check<Values[number]> {
  return (value, at = "the answer") =>
    values.includes(value as string) ? (value as Values[number]) : fail(at, `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`);
}

export function list<T>(item: Check<T>): Check<T[]> {
  return (value, at = "the answer") => (Array.isArray(value) ? value.map((each, i) => item(each, `${at}[${i}]`)) : fail(at, "a list"));
}

/** An object with these fields (each checked); other fields are dropped. */
export function object<Fields extends Record<string, Check<unknown>>>(fields: Fields): Check<{ [K in keyof Fields]: Checked<Fields[K]> }> {
  return (value, at = "the answer") => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return fail(at, "an object");
    const record = value as Record<string, unknown>;
    const checked: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(fields)) checked[key] = check(record[key], `${at}: "${key}"`);
    return checked as { [K in keyof Fields]: Checked<Fields[K]> };
  };
}
