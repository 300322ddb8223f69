// The supported languages, read from languages.json: the one list, which the host reads
// too (host/lang.rs). Nothing else names them: a language is added there, with its table
// (tables/<code>.ts, which exports its date locale beside it), found by name. A language
// is a BCP 47 tag as the list writes it (`fr-CA`); it sits in a URL as that tag in small
// letters (`/fr-ca/`); a regional variant names its parent, and a message it lacks is its
// parent's, then the default language's (its chain). A language may sit at the root of
// an origin of its own (`--language-origin`): the boot state's placement says which.
import declared from "./languages.json";

/** A code from the list (`fr`, `en`, …); made only by `isLanguage` or `languageOf`. */
export type Language = string & { readonly __brand: "Language" };

export interface LanguageInfo {
  code: Language;
  /** The BCP 47 locale Intl formats with (fr-FR). */
  locale: string;
  /** The language's own name for itself, as the language control shows it. */
  name: string;
  /** Which way its text runs: `<html dir>` follows it, and the styles use logical properties. */
  direction: "ltr" | "rtl";
  /** The language a regional variant inherits from (`fr` for `fr-CA`). */
  parent?: Language;
  /** The build refuses a message this language lacks (else it falls back along its chain). */
  complete?: boolean;
}

export const LANGUAGES: readonly LanguageInfo[] = declared.languages as LanguageInfo[];
export const DEFAULT_LANGUAGE = declared.default as Language;
/** The cookie that keeps the visitor's choice; the host reads it on unprefixed paths. */
export const LANGUAGE_COOKIE: string = declared.cookie;

/**
 * What a language code looks like, offered or not (BCP 47: a primary subtag of two or three
 * letters, at most one subtag more: `de`, `pt-BR`), as the host reads a path's prefix.
 */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/u;

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((l) => l.code === value);
}

/** `code` as a Language; throws for a language the list does not have. */
export function languageOf(code: string): Language {
  if (!isLanguage(code)) throw new Error(`unsupported language: ${JSON.stringify(code)}`);
  return code;
}

export function directionOf(language: Language): "ltr" | "rtl" {
  return LANGUAGES.find((l) => l.code === language)?.direction ?? "ltr";
}

/** Where `language` sits in a URL: its tag in small letters (`fr-CA` → `fr-ca`). */
export const segmentOf = (language: string): string => language.toLowerCase();

/**
 * The languages a message of `language` is looked for in: itself, its parents, then the
 * default (a code the list lacks: itself, then the default).
 */
export function chainOf(language: string): string[] {
  const chain = [language];
  let at = LANGUAGES.find(({ code }) => code === language);
  while (at?.parent && !chain.includes(at.parent)) {
    chain.push(at.parent);
    at = LANGUAGES.find(({ code }) => code === at!.parent);
  }
  if (!chain.includes(DEFAULT_LANGUAGE)) chain.push(DEFAULT_LANGUAGE);
  return chain;
}

export function localeOf(language: Language): string {
  const info = LANGUAGES.find((l) => l.code === language);
  if (!info) throw new Error(`unsupported language: ${language}`);
  return info.locale;
}

/**
 * Where the site's languages sit, as the boot state says (`Placement` in app/contract.ts,
 * which imports from here): the site's origin, and the languages' own origins by code.
 */
interface Placement {
  origin: string;
  origins: { readonly [code: string]: string };
}

/** Where the site's languages sit: the boot state's; null while every one sits under its prefix. */
let placement: Placement | null = null;
/** In the browser, the language the document was served in; null on the server. */
let servedIn: Language | null = null;

/**
 * Where the site's languages sit, from the boot state; `documentLanguage`, in the browser,
 * is the language the document came in: it says which origin the document is on. The
 * server leaves it null: a page's links are in its own language, on its own origin.
 */
export function placeLanguages(given: Placement | undefined, documentLanguage: Language | null): void {
  placement = given ?? null;
  servedIn = documentLanguage;
}

/** The origin `language` sits at the root of, when it has one of its own. */
const ownOriginOf = (language: string): string | null =>
  placement !== null && Object.hasOwn(placement.origins, language) ? placement.origins[language] : null;

/** The document's language, when the document is on that language's own origin (no prefixes there). */
const ownLanguageHere = (): Language | null => (servedIn !== null && ownOriginOf(servedIn) !== null ? servedIn : null);

/** The language `path`'s prefix names (`/en/x` → en, `/fr-ca/x` → fr-CA), or null when it has none. */
export function prefixLanguage(path: string): Language | null {
  if (ownLanguageHere() !== null) return null;
  return LANGUAGES.find(({ code }) => path === `/${segmentOf(code)}` || path.startsWith(`/${segmentOf(code)}/`))?.code ?? null;
}

/** `/fr/x` and `/x` → `/x`; the language prefix, when there is one, is dropped. */
export function stripLanguagePrefix(path: string): string {
  const language = prefixLanguage(path);
  if (language === null) return path;
  return path.slice(language.length + 1) || "/";
}

/**
 * `pathWithoutPrefix` in `language` on that language's origin: under its prefix, or at the
 * root of its own origin.
 */
export function localizedPath(language: Language, pathWithoutPrefix: string): string {
  const path = pathWithoutPrefix.startsWith("/") ? pathWithoutPrefix : `/${pathWithoutPrefix}`;
  return ownOriginOf(language) !== null ? path : `/${segmentOf(language)}${path}`;
}

/** Whether `language` sits on another origin than the document's (the browser must leave for it). */
export function isElsewhere(language: Language): boolean {
  if (placement === null || servedIn === null) return false;
  return (ownOriginOf(language) ?? placement.origin) !== (ownOriginOf(servedIn) ?? placement.origin);
}

/** `localizedPath`, made absolute when the language sits on another origin than the document's. */
export function languageUrl(language: Language, pathWithoutPrefix: string): string {
  const path = localizedPath(language, pathWithoutPrefix);
  return isElsewhere(language) ? `${ownOriginOf(language) ?? placement!.origin}${path}` : path;
}

/** Whether `language` sits on the site's shared origin (not on an origin of its own). */
export const isOnTheSharedOrigin = (language: Language): boolean => ownOriginOf(language) === null;

/** Whether the language choice is the cookie's to keep here: on the site's shared origin only. */
export const keepsTheChoice = (): boolean => ownLanguageHere() === null;
