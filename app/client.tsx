// The browser entry: load the active language's resources (already preloaded), then hydrate.
import "./ui/styles.css";
import { hydrateRoot } from "react-dom/client";
import { App } from "./App";
import { BOOT_STATE_ID, type BootState, ROOT_ID } from "./boot";
import { loadResources } from "./i18n/resources";

const boot = JSON.parse(document.getElementById(BOOT_STATE_ID)!.textContent!) as BootState;
const initialResources = await loadResources(boot.language);
hydrateRoot(
  document.getElementById(ROOT_ID)!,
  <App boot={boot} initialResources={initialResources} load={loadResources} />,
);
