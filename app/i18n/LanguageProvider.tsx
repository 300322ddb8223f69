// The language provider: the active language, its resources, and a change under way. It
// only holds state; what to show meanwhile (a spinner, an error with a retry) is the app's
// choice (App.tsx).
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useReducer, useRef } from "react";
import type { DateLocale } from "./dates";
import { followLanguage, leaveFor } from "./followLanguage";
import { directionOf, isElsewhere, type Language, languageUrl, localeOf } from "./languages";
import { type Pending, reduceLanguage } from "./languageState";
import { type LoadResources, type Resources, routeMessages } from "./resources";
import { createTranslator, type Translate } from "./translate";

export interface LanguageContextValue {
  language: Language;
  /** The language being loaded, when a change is under way; else the active one. */
  requestedLanguage: Language;
  /** A change under way (loading) or one whose resources failed to load; else null. */
  pending: Pending | null;
  dateLocale: DateLocale;
  t: Translate;
  /**
   * The messages of a page of `route` in the active language: null once they are there,
   * else the promise of their coming (a change of language brings the page's own; a page
   * shown while one was under way may still wait for them).
   */
  routeMessages: (route: string | null) => Promise<void> | null;
  changeLanguage: (language: Language) => void;
  /**
   * Loads a language again after its resources failed; if they fail again, loads the page
   * anew in that language. A document may never fetch a module again once its fetch
   * failed (Firefox keeps the failure in the module map, as the HTML standard says), so
   * only a new document is sure to recover.
   */
  retryLanguage: (language: Language) => void;
}

const LanguageContext = createContext<LanguageContextValue | null>(null);

export function useLanguage(): LanguageContextValue {
  const value = useContext(LanguageContext);
  if (!value) throw new Error("useLanguage must be used inside <LanguageProvider>");
  return value;
}

interface Props {
  initialLanguage: Language;
  /** The initial language's resources, already loaded: the first paint never waits. */
  initialResources: Resources;
  load: LoadResources;
  /** The URL of the page on show in a language (its route's path there), which a change of language goes to. */
  urlIn: (language: Language) => string | null;
  /** The route of the page on show, whose messages a change of language brings with the language's own. */
  routeOnShow?: () => string | null;
  children: ReactNode;
}

export function LanguageProvider({ initialLanguage, initialResources, load, urlIn, routeOnShow, children }: Props) {
  const [state, dispatch] = useReducer(reduceLanguage, {
    language: initialLanguage,
    resources: initialResources,
    pending: null,
  });
  const lastRequest = useRef(0);

  const requestLanguage = useCallback(
    (language: Language, failed: (request: number) => void) => {
      const request = ++lastRequest.current;
      dispatch({ type: "requested", language, request });
      load(language)
        .then(async (resources) => {
          await routeMessages(resources, routeOnShow?.() ?? null);
          return resources;
        })
        .then(
          (resources) => dispatch({ type: "loaded", language, request, resources }),
          () => failed(request),
        );
    },
    [load, routeOnShow],
  );
  const changeLanguage = useCallback(
    (language: Language) => {
      // A language on another origin is another document: its page there (in its words, which
      // come with its module), or its home.
      if (isElsewhere(language)) {
        // A later choice, made while its module comes, wins (as for a load); until it comes, the
        // choice shows as a load does (the control, the spinner).
        const request = ++lastRequest.current;
        dispatch({ type: "requested", language, request });
        const leave = () => {
          if (request === lastRequest.current) leaveFor(language, urlIn(language) ?? languageUrl(language, "/"));
        };
        load(language).then(leave, leave);
        return;
      }
      requestLanguage(language, (request) => dispatch({ type: "failed", language, request }));
    },
    [requestLanguage, load, urlIn],
  );
  const retryLanguage = useCallback(
    (language: Language) =>
      requestLanguage(language, (request) => {
        // A later choice wins, as for a load.
        if (request !== lastRequest.current) return;
        followLanguage(language, urlIn(language));
        window.location.reload();
      }),
    [requestLanguage, urlIn],
  );

  const firstLanguage = useRef(state.language);
  useEffect(() => {
    // The server already rendered the first language into the document.
    if (state.language === firstLanguage.current && lastRequest.current === 0) return;
    followLanguage(state.language, urlIn(state.language));
  }, [state.language, urlIn]);

  const { language, resources, pending } = state;
  const value = useMemo<LanguageContextValue>(() => {
    const locale = localeOf(language);
    return {
      language,
      requestedLanguage: pending?.language ?? language,
      pending,
      dateLocale: resources.dateLocale,
      t: createTranslator(resources.table, locale, resources.fallbacks, directionOf(language)),
      routeMessages: (route) => routeMessages(resources, route),
      changeLanguage,
      retryLanguage,
    };
  }, [language, resources, pending, changeLanguage, retryLanguage]);

  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}
