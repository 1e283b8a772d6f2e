// Part of scripts/check-modules.mjs (see its header): runs the checks and words their result.
import { readFileSync } from 'node:fs';
import { circles, describeCircles, fileGraph } from './file-graph.mjs';
import { webDependencies } from './manifest.mjs';
import { crossings } from './rooms.mjs';

/** Runs the checks; returns the lines to print and whether they passed. */
export function run({ strict = [], warn = [], manifests = [], rooms = [] }) {
  const out = [];
  let ok = true;
  for (const [dir, isStrict] of [...strict.map((d) => [d, true]), ...warn.map((d) => [d, false])]) {
    const graph = fileGraph(dir);
    const parts = circles(graph);
    const count = parts.length;
    if (count === 0) {
      const note = isStrict ? '' : ' (checked as a warning: it can be made strict)';
      out.push(`${dir}: ${graph.files.length} files, no import circle${note}`);
    } else {
      const note = isStrict ? '' : ' (a warning, not a failure)';
      out.push(`${dir}: ${count} import circle${count > 1 ? 's' : ''}${note}`);
      out.push(...describeCircles(graph, parts).map((l) => `  ${l}`));
      if (isStrict) ok = false;
    }
  }
  for (const dir of rooms) {
    const walls = crossings(fileGraph(dir));
    if (walls.length === 0) out.push(`${dir}: no page imports another page, the kit or state imports no page`);
    else {
      out.push(`${dir}: ${walls.length} import${walls.length > 1 ? 's' : ''} across a page's walls:`);
      out.push(...walls.map(([from, to]) => `  ${from} → ${to}`));
      ok = false;
    }
  }
  for (const file of manifests) {
    const deps = webDependencies(readFileSync(file, 'utf8'));
    if (deps.length === 0) out.push(`${file}: no web crate`);
    else {
      out.push(`${file}: depends on a web crate (the core knows nothing of the browser):`);
      out.push(...deps.map((d) => `  ${d}`));
      ok = false;
    }
  }
  return { ok, out };
}
