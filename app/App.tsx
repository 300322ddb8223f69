// The application: the language provider around the screen the path names, with that
// screen's data (app/navigation.tsx moves between screens). While a new language's
// resources load, a spinner stands instead of the screen; if they fail, an error with a
// retry does.
import { useEffect, useReducer, useState } from "react";
import type { BootState } from "./boot";
import type { LoadOutcome } from "./data/outcome";
import type { ScreenProps } from "./data/route";
import { hrefIn, type Match, type PageRef, pageOf } from "./data/router";
import { LanguageProvider, useLanguage } from "./i18n/LanguageProvider";
import type { Language } from "./i18n/languages";
import type { LoadResources, Resources } from "./i18n/resources";
import { entryRoute, entryUrlIn, NavigationPending, NavigationProvider, type ResolvePage, type Shown, useNavigation } from "./navigation";
import { bootMatch } from "./bootMatch";
import { ROUTES } from "./routes";
import { Notifications } from "./ui/notifications";
import { ScreenFailed } from "./ui/ScreenFailed";
import { Spinner } from "./ui/Spinner";
import LanguageLoadFailed from "./ui/LanguageLoadFailed";

interface Props {
  boot: BootState;
  /** On the server, for a streamed page: the loader's outcome, still to come. */
  pendingData?: Promise<LoadOutcome<unknown>>;
  initialResources: Resources;
  load: LoadResources;
}

export function App({ boot, pendingData, initialResources, load }: Props) {
  // What the first render shows: the page the host rendered, with its data.
  const [initial] = useState<Shown>(() => ({
    match: bootMatch(boot),
    outcome: boot.data ?? null,
    pending: pendingData,
    language: boot.language,
  }));
  return (
    <LanguageProvider initialLanguage={boot.language} initialResources={initialResources} load={load} urlIn={urlOfEntryIn} routeOnShow={entryRoute}>
      <NavigationProvider resolve={resolvePage} pageOf={pageOfRoutes} initial={initial}>
        <Screen timeZone={boot.timeZone} />
        <Pending />
      </NavigationProvider>
      <Notifications />
    </LanguageProvider>
  );
}

const pageOfRoutes = (page: PageRef): Match => pageOf(ROUTES, page);
const resolvePage: ResolvePage = (language, path, page) => bootMatch({ language, path, page });
const urlOfEntryIn = (language: Language): string | null => entryUrlIn(language, pageOfRoutes);

function Pending() {
  const { t } = useLanguage();
  return <NavigationPending label={t.text("navigation.pending")} />;
}

function Screen({ timeZone }: { timeZone: string }) {
  const { t, language, pending, retryLanguage, routeMessages: messagesOf } = useLanguage();
  const { shown, data } = useNavigation();
  const { route, params } = shown.match;
  const title = t.text(route.titleKey);
  // A page shown in a language whose messages for it are still coming (it landed while a
  // change of language was under way) waits for them: never a screen of empty texts. If
  // they will not load, the page itself, from the host, will (as for a screen's module).
  const coming = messagesOf(shown.match.name);
  const [, arrived] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    coming?.then(arrived, () => window.location.reload());
  }, [coming]);
  useEffect(() => {
    if (!coming) document.title = title;
  }, [title, coming]);
  if (pending?.status === "loading" || coming) return <Spinner />;
  if (pending?.status === "failed") return <LanguageLoadFailed onRetry={() => retryLanguage(pending.language)} />;
  return (
    // A new page or language is a new chance for the screen.
    <ScreenFailed key={hrefIn(shown.match, language)} message={t("screen.failed")}>
      <RouteScreen shown={shown} data={data} params={params} timeZone={timeZone} />
    </ScreenFailed>
  );
}

/** The route's screen: its module is there before the route is shown (the router, the
 * client entry and the server wait for it). */
function RouteScreen({ shown, ...props }: { shown: Shown } & ScreenProps<unknown>) {
  const module = shown.match.route.screen.loaded;
  if (!module) throw new Error(`the screen of ${shown.match.name ?? "the not-found page"} is not loaded`);
  const Component = module.default;
  return <Component {...props} />;
}
