// The server entry: one `render` for the host (V8) and the benchmark peer (Node). The host
// sends the boot state; the answer is the screen's markup, its title, its status, and
// whether the host may cache it.
import "./server/polyfills";
import { renderToString } from "react-dom/server";
import { App } from "./App";
import type { BootState, RenderResult } from "./boot";
import { DEFAULT_LANGUAGE, isLanguage, type Language, LANGUAGES, localeOf } from "./i18n/languages";
import type { LoadResources, Resources } from "./i18n/resources";
import type { Table } from "./i18n/table";
import { createTranslator } from "./i18n/translate";
import type { Locale } from "date-fns";
import { resolveRoute } from "./routes";

// Every listed language's resources are in the server bundle, found by name as the
// client's chunks are: a render never waits for one.
const resources = new Map<Language, Resources>(
  LANGUAGES.map(({ code }) => [
    code,
    {
      table: (require(`./i18n/tables/${code}.ts`) as { default: Table }).default,
      dateLocale: (require(`./i18n/dateLocales/${code}.ts`) as { default: Locale }).default,
    },
  ]),
);
const resourcesOf = (language: Language): Resources => resources.get(language)!;
const loadResources: LoadResources = async (language) => resourcesOf(language);

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

export function render(boot: BootState): RenderResult {
  checkTimeZone(boot.timeZone);
  const language = isLanguage(boot.language) ? boot.language : DEFAULT_LANGUAGE;
  const route = resolveRoute(boot.path);
  const html = renderToString(<App boot={{ ...boot, language }} initialResources={resourcesOf(language)} load={loadResources} />);
  const t = createTranslator(resourcesOf(language).table, localeOf(language));
  return { status: route.status, title: t(route.titleKey), html, cacheable: route.cacheable };
}

/** The host's entry point: JSON in, JSON out, so one V8 call carries the whole exchange. */
(globalThis as Record<string, unknown>).bilingueRender = (boot: string): string =>
  JSON.stringify(render(JSON.parse(boot) as BootState));
