// Development only: the host adds this script to every page when it runs with --dev. It
// listens to the host's events: after a rebuild the page reloads, a changed stylesheet is
// swapped in place, and a build error or a server-render error shows over the page with
// its file and line until the next good save.

import { DEV_PROBLEM_ID, type Problems } from "../contract";

const OVERLAY_ID = "bilingue-dev-overlay";

function showProblems({ title, problems }: Problems): void {
  document.getElementById(OVERLAY_ID)?.remove();
  const overlay = document.createElement("div");
  overlay.id = OVERLAY_ID;
  overlay.setAttribute("role", "alert");
  overlay.style.cssText =
    "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:2rem;background:rgba(24,4,8,.94);" +
    "color:#fff;font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace";
  const heading = document.createElement("h2");
  heading.textContent = title;
  heading.style.cssText = "margin:0 0 1rem;color:#ff8a8a;font-size:1.2rem";
  overlay.append(heading);
  for (const problem of problems) {
    const where = document.createElement("div");
    where.className = "location";
    where.style.cssText = "color:#9cdcfe;margin-top:1rem";
    const place = [problem.file, problem.line, problem.column].filter((part) => part !== undefined && part !== 0);
    where.textContent = place.length > 0 ? place.join(":") : "";
    const message = document.createElement("pre");
    message.textContent = problem.message;
    message.style.cssText = "white-space:pre-wrap;margin:.25rem 0 0";
    overlay.append(where, message);
  }
  document.body.append(overlay);
}

function swapStyles(hrefs: string[]): void {
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
  hrefs.forEach((href, i) => {
    const link = links[i] ?? document.head.appendChild(Object.assign(document.createElement("link"), { rel: "stylesheet" }));
    link.href = href;
  });
  for (const extra of links.slice(hrefs.length)) extra.remove();
}

// A server-render error of this very page, written into it by the host (once the document
// is parsed: this module starts from its head).
if (document.readyState === "loading") {
  await new Promise((parsed) => document.addEventListener("DOMContentLoaded", parsed, { once: true }));
}
const renderError = document.getElementById(DEV_PROBLEM_ID);
if (renderError?.textContent) showProblems(JSON.parse(renderError.textContent) as Problems);

const events = new EventSource("/_bilingue/events");
let lost = false;
events.addEventListener("reload", () => window.location.reload());
events.addEventListener("styles", (event) => swapStyles(JSON.parse((event as MessageEvent<string>).data) as string[]));
events.addEventListener("problems", (event) => showProblems(JSON.parse((event as MessageEvent<string>).data) as Problems));
events.addEventListener("error", () => {
  lost = true;
});
// The host came back (it restarts when the list of languages changes): start afresh.
events.addEventListener("open", () => {
  if (lost) window.location.reload();
});
