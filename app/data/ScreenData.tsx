// The data of the screen on show: what the server loaded for the first paint (in the boot
// state), then, in the browser, what its loader gives when the path or the language
// changes, or when the screen asks to reload. While a load is under way the previous data
// stays on show. On the server, a streamed page's data is still to come: the part of the
// screen that reads it (`useScreenOutcome`, inside a `<Suspense>` boundary) waits for it,
// and the rest is sent at once.
import { createContext, type ReactNode, use, useCallback, useContext, useEffect, useRef, useState } from "react";
import type { Language } from "../i18n/languages";
import type { Route } from "../routes";
import { type LoadOutcome, runLoader } from "./loader";

export interface ScreenData<Data> {
  /** The last outcome of the screen's loader; null before the first. */
  outcome: LoadOutcome<Data> | null;
  /** On the server, for a streamed page: the outcome still to come. */
  pending?: Promise<LoadOutcome<Data>>;
  loading: boolean;
  reload: () => void;
}

const ScreenDataContext = createContext<ScreenData<unknown>>({ outcome: null, loading: false, reload: () => {} });

export function useScreenData<Data>(): ScreenData<Data> {
  return useContext(ScreenDataContext) as ScreenData<Data>;
}

/**
 * The loader's outcome for the part of the screen that shows it; on a streamed page's
 * server render, suspends until it comes (call it inside a `<Suspense>` boundary).
 */
export function useScreenOutcome<Data>(): LoadOutcome<Data> | null {
  const { outcome, pending } = useScreenData<Data>();
  return pending ? use(pending) : outcome;
}

interface Props {
  route: Route;
  params: Record<string, string>;
  language: Language;
  /** The key (language and path) and the outcome the server loaded (or, while a streamed
   * page renders on the server, will load), if any. */
  initial: { key: string; outcome: LoadOutcome<unknown> } | { key: string; pending: Promise<LoadOutcome<unknown>> } | null;
  dataKey: string;
  children: ReactNode;
}

/** The shared client, loaded when first needed: it is not part of the first-load JavaScript. */
const sharedClient = () => import("../http/client").then((module) => module.default);

export function ScreenDataProvider({ route, params, language, initial, dataKey, children }: Props) {
  const [loaded, setLoaded] = useState(initial);
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const { loader } = route;

  const load = useCallback(() => {
    if (!loader) return;
    const request = ++latest.current;
    setLoading(true);
    sharedClient()
      .then((http) => runLoader(loader, { language, params, http }))
      .then((outcome) => {
        // Only the latest load lands: a slow earlier one never overwrites a later one.
        if (request !== latest.current) return;
        setLoaded({ key: dataKey, outcome });
        setLoading(false);
      });
    // The params object is new each render; the key names what it holds.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loader, language, dataKey]);

  useEffect(() => {
    if (loader && loaded?.key !== dataKey) load();
  }, [loader, loaded?.key, dataKey, load]);

  const landed = loaded && "outcome" in loaded ? loaded.outcome : null;
  const pending = loaded && "pending" in loaded && loaded.key === dataKey ? loaded.pending : undefined;
  const value: ScreenData<unknown> = {
    outcome: loader ? landed : null,
    pending: loader ? pending : undefined,
    loading: loading || (loader !== undefined && loaded?.key !== dataKey),
    reload: load,
  };
  return <ScreenDataContext.Provider value={value}>{children}</ScreenDataContext.Provider>;
}
