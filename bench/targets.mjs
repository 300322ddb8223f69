// What the benchmark holds itself to. A gate is a property the product promises, steady
// from run to run (sizes, errors, what a cache does, when the first byte of a streamed page
// comes), or a bound issue 36 sets (the ratios to the plain Node peers, measured in turns,
// medians; the crowd's first bytes and memory): a missed gate fails the run. A figure is a
// ratio or a latency that this shared machine moves by tens of percent from one minute to
// the next: it is reported beside what we aim for, and never judged.

/** A gate: `value` must pass `bound`. */
export const gate = (what, value, show, bound) => ({ kind: "gate", what, value, show, ...bound });
/** A figure: `value`, beside what we aim for. */
export const figure = (what, value, show, aim) => ({ kind: "figure", what, value, show, wanted: aim.wanted });

export const atLeast = (limit, show) => ({ ok: (v) => v >= limit, wanted: `≥ ${show(limit)}` });
export const atMost = (limit, show) => ({ ok: (v) => v <= limit, wanted: `≤ ${show(limit)}` });
export const below = (limit, show) => ({ ok: (v) => v < limit, wanted: `< ${show(limit)}` });
export const none = { ok: (v) => v.length === 0, wanted: "none" };

/** The gates that failed. */
export const missed = (targets) => targets.filter((t) => t.kind === "gate" && !t.ok(t.value));

/** The gates' markdown table, each met or missed. */
export function gatesTable(targets) {
  const gates = targets.filter((t) => t.kind === "gate");
  return [
    "Gates (a miss fails the run):",
    "",
    "| Gate | Measured | Wanted | |",
    "|---|---:|---:|---|",
    ...gates.map((t) => `| ${t.what} | ${t.show(t.value)} | ${t.wanted} | ${t.ok(t.value) ? "met" : "**MISSED**"} |`),
  ];
}

/** The two markdown tables: the gates, then the figures. */
export function tables(targets) {
  const figures = targets.filter((t) => t.kind === "figure");
  return [
    ...gatesTable(targets),
    "",
    "Figures (noisy on a shared machine: reported beside what we aim for, not judged):",
    "",
    "| Figure | Measured | We aim for |",
    "|---|---:|---:|",
    ...figures.map((t) => `| ${t.what} | ${t.show(t.value)} | ${t.wanted} |`),
  ];
}
