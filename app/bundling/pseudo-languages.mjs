// The pseudo-languages of development builds (app/bundling/pseudo.ts makes their messages):
// `npm run dev -- --pseudo` lists them after the real ones, so /fr-XA/ (accented) and
// /fr-XB/ (right to left) show every screen with each message of the default language made
// pseudo, and any text that is not in the catalogue stands out. A production build never
// has them.
// - withPseudoLanguages: the list of languages with them, each naming the table it is made
//   from (`pseudoOf`, which app/i18n/resources.ts reads);
// - pseudoLanguagesPlugin: an esbuild plugin that gives the app that list;
// - pseudoMessages: the pseudo-languages' messages, which the catalogue's plugin puts in the
//   default language's modules beside its own (`pseudo`);
// - withPseudoHostTexts: the host's own texts in them too.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
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

/**
 * The esbuild plugin of a development build: the languages with the pseudo ones. Their
 * messages go in the default language's modules, which the catalogue's plugin writes with
 * `pseudoMessages`.
 */
export function pseudoLanguagesPlugin(root, languages) {
  const list = path.join(root, "app/i18n/languages.json");
  return {
    name: "pseudo-languages",
    setup(b) {
      b.onLoad({ filter: /[\\/]app[\\/]i18n[\\/]languages\.json$/ }, async (args) =>
        args.path === list ? { contents: JSON.stringify(await withPseudoLanguages(root, languages)), loader: "json" } : undefined,
      );
    },
  };
}

let made = null; // { source, messages }

/**
 * What the catalogue's plugin needs to carry the pseudo-languages of `languages`' default
 * language: { base, messages() }, messages() giving each pseudo-language's messages
 * compiled, by code then key, made again only when the default table changes.
 */
export function pseudoMessages(root, languages) {
  const base = languages.default;
  const file = path.join(root, `app/i18n/tables/${base}.ts`);
  return {
    base,
    async messages() {
      const source = await readFile(file, "utf8");
      if (made?.source === source) return made.messages;
      const { pseudo, messages } = await load(root);
      const { module } = await importAlone(root, file);
      const byCode = new Map(
        pseudo.pseudoLanguages(base).map(({ code, kind }) => [
          code,
          new Map(
            Object.entries(module.default)
              .filter(([key, message]) => typeof message === "string" && !key.startsWith("host."))
              .map(([key, message]) => [key, messages.readMessage(pseudo.pseudoMessage(message, kind)).code]),
          ),
        ]),
      );
      made = { source, messages: byCode };
      return byCode;
    },
  };
}
