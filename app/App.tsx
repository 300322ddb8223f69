// The application: the language provider around the screen the path names, with that
// screen's data. While a new language's resources load, a spinner stands instead of the
// screen; if they fail, an error with a retry does.
import { useEffect } from "react";
import type { BootState } from "./boot";
import type { LoadOutcome } from "./data/loader";
import { ScreenDataProvider } from "./data/ScreenData";
import { LanguageProvider, useLanguage } from "./i18n/LanguageProvider";
import type { Language } from "./i18n/languages";
import type { LoadResources, Resources } from "./i18n/resources";
import { NavigationProvider, useNavigation } from "./navigation";
import { resolveRoute, type Screen as ScreenName } from "./routes";
import { Home } from "./ui/Home";
import { LanguageLoadFailed } from "./ui/LanguageLoadFailed";
import { NotFound } from "./ui/NotFound";
import { ScreenFailed } from "./ui/ScreenFailed";
import { Notifications } from "./ui/notifications";
import { Spinner } from "./ui/Spinner";
import { Status } from "./ui/Status";

interface Props {
  boot: BootState;
  /** On the server, for a streamed page: the loader's outcome, still to come. */
  pendingData?: Promise<LoadOutcome<unknown>>;
  initialResources: Resources;
  load: LoadResources;
}

export function App({ boot, pendingData, initialResources, load }: Props) {
  return (
    <LanguageProvider initialLanguage={boot.language} initialResources={initialResources} load={load}>
      <NavigationProvider initialPath={boot.path}>
        <Screen boot={boot} pendingData={pendingData} />
      </NavigationProvider>
      <Notifications />
    </LanguageProvider>
  );
}

/** What a loader's outcome is kept under: it holds for one language and one path. */
const dataKey = (language: Language, path: string) => `${language} ${path}`;

function Screen({ boot, pendingData }: { boot: BootState; pendingData?: Promise<LoadOutcome<unknown>> }) {
  const { t, language, pending, retryLanguage } = useLanguage();
  const { path } = useNavigation();
  const { route, params } = resolveRoute(path);
  const title = t(route.titleKey);
  useEffect(() => {
    document.title = title;
  }, [title]);
  if (pending?.status === "loading") return <Spinner />;
  if (pending?.status === "failed") return <LanguageLoadFailed onRetry={() => retryLanguage(pending.language)} />;
  const key = dataKey(boot.language, boot.path);
  const initial = boot.data ? { key, outcome: boot.data } : pendingData ? { key, pending: pendingData } : null;
  return (
    <ScreenDataProvider route={route} params={params} language={language} initial={initial} dataKey={dataKey(language, path)}>
      {/* A new path or language is a new chance for the screen. */}
      <ScreenFailed key={dataKey(language, path)} message={t("screen.failed")}>
        <ScreenFor screen={route.screen} timeZone={boot.timeZone} />
      </ScreenFailed>
    </ScreenDataProvider>
  );
}

function ScreenFor({ screen, timeZone }: { screen: ScreenName; timeZone: string }) {
  switch (screen) {
    case "home":
      return <Home timeZone={timeZone} />;
    case "status":
      return <Status timeZone={timeZone} />;
    case "notFound":
      return <NotFound />;
  }
}
