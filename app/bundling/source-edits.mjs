// What the build's source rewrites share (./route-paths.mjs, ./message-ids.mjs,
// ./date-locales.mjs): a walk over acorn's tree, and a source written again with edits at
// the tree's offsets.

/**
 * Calls `enter` on each node under `node`, parents first. `enter` returns nothing to go on
 * into the node's children, or the nodes to go into instead (`[]`: none of them).
 */
export function eachNode(node, enter) {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const child of node) eachNode(child, enter);
    return;
  }
  const instead = enter(node);
  if (instead !== undefined) {
    eachNode(instead, enter);
    return;
  }
  for (const [key, child] of Object.entries(node)) if (key !== "type" && key !== "start" && key !== "end") eachNode(child, enter);
}

/** `source` with each edit's range (`start`, `end`: offsets of `source`, none overlapping) written as its `text`. */
export function withEdits(source, edits) {
  let written = source;
  // From the end, so the earlier offsets hold.
  for (const { start, end, text } of [...edits].sort((a, b) => b.start - a.start)) written = `${written.slice(0, start)}${text}${written.slice(end)}`;
  return written;
}
