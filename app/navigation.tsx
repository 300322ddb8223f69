// Moving between screens without a new page: a link changes the path in the URL and in
// this state, the back and forward buttons change it back, and the screen follows.
import { createContext, type MouseEvent, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { useLanguage } from "./i18n/LanguageProvider";
import { localizedPath, stripLanguagePrefix } from "./i18n/languages";

interface Navigation {
  /** The path without its language prefix. */
  path: string;
  navigate: (path: string) => void;
}

const NavigationContext = createContext<Navigation | null>(null);

export function useNavigation(): Navigation {
  const value = useContext(NavigationContext);
  if (!value) throw new Error("useNavigation must be used inside <NavigationProvider>");
  return value;
}

export function NavigationProvider({ initialPath, children }: { initialPath: string; children: ReactNode }) {
  const [path, setPath] = useState(initialPath);
  const { language } = useLanguage();
  useEffect(() => {
    const follow = () => setPath(stripLanguagePrefix(window.location.pathname));
    window.addEventListener("popstate", follow);
    return () => window.removeEventListener("popstate", follow);
  }, []);
  const navigate = useCallback(
    (to: string) => {
      window.history.pushState(null, "", localizedPath(language, to));
      setPath(to);
      window.scrollTo(0, 0);
    },
    [language],
  );
  const value = useMemo(() => ({ path, navigate }), [path, navigate]);
  return <NavigationContext.Provider value={value}>{children}</NavigationContext.Provider>;
}

/** A link to another screen, in the active language; a plain click navigates in place. */
export function Link({ to, children }: { to: string; children: ReactNode }) {
  const { navigate } = useNavigation();
  const { language } = useLanguage();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={localizedPath(language, to)} onClick={follow}>
      {children}
    </a>
  );
}
