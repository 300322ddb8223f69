// The browser entry: load the active language's resources with the page's messages
// (already preloaded) and the screen's module (in the first load, or its own chunk), then
// hydrate.
import "./ui/styles.css";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./App";
import { BOOT_STATE_ID, type BootState, ROOT_ID } from "./boot";
import { keepChoiceBroughtHere } from "./i18n/followLanguage";
import { placeLanguages } from "./i18n/languages";
import { loadResources, routeMessages } from "./i18n/resources";
import { bootMatch } from "./bootMatch";

// No top-level await: the chunks loaded later (a language's, a screen's) import from this
// module in a production build (app/bundling/first-load-chunk.mjs), and a module still
// evaluating would keep them, and the start that waits for them, waiting for ever.
async function start() {
  // The host starts this module from the document's head: the rest of the document (the
  // markup, the boot state) is there once it is parsed.
  if (document.readyState === "loading") {
    await new Promise((parsed) => document.addEventListener("DOMContentLoaded", parsed, { once: true }));
  }
  const boot = JSON.parse(document.getElementById(BOOT_STATE_ID)!.textContent!) as BootState;
  placeLanguages(boot.placement, boot.language);
  keepChoiceBroughtHere(boot.language);
  // The language's module first: it brings the language's words for the routes' paths
  // (app/data/routePaths.ts), which the route is read in. Then the route's messages and
  // its screen; a screen whose module will not load shows the screen's failure message
  // instead. All of them preloaded by the host. A host that found the page names its
  // messages' module in the boot state (none: the route has none of its own).
  const initialResources = await loadResources(boot.language);
  const match = bootMatch(boot);
  const messages = boot.page === undefined ? undefined : (boot.messages ?? null);
  await Promise.all([routeMessages(initialResources, match.name, messages), match.route.screen().catch(() => {})]);
  const root = document.getElementById(ROOT_ID)!;
  const app = <App boot={boot} initialResources={initialResources} load={loadResources} />;
  // An empty root is the host's client-rendered fallback (its server render failed): render here.
  if (root.hasChildNodes()) hydrateRoot(root, app);
  else createRoot(root).render(app);
}

void start();
