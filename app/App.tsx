import { useEffect } from "react";
import type { BootState } from "./boot";
import { LanguageProvider, useLanguage } from "./i18n/LanguageProvider";
import type { LoadResources, Resources } from "./i18n/resources";
import { resolveRoute } from "./routes";
import { Home } from "./ui/Home";
import { NotFound } from "./ui/NotFound";
import { Notifications } from "./ui/notifications";

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
  const { t } = useLanguage();
  const route = resolveRoute(boot.path);
  const title = t(route.titleKey);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return route.screen === "home" ? <Home timeZone={boot.timeZone} /> : <NotFound />;
}
