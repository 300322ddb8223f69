// What every engine runs in a page before the page's own scripts: it counts the times a
// loading spinner (role="status") was in the document, and keeps the problems the page
// shows (Content-Security-Policy violations; with `console: true`, for a driver that
// hears no console, also console errors and warnings, uncaught errors and rejections) in
// `window.__e2e.problems` for the harness to read.

/** @param {{ console: boolean }} options */
function watch(options) {
  if (window.__e2e) return;
  /** @type {{ spinnerSeen: number, problems: string[] }} */
  const e2e = { spinnerSeen: 0, problems: [] };
  window.__e2e = e2e;
  const spinner = () => {
    if (document.querySelector('[role="status"]')) e2e.spinnerSeen += 1;
  };
  new MutationObserver(spinner).observe(document, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", spinner);
  document.addEventListener("securitypolicyviolation", (event) =>
    e2e.problems.push(`csp violation: ${event.effectiveDirective} ${event.blockedURI}`),
  );
  if (!options.console) return;
  const describe = (/** @type {unknown} */ value) => {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (typeof value === "string") return value;
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  };
  for (const [method, type] of /** @type {const} */ ([["error", "error"], ["warn", "warning"]])) {
    const original = console[method];
    console[method] = (...args) => {
      e2e.problems.push(`${type}: ${args.map(describe).join(" ")}`);
      original.apply(console, args);
    };
  }
  window.addEventListener("error", (event) => {
    // A resource that failed to load (a script, a style) comes here too, with no message.
    if (event.error || event.message) e2e.problems.push(`pageerror: ${event.message}`);
  });
  window.addEventListener("unhandledrejection", (event) => e2e.problems.push(`pageerror: ${describe(event.reason)}`));
}

/** The watcher as a script to run in a page; `console: true` where the driver hears no console. */
export function watcherScript({ console = false } = {}) {
  return `(${watch})(${JSON.stringify({ console })})`;
}

/** Reads, and empties, the problems the watcher kept; [] on a page it does not watch. */
export const TAKE_PROBLEMS = "window.__e2e ? window.__e2e.problems.splice(0) : []";
