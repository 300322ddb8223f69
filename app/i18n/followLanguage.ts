// What follows the active language outside React's tree: <html lang> and <html dir>, the
// content-language meta, the URL's language prefix and the saved choice (the cookie).
import { directionOf, LANGUAGE_COOKIE, type Language, localizedPath, stripLanguagePrefix } from "./languages";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function followLanguage(language: Language): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
  let meta = document.querySelector<HTMLMetaElement>('meta[http-equiv="content-language"]');
  if (!meta) {
    meta = document.createElement("meta");
    meta.httpEquiv = "content-language";
    document.head.append(meta);
  }
  meta.content = language;
  const url = new URL(window.location.href);
  url.pathname = localizedPath(language, stripLanguagePrefix(url.pathname));
  window.history.replaceState(window.history.state, "", url);
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
}
