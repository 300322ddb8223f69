// The streaming peer's render (bundled for Node by bench/streaming/build.mjs): the app's
// own <App>, streamed with React's `renderToPipeableStream` the way app/server.tsx streams
// a page whose loader waits: the loader starts at once, its outcome still to come
// (`pendingData`), and the boundary that reads it streams in when it comes. The loader's
// calls go over HTTP to the API at `apiBase`, with the visitor's Cookie, as a Node app's
// would.
import type { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { App } from "../../app/App";
import type { BootState } from "../../app/boot";
import { type LoadOutcome, runLoader } from "../../app/data/loader";
import { createHttpClient } from "../../app/http/client";
import { LANGUAGES, type Language } from "../../app/i18n/languages";
import { type LanguageModule, type LoadResources, type Resources, resourcesOf } from "../../app/i18n/resources";
import { resolveRoute } from "../../app/routes";

// Every language's resources at hand, found by name as app/server.tsx finds them.
const resources = new Map<Language, Resources>(
  LANGUAGES.map(({ code }) => [
    code,
    resourcesOf(require(`../../app/i18n/tables/${code}.ts`) as LanguageModule, code),
  ]),
);
const load: LoadResources = async (language) => resources.get(language)!;

export interface Streaming {
  /** Sends what React has rendered so far on to `destination`, then the rest as it comes. */
  pipe(destination: Writable): void;
  /** Stops the render (the client went away). */
  abort(): void;
  /** The loader's outcome, for the boot state written after the markup. */
  data: Promise<LoadOutcome<unknown>>;
}

/**
 * Starts streaming the page `boot` names (a screen with a loader), its loader calling the
 * API with the visitor's `cookie` (the request's Cookie header, if any); `onShellReady`
 * is called when its frame is rendered, `onError` for anything that fails.
 */
export function streamPage(
  boot: BootState,
  apiBase: string,
  cookie: string | undefined,
  nonce: string,
  onShellReady: (streaming: Streaming) => void,
  onError: (error: unknown) => void,
): void {
  const { route, params } = resolveRoute(boot.language, boot.path);
  if (!route.loader) throw new Error(`${boot.path}: a screen without a loader is not streamed`);
  const http = createHttpClient({ baseURL: apiBase, headers: cookie ? { Cookie: cookie } : {} });
  const data = runLoader(route, { language: boot.language, params, http });
  const app = <App boot={boot} pendingData={data} initialResources={resources.get(boot.language)!} load={load} />;
  // The screen's module first (a microtask: it is in this bundle), as app/server.tsx waits for it.
  route.screen().then(() => {
    const stream = renderToPipeableStream(app, {
      nonce,
      onShellReady: () => onShellReady({ pipe: (destination) => void stream.pipe(destination), abort: () => stream.abort(), data }),
      onShellError: onError,
      onError,
    });
  }, onError);
}
