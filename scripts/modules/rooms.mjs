// Part of scripts/check-modules.mjs (see its header): the page's rooms. In web/src each page
// under `pages/<page>/` imports the kit, `state` and the core, never another page; the kit and
// `state` import no page. `pages/mod.rs` (the shared start-up path) belongs to no room.

/** The room a file (relative to src/) is in: `pages/<page>`, `kit`, `state`, or null. */
export function roomOf(file) {
  const page = file.match(/^pages\/([^/]+)\//);
  if (page) return `pages/${page[1]}`;
  const top = file.match(/^(kit|state)\//);
  return top ? top[1] : null;
}

/** Each import that crosses a wall: [from, to], for the graph of fileGraph(src). */
export function crossings(graph) {
  const found = [];
  for (const [from, targets] of graph.edges) {
    const here = roomOf(from);
    if (here === null) continue;
    for (const to of targets.keys()) {
      const there = roomOf(to);
      if (there === null || there === here || !there.startsWith('pages/')) continue;
      found.push([from, to]);
    }
  }
  return found.sort((a, b) => a.join().localeCompare(b.join()));
}
