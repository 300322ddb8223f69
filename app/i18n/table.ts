import type { Formatters } from "./formatters";

/** Parameters a message is formatted with. */
export type Params = Record<string, string | number | Date>;

/**
 * One entry: text, or a function called with the parameters. The build compiles each ICU
 * message of a table to such a function (app/bundling/messages.ts), called with the
 * locale's formatters too (a table itself holds messages only).
 */
export type Entry = string | ((params: never, formatters: Formatters) => string);

/** The translation table of one language: key → entry. */
export type Table = Readonly<Record<string, Entry>>;
