/** Parameters a message is formatted with. */
export type Params = Record<string, string | number | Date>;

/** One entry: an ICU message, or a function called with the parameters. */
export type Entry = string | ((params: Params) => string);

/** The translation table of one language: key → entry. */
export type Table = Readonly<Record<string, Entry>>;
