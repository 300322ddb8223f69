// A language's messages along its chain: a message a table lacks is its parent's (a regional
// variant's: fr-CA → fr), then the default language's, so a partial language and a variant
// that says only what differs are whole for the pages. The build marks which messages came
// from another language (`fallbacks`), for the page to say so (`lang` on the element that
// carries it), and reports how much of the catalogue each language translates.
import type { ReadMessage } from "./messages";

/** What a table is, for its chain: its language, its parent's, its messages. */
interface ChainTable {
  language: string;
  parent?: string;
  table: Record<string, unknown>;
}

/** By language, then key: the message a page in that language shows, and whose it is. */
export type Resolved = Map<string, Map<string, { read: ReadMessage; from: string }>>;

/** How much of the catalogue a language translates. */
export interface Coverage {
  language: string;
  translated: number;
  total: number;
  /** The languages its missing messages come from, in order (its chain, itself left out). */
  fallsBackTo: string[];
  /** The keys it lacks, in the default table's order. */
  missing: string[];
}

/** Each table's language's chain of tables: itself, its parents, then the default's (`tables[0]`). */
function chainOf(table: ChainTable, tables: ChainTable[]): ChainTable[] {
  const chain = [table];
  for (let at = table; at.parent !== undefined; ) {
    const parent = tables.find(({ language }) => language === at.parent);
    if (!parent || chain.includes(parent)) break;
    chain.push(parent);
    at = parent;
  }
  if (!chain.includes(tables[0])) chain.push(tables[0]);
  return chain;
}

/** Every language's messages along its chain, for every key of the default table. */
export function resolveChains(tables: ChainTable[], reads: Map<ChainTable, Map<string, ReadMessage>>): Resolved {
  const resolved: Resolved = new Map();
  const reference = reads.get(tables[0]) ?? new Map<string, ReadMessage>();
  for (const table of tables) {
    const chain = chainOf(table, tables);
    const found = new Map<string, { read: ReadMessage; from: string }>();
    for (const key of reference.keys()) {
      for (const link of chain) {
        const read = reads.get(link)?.get(key);
        if (read) {
          found.set(key, { read, from: link.language });
          break;
        }
      }
    }
    resolved.set(table.language, found);
  }
  return resolved;
}

/** A tag's language, without its region or script (`fr-CA` → `fr`). */
const primaryOf = (tag: string): string => tag.split("-")[0].toLowerCase();

/**
 * By language: the keys whose message is another language's, and that language. What a
 * regional variant inherits from its parent (fr-CA from fr) is its own by design, in its
 * own language: it is not marked, and it is formatted as the variant formats (its dates,
 * numbers and plurals); a message that comes from another language (de from fr) is.
 */
export function fallbacksOf(resolved: Resolved): Map<string, Map<string, string>> {
  const fallbacks = new Map<string, Map<string, string>>();
  for (const [language, found] of resolved) {
    const elsewhere = [...found].filter(([, { from }]) => primaryOf(from) !== primaryOf(language));
    fallbacks.set(language, new Map(elsewhere.map(([key, { from }]) => [key, from])));
  }
  return fallbacks;
}

/** Each language's coverage but the default's. */
export function coverageOf(tables: ChainTable[], reads: Map<ChainTable, Map<string, ReadMessage>>): Coverage[] {
  const keys = Object.keys(tables[0]?.table ?? {});
  return tables.slice(1).map((table) => {
    const missing = keys.filter((key) => !Object.prototype.hasOwnProperty.call(table.table, key));
    return {
      language: table.language,
      translated: keys.length - missing.length,
      total: keys.length,
      fallsBackTo: chainOf(table, tables)
        .slice(1)
        .map(({ language }) => language),
      missing,
    };
  });
}

/** A line of the build's report: `de: 5 of 52 messages (10%); the other 47 are fr's: home.title, …`. */
export function coverageLine({ language, translated, total, fallsBackTo, missing }: Coverage, shown = 5): string {
  const share = total === 0 ? 100 : Math.floor((translated * 100) / total);
  if (missing.length === 0) return `${language}: ${translated} of ${total} messages (100%)`;
  const named = missing.slice(0, shown).join(", ") + (missing.length > shown ? `, and ${missing.length - shown} more` : "");
  return `${language}: ${translated} of ${total} messages (${share}%); the other ${missing.length} are ${fallsBackTo.join(" then ")}'s: ${named}`;
}
