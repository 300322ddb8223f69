// The supported languages, read from languages.json: the one list the host reads too.
import declared from "./languages.json";

export type Language = "fr" | "en";

export interface LanguageInfo {
  code: Language;
  locale: string;
  name: string;
}

export const LANGUAGES: readonly LanguageInfo[] = declared.languages as LanguageInfo[];
export const DEFAULT_LANGUAGE: Language = declared.default as Language;

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((l) => l.code === value);
}

export function localeOf(language: Language): string {
  const info = LANGUAGES.find((l) => l.code === language);
  if (!info) throw new Error(`unsupported language: ${language}`);
  return info.locale;
}

/** `/fr/x` and `/x` → `/x`; the language prefix, when there is one, is dropped. */
export function stripLanguagePrefix(path: string): string {
  for (const { code } of LANGUAGES) {
    if (path === `/${code}`) return "/";
    if (path.startsWith(`/${code}/`)) return path.slice(code.length + 1);
  }
  return path;
}

export function localizedPath(language: Language, pathWithoutPrefix: string): string {
  return `/${language}${pathWithoutPrefix.startsWith("/") ? pathWithoutPrefix : `/${pathWithoutPrefix}`}`;
}
