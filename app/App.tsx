// The application: the language provider around the screen the path names. While a new
// language's resources load, a spinner stands instead of the screen; if they fail, an error
// with a retry does.
import { useEffect } from "react";
import type { BootState } from "./boot";
import { LanguageProvider, useLanguage } from "./i18n/LanguageProvider";
import type { LoadResources, Resources } from "./i18n/resources";
import { resolveRoute } from "./routes";
import { Home } from "./ui/Home";
import { LanguageLoadFailed } from "./ui/LanguageLoadFailed";
import { NotFound } from "./ui/NotFound";
import { Notifications } from "./ui/notifications";
import { Spinner } from "./ui/Spinner";

interface Props {
  boot: BootState;
  initialResources: Resources;
  load: LoadResources;
}

export function App({ boot, initialResources, load }: Props) {
  return (
    <LanguageProvider initialLanguage={boot.language} initialResources={initialResources} load={load}>
      <Screen boot={boot} />
      <Notifications />
    </LanguageProvider>
  );
}

function Screen({ boot }: { boot: BootState }) {
  const { t, pending, changeLanguage } = useLanguage();
  const route = resolveRoute(boot.path);
  const title = t(route.titleKey);
  useEffect(() => {
    document.title = title;
  }, [title]);
  if (pending?.status === "loading") return <Spinner />;
  if (pending?.status === "failed") return <LanguageLoadFailed onRetry={() => changeLanguage(pending.language)} />;
  return route.screen === "home" ? <Home timeZone={boot.timeZone} /> : <NotFound />;
}
