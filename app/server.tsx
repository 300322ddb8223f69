// The server entry: one `render` for the host (V8) and the benchmark peer (Node).
import "./server/polyfills";
import { renderToString } from "react-dom/server";
import { App } from "./App";
import type { BootState, RenderRequest, RenderResult } from "./boot";
import { DEFAULT_LANGUAGE, isLanguage, localeOf } from "./i18n/languages";
import type { LoadResources, Resources } from "./i18n/resources";
import { createTranslator } from "./i18n/translate";
import { resolveRoute } from "./routes";
import en from "./i18n/tables/en";
import fr from "./i18n/tables/fr";
import enDates from "./i18n/dateLocales/en";
import frDates from "./i18n/dateLocales/fr";

// Both languages are in the server bundle: a render never waits for a resource.
const resources: Record<string, Resources> = {
  fr: { table: fr, dateLocale: frDates },
  en: { table: en, dateLocale: enDates },
};
const loadResources: LoadResources = async (language) => resources[language];

const validTimeZones = new Set<string>();

/** Throws a clear RangeError for a time zone Intl does not know (the host's --time-zone). */
function checkTimeZone(timeZone: string): void {
  if (validTimeZones.has(timeZone)) return;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    throw new RangeError(`unknown time zone ${JSON.stringify(timeZone)}: give an IANA name such as Europe/Paris`);
  }
  validTimeZones.add(timeZone);
}

export function render(request: RenderRequest): RenderResult {
  checkTimeZone(request.timeZone);
  const language = isLanguage(request.language) ? request.language : DEFAULT_LANGUAGE;
  const route = resolveRoute(request.path);
  const boot: BootState = { language, path: request.path, timeZone: request.timeZone };
  const html = renderToString(
    <App boot={boot} initialResources={resources[language]} load={loadResources} />,
  );
  const t = createTranslator(resources[language].table, localeOf(language));
  return { status: route.status, title: t(route.titleKey), html, boot, cacheable: route.cacheable };
}

/** The host's entry point: JSON in, JSON out, so one V8 call carries the whole exchange. */
(globalThis as Record<string, unknown>).bilingueRender = (request: string): string =>
  JSON.stringify(render(JSON.parse(request) as RenderRequest));
