// What follows the active language outside React's tree: <html lang> and <html dir>, the
// content-language meta, the URL (the page's own in that language: its route's path in
// that language's words) and the saved choice (the cookie, kept on the site's shared
// origin: a language's own origin is the choice). A language on another origin is left for.
import { directionOf, isOnTheSharedOrigin, keepsTheChoice, LANGUAGE_COOKIE, type Language } from "./languages";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** `url`: the page's path in `language`, prefix and all (null before the app knows the page: the URL stays). */
export function followLanguage(language: Language, url: string | null): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
  let meta = document.querySelector<HTMLMetaElement>('meta[http-equiv="content-language"]');
  if (!meta) {
    meta = document.createElement("meta");
    meta.httpEquiv = "content-language";
    document.head.append(meta);
  }
  meta.content = language;
  if (url !== null) {
    const next = new URL(window.location.href);
    next.pathname = url;
    window.history.replaceState(window.history.state, "", next);
  }
  keepChoice(language);
}

/**
 * The mark a switch from a language's own origin (where no choice is kept) puts on the URL
 * of the shared origin (where it is): the page it arrives at keeps the choice
 * (`keepChoiceBroughtHere`), which would otherwise still name the language left. A
 * fragment: no server sees it, and no cache keys on it.
 */
const CHOICE_MARK = "#bilingue-chosen";

/** Goes to `url`, the page in `language` on another origin, keeping the choice where it is kept. */
export function leaveFor(language: Language, url: string): void {
  keepChoice(language);
  const bringsTheChoice = !keepsTheChoice() && isOnTheSharedOrigin(language);
  window.location.assign(bringsTheChoice ? `${url}${CHOICE_MARK}` : url);
}

/** On arrival in `language`: the choice a switch brought from another origin is kept here, and its mark leaves the URL. */
export function keepChoiceBroughtHere(language: Language): void {
  if (window.location.hash !== CHOICE_MARK) return;
  keepChoice(language);
  const url = new URL(window.location.href);
  url.hash = "";
  window.history.replaceState(window.history.state, "", url);
}

function keepChoice(language: Language): void {
  if (!keepsTheChoice()) return;
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
}
