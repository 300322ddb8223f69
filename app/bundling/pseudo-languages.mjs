// The pseudo-languages of development builds (app/bundling/pseudo.ts makes their messages):
// `npm run dev -- --pseudo` lists them after the real ones, so /fr-XA/ (accented) and
// /fr-XB/ (right to left) show every screen with each message of the default language made
// pseudo, and any text that is not in the catalogue stands out. A production build never
// has them.
// - withPseudoLanguages: the list of languages with them, each naming the table it is made
//   from (`pseudoOf`, which app/i18n/resources.ts reads);
// - pseudoLanguagesPlugin: an esbuild plugin, before the catalogue's, that gives the app that
//   list, and the default table's module with the pseudo tables beside its own (`pseudo`);
// - withPseudoHostTexts: the host's own texts in them too.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkCatalogue } from "./catalogue.mjs";
import { importAlone } from "./import-alone.mjs";

let modules = null;
async function load(root) {
  modules ??= await Promise.all(["./pseudo.ts", "./messages.ts"].map((file) => importAlone(root, fileURLToPath(new URL(file, import.meta.url)))));
  const [{ module: pseudo }, { module: messages }] = modules;
  return { pseudo, messages };
}

/** `languages` (languages.json's shape) with the default language's pseudo-languages after the others. */
export async function withPseudoLanguages(root, languages) {
  const { pseudo } = await load(root);
  const base = languages.languages.find(({ code }) => code === languages.default);
  const added = pseudo.pseudoLanguages(base.code).map(({ code, name, direction }) => ({ code, locale: base.locale, name, direction, pseudoOf: base.code }));
  return { ...languages, languages: [...languages.languages, ...added] };
}

/** The host's texts (by language, then key) with those of the pseudo-languages, made from the default language's. */
export async function withPseudoHostTexts(root, hostTexts, languages) {
  if (!languages.languages.some(({ pseudoOf }) => pseudoOf)) return hostTexts;
  const { pseudo } = await load(root);
  const texts = { ...hostTexts };
  for (const { code, pseudoOf } of languages.languages) {
    if (!pseudoOf) continue;
    const kind = kindOf(pseudo, pseudoOf, code);
    texts[code] = Object.fromEntries(Object.entries(hostTexts[pseudoOf] ?? {}).map(([key, text]) => [key, pseudo.pseudoText(`[${text}]`, kind)]));
  }
  return texts;
}

const kindOf = (pseudo, base, code) => pseudo.pseudoLanguages(base).find((language) => language.code === code).kind;

/** The esbuild plugin of a development build: the languages with the pseudo ones, and their tables. */
export function pseudoLanguagesPlugin(root, languages) {
  const list = path.join(root, "app/i18n/languages.json");
  const base = languages.languages.find(({ code }) => code === languages.default).code;
  const table = path.join(root, `app/i18n/tables/${base}.ts`);
  return {
    name: "pseudo-languages",
    setup(b) {
      b.onLoad({ filter: /[\\/]app[\\/]i18n[\\/]languages\.json$/ }, async (args) =>
        args.path === list ? { contents: JSON.stringify(await withPseudoLanguages(root, languages)), loader: "json" } : undefined,
      );
      b.onLoad({ filter: /[\\/]app[\\/]i18n[\\/]tables[\\/]\w+\.ts$/ }, async (args) => {
        if (args.path !== table) return undefined;
        const checked = await checkCatalogue(root);
        const compiled = checked.compiled.get(path.relative(root, table).split(path.sep).join("/"));
        // A catalogue that fails its check: the catalogue's plugin reports it.
        if (compiled === undefined || checked.errors.length > 0) return undefined;
        return { contents: `${compiled}\n${await pseudoTables(root, base, args.path)}`, loader: "ts" };
      });
    },
  };
}

/** `export const pseudo = { "<code>": { key: compiled message, … }, … };` from the default table. */
async function pseudoTables(root, base, file) {
  const { pseudo, messages } = await load(root);
  const { module } = await importAlone(root, file);
  const tables = pseudo.pseudoLanguages(base).map(({ code, kind }) => {
    const entries = Object.entries(module.default)
      .filter(([, message]) => typeof message === "string")
      .map(([key, message]) => `${JSON.stringify(key)}:${messages.readMessage(pseudo.pseudoMessage(message, kind)).code}`);
    return `${JSON.stringify(code)}:{${entries.join(",")}}`;
  });
  return `// The pseudo-languages of this development build (app/bundling/pseudo-languages.mjs).\nexport const pseudo = {${tables.join(",")}};\n`;
}
