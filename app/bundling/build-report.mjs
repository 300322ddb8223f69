// What the development loop tells the host after each build (DIR/build.json, written
// last). The host reads it strictly (`BuildReport` in host/dev/mod.rs), and a test there
// reads what these make: a field renamed on either side fails it.

/** A build that succeeded: `kind` is "styles" when only a stylesheet changed, else "reload". */
export function builtReport(id, kind, ms) {
  return { id, outcome: "built", kind, ms };
}

/** A build that failed, with its problems as the overlay shows them ({file?, line?, column?, message}). */
export function failedReport(id, problems) {
  return { id, outcome: "failed", problems };
}
