// Shared by the browser tests: start the real binary. The browsers are in engines/.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, stop, targetDir, waitReady } from "../bench/support.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const BINARY = process.env.BILINGUE_BIN ?? path.join(targetDir(root), "release/bilingue");

/**
 * Starts `bilingue --port 0 ARGS` (`port: false`: ARGS name the port); resolves with its
 * base URL once it is ready.
 */
export async function startHost(args = ["--render-threads", "1"], { port = true } = {}) {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`cargo build\` first`);
  const server = await startServer(BINARY, [...(port ? ["--port", "0"] : []), ...args]);
  await waitReady(server.baseUrl);
  return {
    baseUrl: server.baseUrl,
    stderr: () => server.stderr,
    stop: () => stop(server),
  };
}

/** The app's routes and router, read from app/ as the build reads them (once). */
let routing;
const appRouting = () =>
  (routing ??= import("../app/bundling/import-alone.mjs").then(({ importAlone }) =>
    Promise.all([importAlone(root, path.join(root, "app/routes.ts")), importAlone(root, path.join(root, "app/data/router.ts"))]),
  ));

/**
 * The app's page of `route` in `language`, its parameters as a URL writes them: its path,
 * prefix and all, at the route's path in that language (`/fr/langues/en`). Tests name
 * pages by route, never by today's paths.
 */
export async function appPage(language, route, params = {}) {
  const [{ module: routes }, { module: router }] = await appRouting();
  const pattern = router.patternIn(routes.ROUTES[route], language);
  // A language sits in a URL as its tag in small letters (`/fr-ca/`).
  return `/${language.toLowerCase()}${pattern.replace(/:(\w+)/g, (_, name) => params[name])}`;
}
