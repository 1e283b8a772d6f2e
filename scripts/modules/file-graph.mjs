// Part of scripts/check-modules.mjs (see its header): a crate's module tree as a graph of files, and its
// circles.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { scanFile } from './rust-source.mjs';

/** Every `.rs` file under `dir`, relative to it, sorted. */
function rustFiles(dir) {
  const found = [];
  const walk = (rel) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else if (name.endsWith('.rs')) found.push(r);
    }
  };
  walk('');
  return found;
}

/**
 * The file graph of the crate(s) whose sources are in `dir`: `{ files, edges }`, edges as
 * `from → to → [{ line, what }]`. Roots: `lib.rs`, `main.rs`, then every file no `mod` reaches
 * (a `[[bin]]` such as `embed_main.rs`).
 */
export function fileGraph(dir) {
  const files = rustFiles(dir);
  const scans = new Map(files.map((f) => [f, scanFile(readFileSync(path.join(dir, f), 'utf8'))]));
  /** Module nodes: { file, key (inline path in the file), parent, children: Map } */
  const nodes = [];
  const reached = new Set();
  const node = (file, key, parent, isRoot = false) => {
    const n = { file, key, parent, children: new Map(), facts: scans.get(file).get(key) };
    nodes.push(n);
    reached.add(file);
    for (const [name, child] of n.facts.children) {
      if (child.inline) {
        n.children.set(name, node(file, key ? `${key}::${name}` : name, n, isRoot));
      } else {
        // `mod x;` in lib.rs, main.rs or mod.rs: x.rs or x/mod.rs beside it; in a.rs: under a/.
        const base = path.posix.dirname(file);
        const own = isRoot || /(^|\/)mod\.rs$/.test(file)
          ? base
          : file.replace(/\.rs$/, '');
        const stem = [own === '.' ? '' : own, ...(key ? key.split('::') : [])]
          .filter(Boolean)
          .join('/');
        const prefix = stem ? `${stem}/` : '';
        const target = [`${prefix}${name}.rs`, `${prefix}${name}/mod.rs`].find((f) => scans.has(f));
        if (target && !reached.has(target)) n.children.set(name, node(target, '', n));
      }
    }
    return n;
  };
  const roots = [];
  const isRoot = (f) => f === 'lib.rs' || f === 'main.rs';
  for (const f of files.filter(isRoot)) roots.push(node(f, '', null, true));
  for (const f of files) if (!reached.has(f)) roots.push(node(f, '', null, true));
  const rootOf = (n) => (n.parent ? rootOf(n.parent) : n);

  // Resolving a path to the file that defines what it names.
  const start = (n, first) => {
    if (first === 'crate' || first === '$crate') return rootOf(n);
    if (first === 'self') return n;
    if (first === 'super') return n.parent;
    return undefined;
  };
  /** What `name` is in module `n`: { module } or { file }, or null when `n` does not say. */
  function lookup(n, name, seen) {
    const mark = `${n.file}#${n.key}#${name}`;
    if (seen.has(mark)) return null;
    seen.add(mark);
    if (n.children.has(name)) return { module: n.children.get(name) };
    for (const u of n.facts.uses) {
      if (u.alias === name) return resolve(n, u.path, seen) ?? null;
    }
    if (n.facts.defs.has(name)) return { file: n.file };
    for (const u of n.facts.uses) {
      if (u.alias === null && !u.anonymous) {
        const from = resolve(n, u.path, seen);
        if (from?.module) {
          const found = lookup(from.module, name, seen);
          if (found) return found;
        }
      }
    }
    return null;
  }
  /** A path written in module `n`: { module } or { file }, or undefined when it is not the
   * crate's (an external crate, a type's associated item, a local name). */
  function resolve(n, segs, seen = new Set()) {
    let i = 0;
    let at = start(n, segs[0]);
    if (at !== undefined) {
      i = 1;
      while (segs[i] === 'super' && at) {
        at = at.parent;
        i++;
      }
      if (!at) return undefined;
    } else {
      const first = lookup(n, segs[0], seen);
      if (!first) return undefined;
      if (first.file) return first;
      at = first.module;
      i = 1;
    }
    for (; i < segs.length; i++) {
      const found = lookup(at, segs[i], seen);
      if (!found) return { file: at.file };
      if (found.file) return found;
      at = found.module;
    }
    return { module: at };
  }

  const edges = new Map();
  const addEdge = (from, to, line, what) => {
    if (from === to) return;
    if (!edges.has(from)) edges.set(from, new Map());
    const out = edges.get(from);
    if (!out.has(to)) out.set(to, []);
    out.get(to).push({ line, what });
  };
  for (const n of nodes) {
    for (const u of n.facts.uses) {
      const target = resolve(n, u.path);
      if (!target) continue;
      const what = `use ${u.path.join('::')}${u.alias === null ? '::*' : ''}`;
      // A module imported by name is not yet a use of its file: its paths are resolved below.
      if (target.file) addEdge(n.file, target.file, u.line, what);
      else if (u.alias === null) addEdge(n.file, target.module.file, u.line, what);
    }
    for (const p of n.facts.paths) {
      const target = resolve(n, p.path);
      if (target?.file) addEdge(n.file, target.file, p.line, p.path.join('::'));
    }
  }
  return { files, edges };
}

/** Strongly connected parts of two files or more (Tarjan), each sorted, in file order. */
export function circles({ files, edges }) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const parts = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), idx.get(w)));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const part = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) parts.push(part.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return parts.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The shortest circle through the first file of `part`, e.g. `a.rs → b.rs → a.rs`. */
function shortestCircle(part, edges) {
  const inPart = new Set(part);
  const from = part[0];
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift();
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!inPart.has(w)) continue;
      if (w === from) {
        const cycle = [from];
        for (let x = v; x !== null; x = prev.get(x)) cycle.unshift(x);
        return cycle;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [from];
}

/** Lines describing each circle (`parts`, from `circles(graph)`) and the imports that make it. */
export function describeCircles(graph, parts = circles(graph)) {
  const lines = [];
  for (const part of parts) {
    lines.push(`circle: ${shortestCircle(part, graph.edges).join(' → ')}`);
    if (part.length > 2) lines.push(`  (one tangle of ${part.length} files: ${part.join(', ')})`);
    for (const from of part) {
      for (const [to, why] of graph.edges.get(from) ?? []) {
        if (!part.includes(to)) continue;
        const shown = why.slice(0, 3).map((w) => `${from}:${w.line} ${w.what}`).join('; ');
        const more = why.length > 3 ? ` (+${why.length - 3} more)` : '';
        lines.push(`  ${from} → ${to}: ${shown}${more}`);
      }
    }
  }
  return lines;
}
