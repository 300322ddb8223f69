// The server entry: the host renders pages through four functions (below). A page
// without a loader is rendered at once; a page with one loads its data through the host
// (see server/exchange.ts) while the host renders others. When the host allows it (a
// person's page) and the loader's data is fresh at each request, the page is streamed
// (server/streaming.ts): its frame at once, the parts that wait for data as it comes;
// otherwise it is rendered whole once the data is there (a crawler's page, a page whose
// data is public and may be cached, a page whose status depends on its data).
import "./server/polyfills";
import { renderToString } from "react-dom/server";
import { App } from "./App";
import type { BootState, RenderResult } from "./boot";
import { ENTRY_POINTS } from "./contract";
import { type Loader, type LoadOutcome, runLoader, statusFor } from "./data/loader";
import http, { type HttpClient, type RequestConfig } from "./http/client";
import { DEFAULT_LANGUAGE, isLanguage, type Language, LANGUAGES, localeOf } from "./i18n/languages";
import { type LanguageModule, type LoadResources, type Resources, resourcesOf } from "./i18n/resources";
import { createTranslator } from "./i18n/translate";
import { type Match, type Route, resolveRoute } from "./routes";
import { type Answer, cancel, deliver, fail, finishLater, finishNow, routeConsoleToHost, takeOutbox } from "./server/exchange";
import { streamPage } from "./server/streaming";
import { JOB } from "./server/transport";

// Every listed language's resources are in the server bundle, found by name as the
// client's chunks are: a render never waits for one.
const resources = new Map<Language, Resources>(
  LANGUAGES.map(({ code }) => [
    code,
    resourcesOf(require(`./i18n/tables/${code}.ts`) as LanguageModule),
  ]),
);
const resourcesFor = (language: Language): Resources => resources.get(language)!;
const loadResources: LoadResources = async (language) => resourcesFor(language);

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

/** The page for `boot`, with its loader's outcome when the screen has a loader. */
function renderPage(boot: BootState, { route }: Match, data?: LoadOutcome<unknown>): RenderResult {
  const html = renderToString(<App boot={{ ...boot, data }} initialResources={resourcesFor(boot.language)} load={loadResources} />);
  const { title, description } = textOf(boot, route);
  const status = route.loader && data ? statusFor(route.loader, data, route.status) : route.status;
  const publicForSeconds = data?.ok ? route.loader?.publicForSeconds : undefined;
  return {
    status,
    title,
    description,
    html,
    cacheable: route.cacheable && !route.loader,
    data,
    publicForSeconds,
  };
}

/** A page's title and description, in its language. */
function textOf(boot: BootState, route: Route): { title: string; description: string } {
  const t = createTranslator(resourcesFor(boot.language).table, localeOf(boot.language));
  return { title: t(route.titleKey), description: t(route.descriptionKey) };
}

/**
 * Whether a page may be streamed: its data is fresh at each request (a page whose loader
 * declared its data public is rendered whole, so that caches may keep it) and its status
 * is known before the data comes.
 */
function mayStream(loader: Loader<unknown>): boolean {
  return loader.publicForSeconds === undefined && !loader.notFoundOn404;
}

/** The shared client, its calls marked as this page's, so the host knows whose they are. */
function clientFor(job: number): HttpClient {
  const mark = (config?: RequestConfig): RequestConfig => ({ ...config, [JOB]: job }) as RequestConfig;
  return {
    ...http,
    request: (config) => http.request(mark(config)),
    get: (url, config) => http.get(url, mark(config)),
    delete: (url, config) => http.delete(url, mark(config)),
    post: (url, data, config) => http.post(url, data, mark(config)),
    put: (url, data, config) => http.put(url, data, mark(config)),
    patch: (url, data, config) => http.patch(url, data, mark(config)),
  };
}

/**
 * Starts the page `job`: rendered now, once its loader has its data, or streamed (only
 * with `streamNonce`, which its inline scripts then carry).
 */
export function render(boot: BootState, job: number, streamNonce: string | null): void {
  try {
    start(boot, job, streamNonce);
  } catch (error) {
    // A page that throws fails alone: the exchange and the other pages go on.
    fail(job, error);
  }
}

function start(boot: BootState, job: number, streamNonce: string | null): void {
  checkTimeZone(boot.timeZone);
  const page = { ...boot, language: isLanguage(boot.language) ? boot.language : DEFAULT_LANGUAGE };
  const match = resolveRoute(page.path);
  const loader = match.route.loader;
  if (!loader) {
    finishNow(job, renderPage(page, match));
    return;
  }
  const context = { language: page.language, params: match.params, http: clientFor(job) };
  if (streamNonce !== null && mayStream(loader)) {
    const data = runLoader(loader, context);
    const head = { status: match.route.status, ...textOf(page, match.route) };
    const app = <App boot={page} pendingData={data} initialResources={resourcesFor(page.language)} load={loadResources} />;
    streamPage(job, head, app, streamNonce, data);
    return;
  }
  finishLater(job, runLoader(loader, context).then((data) => renderPage(page, match, data)));
}

// In the host, the bundle's console goes to the host's log; a bundle run by Node (the
// benchmark's peer) keeps Node's.
if ((globalThis as { Deno?: unknown }).Deno !== undefined) routeConsoleToHost();

const entry = globalThis as Record<string, unknown>;
/** A page to render, as job number `job`, streamed if it may and `streamNonce` is given: the outbox (JSON). */
entry[ENTRY_POINTS.render] = (boot: string, job: number, streamNonce: string | null): string => {
  render(JSON.parse(boot) as BootState, job, streamNonce);
  return takeOutbox();
};
/** Answers to the API calls asked for: the outbox (JSON). */
entry[ENTRY_POINTS.deliver] = (answers: string): string => {
  deliver(JSON.parse(answers) as Answer[]);
  return takeOutbox();
};
/** What the pages still loading have put in the outbox since (JSON). */
entry[ENTRY_POINTS.outbox] = takeOutbox;
/** The streamed page `job` lost its client: its render stops (JSON outbox). */
entry[ENTRY_POINTS.cancel] = (job: number): string => {
  cancel(job);
  return takeOutbox();
};
