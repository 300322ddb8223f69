// The page a document shows first (app/routes.ts holds the routes; a generated site
// writes its own, so this lives beside them, not in them).
import type { BootState } from "./boot";
import { type Match, matchOf } from "./data/router";
import { NOT_FOUND, ROUTES, resolveRoute } from "./routes";

/**
 * The page the host's route table found, as the boot state says (the server renders it,
 * the browser hydrates it); the page `boot.path` names when the host does not know this
 * bundle's routes (`--server-bundle`) and hands none.
 */
export function bootMatch({ language, path, page }: Pick<BootState, "language" | "path" | "page">): Match {
  return page === undefined ? resolveRoute(language, path) : matchOf(ROUTES, NOT_FOUND, page, path);
}
