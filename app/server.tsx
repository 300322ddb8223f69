// The server entry: the host renders pages through four functions (below), and takes what
// each call produced, its microtasks' work included, from the ops the bundle hands it over
// through (server/exchange.ts). A page
// without a loader is rendered at once; a page with one loads its data through the host
// (see server/exchange.ts) while the host renders others. When the host allows it (a
// person's page) and the route declares its page private (data fresh at each request),
// the page is streamed (server/streaming.ts): its frame at once, the parts that wait for
// data as it comes; otherwise it is rendered whole once the data is there (a crawler's
// page, a public page that caches may keep, a page whose status depends on its data).
import "./server/polyfills";
import { renderToString } from "bilingue:react-dom-strings";
import { App } from "./App";
import type { BootState } from "./boot";
import messageGroups from "bilingue:message-groups";
import { ENTRY_POINTS, type EntryPointFunctions, type RenderRequest, type ShellAsk } from "./contract";
import { type LoadOutcome, runLoader, statusFor } from "./data/loader";
import type { PageSharing, Route } from "./data/route";
import type { Match } from "./data/router";
import http, { type HttpClient, type RequestConfig, withConfig } from "./http/client";
import { DEFAULT_LANGUAGE, isLanguage, type Language, localeOf, placeLanguages } from "./i18n/languages";
import { type LanguageModule, type LoadResources, type Resources, resourcesOf, tableModuleOf } from "./i18n/resources";
import { createTranslator, NO_FALLBACKS } from "./i18n/translate";
import { bootMatch } from "./bootMatch";
import { type Answer, cancel, deliver, fail, finishLater, finishNow, type Rendered, routeConsoleToHost } from "./server/exchange";
import { fillHeldShell, haltShells, makeShellThenResume, streamPage } from "./server/streaming";
import { JOB } from "./server/transport";

// Every listed language's resources are in the server bundle, whole, found by name as the
// client's chunks are: a render never waits for one. A language's table is made when a page
// first asks for it (esbuild runs a module required by name when it is first required): a
// runtime holds the tables of the languages it has rendered, not all of a site's.
const whole = new Map<Language, Resources>();
function wholeResources(language: Language): Resources {
  let resources = whole.get(language);
  if (!resources) {
    resources = resourcesOf(require(`./i18n/tables/${tableModuleOf(language)}.ts`) as LanguageModule, language);
    whole.set(language, resources);
  }
  return resources;
}
const pages = new Map<string, Resources>();

/**
 * A page's resources: the messages a page of `route` ships to the browser (the first load's
 * and its route's, as the build grouped them), so that the server renders the text the
 * browser hydrates with; a key the groups lack (one built at run time and not declared by
 * its route) is "" on both sides. A bundle built without the groups has every message.
 */
function resourcesFor(language: Language, route: string | null): Resources {
  const all = wholeResources(language);
  if (messageGroups === null) return all;
  const key = `${language} ${route}`;
  let page = pages.get(key);
  if (!page) {
    const keys = [...messageGroups.firstLoad, ...((route !== null && messageGroups.routes[route]) || [])];
    const table = Object.fromEntries(keys.filter((k) => Object.hasOwn(all.table, k)).map((k) => [k, all.table[k]]));
    pages.set(key, (page = { ...all, table, fallbacks: fallbacksOf(all.fallbacks, keys), routes: null }));
  }
  return page;
}
const loadResources: LoadResources = async (language) => resourcesFor(language, null);

/** The fallbacks of `keys` (a page's resources never change on the server: none is the shared none). */
function fallbacksOf(fallbacks: Readonly<Record<string, string>>, keys: readonly string[]): Record<string, string> {
  const own = keys.filter((k) => Object.hasOwn(fallbacks, k));
  return own.length === 0 ? (NO_FALLBACKS as Record<string, string>) : Object.fromEntries(own.map((k) => [k, fallbacks[k]]));
}

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
function renderPage(boot: BootState, match: Match, data?: LoadOutcome<unknown>): Rendered {
  const { route } = match;
  const html = renderToString(<App boot={{ ...boot, data }} initialResources={resourcesFor(boot.language, match.name)} load={loadResources} />);
  const { title, description } = textOf(boot, match);
  const status = data ? statusFor(route, data) : route.status;
  return { html, result: { status, title, description, sharing: sharingOf(route, status, data), data } };
}

/**
 * Who may keep the page: as its route declares, unless its data failed to load (a page
 * not found for want of its resource excepted): a failure is its visitor's alone to see.
 */
function sharingOf(route: Route, status: 200 | 404, data?: LoadOutcome<unknown>): PageSharing {
  if (data && !data.ok && status !== 404) return { kind: "private" };
  return route.sharing;
}

/** A page's title and description, in its language (the description is the head's alone: no browser has it). */
function textOf(boot: BootState, { route }: Match): { title: string; description: string } {
  const { table, fallbacks } = wholeResources(boot.language);
  const t = createTranslator(table, localeOf(boot.language), fallbacks);
  return { title: t.text(route.titleKey), description: t.text(route.descriptionKey) };
}

/**
 * Whether a page may be streamed: its route declares it private (its data is fresh at
 * each request; a public page is rendered whole, so that caches may keep it) and its
 * status is known before the data comes.
 */
function mayStream(route: Route): boolean {
  return route.sharing.kind === "private" && !route.loader?.notFoundOn404;
}

/** The shared client, its calls marked as this page's, so the host knows whose they are. */
function clientFor(job: number): HttpClient {
  return withConfig(http, (config?: RequestConfig) => ({ ...config, [JOB]: job }) as RequestConfig);
}

/** A promise that never settles: the data a page's shell is prerendered without. */
const NEVER: Promise<LoadOutcome<unknown>> = new Promise(() => {});

/**
 * Starts the page `job`: rendered now, once its loader has its data, or streamed (only
 * with `streamNonce`, which its inline scripts then carry; `shell` says how).
 */
export function render(boot: BootState, job: number, streamNonce: string | null, shell: ShellAsk = { kind: "none" }): void {
  try {
    start(boot, job, streamNonce, shell);
  } catch (error) {
    // A page that throws fails alone: the exchange and the other pages go on.
    fail(job, error);
  }
}

function start(boot: BootState, job: number, streamNonce: string | null, shell: ShellAsk): void {
  checkTimeZone(boot.timeZone);
  // The site's, the same for every page: a page's links stay on its own origin.
  placeLanguages(boot.placement, null);
  const page = { ...boot, language: isLanguage(boot.language) ? boot.language : DEFAULT_LANGUAGE };
  const match = bootMatch(page);
  const { route } = match;
  if (!route.loader) {
    if (route.screen.loaded) finishNow(job, renderPage(page, match));
    else finishLater(job, route.screen().then(() => renderPage(page, match)));
    return;
  }
  const context = { language: page.language, params: match.params, http: clientFor(job) };
  if (streamNonce !== null && mayStream(route)) {
    const data = runLoader(route, context);
    const app = (pending: Promise<LoadOutcome<unknown>>) => (
      <App boot={page} pendingData={pending} initialResources={resourcesFor(page.language, match.name)} load={loadResources} />
    );
    if (shell.kind === "hold") {
      // Most such pages go whole: nothing of the stream is made before it is known to go.
      fillHeldShell(job, () => app(data), streamNonce, data, route.screen(), (outcome) => renderPage(page, match, outcome));
      return;
    }
    const head = { status: route.status, ...textOf(page, match) };
    if (shell.kind === "none") streamPage(job, head, app(data), streamNonce, data, route.screen());
    else makeShellThenResume(job, head, app(NEVER), app(data), streamNonce, data, route.screen());
    return;
  }
  // The screen's module is in this bundle, there after a microtask; the first render of
  // each waits for it (not earlier: a promise made while the snapshot is taken never settles).
  finishLater(job, Promise.all([runLoader(route, context), route.screen()]).then(([data]) => renderPage(page, match, data)));
}

// In the host, the bundle's console goes to the host's log; a bundle run by Node (the
// benchmark's peer) keeps Node's.
if ((globalThis as { Deno?: unknown }).Deno !== undefined) routeConsoleToHost();

// Each as the contract says the host calls it (its parameters are generated with it).
const entry = globalThis as unknown as EntryPointFunctions;
entry[ENTRY_POINTS.render] = (request, job) => {
  const { boot, streamNonce, shell } = JSON.parse(request) as RenderRequest;
  render(boot, job, streamNonce, shell);
};
entry[ENTRY_POINTS.halt] = haltShells;
entry[ENTRY_POINTS.deliver] = (answers) => {
  deliver(JSON.parse(answers) as Answer[]);
};
entry[ENTRY_POINTS.cancel] = cancel;
