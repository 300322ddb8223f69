// Moving between screens without a new page, as people expect of an app: a link (or the
// back and forward buttons) starts a navigation, which fetches the screen's module and
// runs its loader while the current screen stays on show, marked pending; then the new
// screen comes with its data, in one step, and the scroll position is that entry's (the
// top for a new one). A newer navigation supersedes an older one: its calls are aborted
// and whatever it still brings is dropped. A reload, or a change of language, runs the
// loader of the screen on show again, the data on show staying until the new comes. The
// URL and the page always speak one language: a navigation lands in the language the page
// shows by then (a change made on the way wins), and back and forward bring the language
// of the entry they land on. A page's URL is its route's path in that language, written
// from the route and its parameters (app/data/router.ts); each history entry keeps its
// page's URL in every language, for a change of language to go to.
import { createContext, type ReactNode, use, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { LoadOutcome } from "./data/outcome";
import type { ScreenData } from "./data/route";
import type { PageIdentity } from "./contract";
import { hrefIn, type Match, type PageRef } from "./data/router";
import { useLanguage } from "./i18n/LanguageProvider";
import { type Language, languageUrl, prefixLanguage, stripLanguagePrefix } from "./i18n/languages";
import { loadResources, pageResources } from "./i18n/resources";

/** The screen on show: its page (route and parameters), its data. */
export interface Shown {
  match: Match;
  outcome: LoadOutcome<unknown> | null;
  /** On the server, for a streamed page: the outcome still to come. */
  pending?: Promise<LoadOutcome<unknown>>;
  /** The language the outcome was loaded in. */
  language: Language;
}

interface Navigation {
  shown: Shown;
  /** The data the screen on show receives. */
  data: ScreenData<unknown>;
  /** The page a navigation is on its way to, until its screen and data are there; else null. */
  navigating: Match | null;
  navigate: (page: PageRef) => void;
  /** Fetches the module of the screen of `page`, so that following a link to it waits less. */
  prefetch: (page: PageRef) => void;
  /** `page`'s URL in the active language. */
  href: (page: PageRef) => string;
}

const NavigationContext = createContext<Navigation | null>(null);

export function useNavigation(): Navigation {
  const value = useContext(NavigationContext);
  if (!value) throw new Error("useNavigation must be used inside <NavigationProvider>");
  return value;
}

/** The navigation's waiting, loaded when first needed: it is not part of the first-load JavaScript. */
const arriving = () => import("./data/arrive");

/** Scroll positions by history entry, kept for the tab's life (a reload keeps them). */
const SCROLL_STORE = "bilingue-scroll";
type Position = [number, number];
const newEntryKey = () => Math.random().toString(36).slice(2, 10);

/**
 * What a history entry keeps: its key (for its scroll position) and its page (its route,
 * null for the not-found page, and its parameters), whose URL a change of language goes
 * to (`entryUrlIn`) and whose route's messages it brings (`entryRoute`).
 */
interface EntryState {
  key?: string;
  page?: EntryPage;
}
export interface EntryPage {
  route: string | null;
  params: Record<string, string>;
  /** The not-found page's path, as asked (the same in every language). */
  asked?: string;
}
const entryState = (): EntryState => (window.history.state as EntryState | null) ?? {};
const entryKey = (): string | undefined => entryState().key;
/** Writes `state` into the current history entry, keeping what else it holds. */
const keepInEntry = (state: EntryState) => window.history.replaceState({ ...(window.history.state as object | null), ...state } satisfies EntryState, "");
const entryPageOf = (match: Match): EntryPage => ({ route: match.name, params: match.params, ...(match.asked === undefined ? {} : { asked: match.asked }) });

/**
 * The URL of the current history entry's page in `language` (its route in that language's
 * words, its parameters kept); null before the app has written the entry. For an entry of
 * a route this build does not have, or in a language whose module has not come (its words
 * come with it), the path on show under that language's prefix, which the host redirects.
 */
export function entryUrlIn(language: Language, pageOf: (page: PageRef) => Match): string | null {
  const { page } = entryState();
  if (!page) return null;
  if (page.route === null) return languageUrl(language, page.asked ?? "/");
  try {
    return hrefIn(pageOf({ to: page.route, params: page.params } as PageRef), language);
  } catch {
    // Its words are not here (its module did not come): the path on show under its prefix,
    // which the host answers with a redirect to the page's path in that language's words.
    return languageUrl(language, stripLanguagePrefix(window.location.pathname));
  }
}

/** The route of the current history entry's page (null for the not-found page, or before the app wrote it). */
export const entryRoute = (): string | null => entryState().page?.route ?? null;

/** Where the screen being shown scrolls to once it is painted: an entry's saved position, or the top. */
type ScrollTo = Position | null;

/**
 * The page at `path` (without its prefix) in `language`: the one `page` names (as the host
 * found it, or the app when an entry was shown), else the one the path names.
 */
export type ResolvePage = (language: Language, path: string, page?: PageIdentity) => Match;

/**
 * The page of the history entry the back or forward buttons landed on, at `url` (its path,
 * prefix and all) in `language`: the page it keeps (as the app found it when the entry was
 * shown: no path is matched again) when this build writes that page at that URL; else the
 * page the path names. So an entry nothing wrote, a not-found entry, and one an earlier
 * build wrote (a reload swaps the document under the tab's entries) of a route this build
 * lacks or writes elsewhere, are read from their path, as the host reads them.
 */
export function landedOn(resolve: ResolvePage, language: Language, url: string, page: EntryPage | undefined): Match {
  const path = stripLanguagePrefix(url);
  if (page?.route) {
    try {
      const kept = resolve(language, path, page);
      if (hrefIn(kept, language) === url) return kept;
    } catch {
      // A route this build does not declare: its path says which page it is now.
    }
  }
  return resolve(language, path);
}

interface Props {
  resolve: ResolvePage;
  /** The page a link names. */
  pageOf: (page: PageRef) => Match;
  initial: Shown;
  children: ReactNode;
}

export function NavigationProvider({ resolve, pageOf, initial, children }: Props) {
  const { language, requestedLanguage, changeLanguage } = useLanguage();
  const [shown, setShown] = useState(initial);
  const [navigating, setNavigating] = useState<Match | null>(null);
  const [reloading, setReloading] = useState(false);
  const latest = useRef<AbortController | null>(null);
  const scrollTo = useRef<ScrollTo>(null);
  const positions = useRef(new Map<string, Position>());
  const currentKey = useRef<string | undefined>(undefined);
  const shownRef = useRef(shown);
  shownRef.current = shown;
  // Read when a navigation lands, which may be after a change of language: the language the
  // page shows (its URL names it), and the one it is on its way to (its data is loaded in it).
  const shownLanguage = useRef(language);
  shownLanguage.current = language;
  const wantedLanguage = useRef(requestedLanguage);
  wantedLanguage.current = requestedLanguage;

  /** A new attempt, which supersedes (aborts) the one under way. */
  const begin = useCallback(() => {
    latest.current?.abort();
    const controller = new AbortController();
    latest.current = controller;
    return controller;
  }, []);

  const load = useCallback(
    async (match: Match, language: Language, signal: AbortSignal) => (await arriving()).arrive(match, language, signal),
    [],
  );

  /** Shows the screen of `match`, its data loaded in `language`. */
  const go = useCallback(
    (match: Match, entry: { push: true } | { push: false; key: string | undefined }, language: Language) => {
      const attempt = begin();
      setNavigating(match);
      load(match, language, attempt.signal).then(
        (outcome) => {
          if (attempt.signal.aborted) return;
          latest.current = null;
          remember(positions.current, currentKey.current);
          if (entry.push) {
            currentKey.current = newEntryKey();
            // In the language on show now, not the one the navigation began in: data loaded
            // in another is loaded again (`stale`, below).
            const entry: EntryState = { key: currentKey.current, page: entryPageOf(match) };
            window.history.pushState(entry, "", hrefIn(match, shownLanguage.current));
            scrollTo.current = [0, 0];
          } else {
            currentKey.current = entry.key;
            // An entry another build wrote (its shape was { key, urls, route }) says its page
            // as this build reads it, for a change of language to find it.
            if (!entryState().page) keepInEntry({ page: entryPageOf(match) });
            scrollTo.current = (entry.key && positions.current.get(entry.key)) || [0, 0];
          }
          setShown({ match, outcome, language });
          setNavigating(null);
          setReloading(false);
        },
        () => {
          // The screen's module would not load: the page itself, from the host, will.
          if (attempt.signal.aborted) return;
          // In the language on its way, once its module (and its words) came; else in the one on show.
          let href: string;
          try {
            href = hrefIn(match, wantedLanguage.current);
          } catch {
            href = hrefIn(match, shownLanguage.current);
          }
          window.location.assign(href);
        },
      );
    },
    [begin, load],
  );

  const reload = useCallback(() => {
    const { match } = shownRef.current;
    if (!match.route.loader) return;
    const attempt = begin();
    setNavigating(null);
    setReloading(true);
    const language = requestedLanguage;
    load(match, language, attempt.signal).then((outcome) => {
      // A navigation, or a later reload, supersedes this one (a navigation shows a new match).
      if (attempt.signal.aborted || shownRef.current.match !== match) return;
      latest.current = null;
      setShown((now) => ({ ...now, outcome, pending: undefined, language }));
      setReloading(false);
    });
  }, [begin, load, requestedLanguage]);

  // The back and forward buttons: the URL has changed already; the screen follows, and so
  // does the language when the entry's is another (it was left in that language).
  useEffect(() => {
    const follow = () => {
      remember(positions.current, currentKey.current);
      const key = entryKey();
      const { pathname } = window.location;
      const language = prefixLanguage(pathname) ?? wantedLanguage.current;
      if (language !== wantedLanguage.current) {
        changeLanguage(language);
        wantedLanguage.current = language;
      }
      // The entry being left keeps its position; the one shown takes its own once painted. Its
      // path is read in its language's words, which come with that language's module (loaded
      // already for any entry this document showed; else fetched, or the host's page).
      const land = () => {
        if (window.location.pathname !== pathname) return;
        go(landedOn(resolve, language, pathname, entryState().page), { push: false, key }, language);
      };
      loadResources(language).then(land, () => window.location.reload());
    };
    window.addEventListener("popstate", follow);
    return () => window.removeEventListener("popstate", follow);
  }, [go, resolve, changeLanguage]);

  // The scroll position is the app's to restore, per entry: the browser's would come
  // before the screen and its data do.
  useEffect(() => {
    window.history.scrollRestoration = "manual";
    try {
      for (const [key, position] of JSON.parse(sessionStorage.getItem(SCROLL_STORE) ?? "[]") as [string, Position][]) {
        positions.current.set(key, position);
      }
    } catch {
      // Storage refused, or not ours: positions start afresh.
    }
    currentKey.current = entryKey();
    if (!currentKey.current) {
      currentKey.current = newEntryKey();
    } else {
      const saved = positions.current.get(currentKey.current);
      if (saved) window.scrollTo(...saved);
    }
    // The first page, as this build's routes read it (a reload may bring another build).
    keepInEntry({ key: currentKey.current, page: entryPageOf(shownRef.current.match) });
    const keep = () => {
      remember(positions.current, currentKey.current);
      try {
        sessionStorage.setItem(SCROLL_STORE, JSON.stringify([...positions.current].slice(-50)));
      } catch {
        // Full or refused: positions are then kept for this document only.
      }
    };
    window.addEventListener("pagehide", keep);
    return () => window.removeEventListener("pagehide", keep);
  }, []);

  useLayoutEffect(() => {
    if (!scrollTo.current) return;
    window.scrollTo(...scrollTo.current);
    scrollTo.current = null;
  }, [shown]);

  // Data loaded in another language than the one chosen (loaded at once, beside the
  // language's own resources), or none yet (a page the browser renders itself): the loader
  // runs again, once a navigation under way has landed (it is not cancelled).
  const stale =
    shown.match.route.loader !== undefined && !shown.pending && (shown.outcome === null || shown.language !== requestedLanguage);
  useEffect(() => {
    if (stale && navigating === null) reload();
  }, [stale, navigating, reload]);

  const navigate = useCallback((page: PageRef) => go(pageOf(page), { push: true }, wantedLanguage.current), [go, pageOf]);
  const prefetch = useCallback(
    (page: PageRef) => {
      const match = pageOf(page);
      void Promise.all([match.route.screen(), pageResources(language, match.name), arriving()]).catch(() => {});
    },
    [pageOf, language],
  );
  const href = useCallback((page: PageRef) => hrefIn(pageOf(page), language), [pageOf, language]);
  const value = useMemo<Navigation>(
    () => ({
      shown,
      data: new ShownData(shown, reloading || stale, reload),
      navigating,
      navigate,
      prefetch,
      href,
    }),
    [shown, reloading, stale, reload, navigating, navigate, prefetch, href],
  );
  return <NavigationContext.Provider value={value}>{children}</NavigationContext.Provider>;
}

/**
 * The data the screen on show receives. A class, not an object literal with a getter: V8
 * makes such a literal an object in dictionary mode (`%HasFastProperties` is false), and
 * one per render filled the old generation (a mark-compact every ~28,000 renders rather
 * than one in 200,000; under load a V8 heap of 36 MB rather than 9, 4% fewer pages/s).
 */
class ShownData implements ScreenData<unknown> {
  constructor(
    private readonly shown: Shown,
    readonly loading: boolean,
    readonly reload: () => void,
  ) {}

  /** Read during a render: on a streamed page's server render, it suspends until the data comes. */
  get outcome(): LoadOutcome<unknown> | null {
    return this.shown.pending ? use(this.shown.pending) : this.shown.outcome;
  }
}

function remember(positions: Map<string, Position>, key: string | undefined): void {
  if (key) positions.set(key, [window.scrollX, window.scrollY]);
}

/**
 * A link to a page, named by its route and parameters (`<Link to="languages" params={{
 * code }}>`; an unknown route or a missing parameter fails the type check), at its URL in
 * the active language: a plain click navigates in place, and pointing at it (or focusing
 * it) fetches the screen's module beforehand.
 */
export function Link({ children, ...page }: PageRef & { children: ReactNode }) {
  const { navigate, prefetch, href } = useNavigation();
  const target = page as PageRef;
  return (
    <a
      href={href(target)}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(target);
      }}
      onMouseEnter={() => prefetch(target)}
      onFocus={() => prefetch(target)}
    >
      {children}
    </a>
  );
}

/**
 * What a navigation under way looks like: a bar at the top, and, for screen readers, a
 * polite announcement (the region is always there, empty, so that its change is heard).
 */
export function NavigationPending({ label }: { label: string }) {
  const { navigating } = useNavigation();
  return (
    <>
      <div className="navigation-pending" hidden={navigating === null} aria-hidden="true" />
      <p className="visually-hidden navigation-announcement" aria-live="polite" aria-atomic="true">
        {navigating === null ? "" : label}
      </p>
    </>
  );
}
