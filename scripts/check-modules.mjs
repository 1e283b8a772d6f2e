#!/usr/bin/env node
// The module checks of scripts/test.sh, without a build (Node.js, no packages):
//
//   1. No import circle between the source files of a crate. Each file's `use` declarations
//      and the paths written in its code (`crate::…`, `super::…`, `self::…`, a child module's
//      name) are resolved through the crate's `mod` tree, following re-exports (`pub use`) and
//      glob imports to the file that defines the item, into a graph of files; a strongly
//      connected part with two files or more is a circle. A parent declaring a child
//      (`mod x;`) is structure, not an import; a parent re-exporting a child's item
//      (`pub use x::Y`) is an import. Comments, doc comments and string literals are left out,
//      test modules are not: a test that imports back is a circle too.
//   2. The core depends on no web crate: no leptos, web-sys, wasm-bindgen, js-sys, plotters,
//      gloo … in any dependency table of its Cargo.toml (ARCHITECTURE.md's first invariant).
//
// Usage:
//   node scripts/check-modules.mjs [--strict DIR]... [--warn DIR]... [--no-web-deps CARGO_TOML]...
//   node scripts/check-modules.mjs --self-test
//   node scripts/check-modules.mjs --graph DIR      (each file and the files it imports)
// `--strict DIR` fails (exit 1) on any circle in DIR (a crate's src/); `--warn DIR` prints its
// circles and passes. With no arguments: the core strictly, web/src as a warning, and the
// core's Cargo.toml. `--self-test` runs the checks on small fixture trees (one with a circle,
// one with a web dependency) and fails unless each is caught.
import {
  mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// ----- Rust source, lexically ---------------------------------------------------------------

/** `src` with comments, strings and char literals blanked out (newlines kept, so line numbers
 * hold). Lifetimes (`'a`) are kept. */
export function stripRust(src) {
  const out = [];
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  let i = 0;
  const n = src.length;
  const identChar = (c) => c !== undefined && /[A-Za-z0-9_]/.test(c);
  while (i < n) {
    const c = src[i];
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      let j = src.indexOf('\n', i);
      if (j < 0) j = n;
      out.push(blank(src.slice(i, j)));
      i = j;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (src[j] === '/' && src[j + 1] === '*') { depth++; j += 2; }
        else if (src[j] === '*' && src[j + 1] === '/') { depth--; j += 2; }
        else j++;
      }
      out.push(blank(src.slice(i, j)));
      i = j;
    } else if ((c === 'r' || (c === 'b' && next === 'r')) && !identChar(src[i - 1])
      && /^b?r#*"/.test(src.slice(i, i + 300))) {
      // A raw string: r"…", r#"…"#, br##"…"##.
      const m = /^b?r(#*)"/.exec(src.slice(i));
      const close = `"${m[1]}`;
      let j = src.indexOf(close, i + m[0].length);
      j = j < 0 ? n : j + close.length;
      out.push(blank(src.slice(i, j)));
      i = j;
    } else if (c === '"' || (c === 'b' && next === '"' && !identChar(src[i - 1]))) {
      let j = c === '"' ? i + 1 : i + 2;
      while (j < n && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      j = Math.min(j + 1, n);
      out.push(blank(src.slice(i, j)));
      i = j;
    } else if (c === '\'') {
      const m = /^'(?:\\(?:[nrt\\0'"]|x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\})|[^\\'\n])'/u.exec(
        src.slice(i, i + 12),
      );
      if (m) {
        out.push(blank(m[0]));
        i += m[0].length;
      } else {
        out.push(c); // a lifetime or a label
        i++;
      }
    } else {
      out.push(c);
      i++;
    }
  }
  return out.join('');
}

/** The line (from 1) of offset `at` in `text`. */
function lineOf(text, at) {
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * A use tree (`a::b::{c, d as e, f::*, self}`) read into leaves: `{ path, alias }` (alias
 * `null` for a glob `*`). `tokens` are identifiers, `::`, `{`, `}`, `,`, `*`.
 */
function useLeaves(tokens) {
  let pos = 0;
  const leaves = [];
  const peek = () => tokens[pos];
  const take = () => tokens[pos++];
  function tree(prefix) {
    if (peek() === '{') {
      take();
      while (peek() !== undefined && peek() !== '}') {
        tree(prefix);
        if (peek() === ',') take();
      }
      take();
      return;
    }
    if (peek() === '*') {
      take();
      leaves.push({ path: prefix, alias: null });
      return;
    }
    const segs = [...prefix];
    for (;;) {
      const t = take();
      if (t === undefined || !/^\$?[A-Za-z_]\w*$/.test(t)) return;
      segs.push(t);
      if (peek() === '::') {
        take();
        if (peek() === '{' || peek() === '*') {
          tree(segs);
          return;
        }
        continue;
      }
      break;
    }
    let alias = segs[segs.length - 1];
    if (peek() === 'as') {
      take();
      alias = take();
    }
    if (alias === 'self') {
      segs.pop();
      alias = segs[segs.length - 1];
    }
    if (alias !== '_') leaves.push({ path: segs, alias });
    else leaves.push({ path: segs, alias: null, anonymous: true });
  }
  if (peek() === '::') take(); // `use ::extern_crate::…`
  tree([]);
  return leaves;
}

/**
 * One file's module-level facts: for each module it holds (its own, `''`, and inline ones by
 * their path inside the file, `'tests'`): child modules declared (`mod x;` or `mod x { … }`),
 * use declarations, items defined, and paths written in code, each with its line.
 */
export function scanFile(text) {
  const src = stripRust(text);
  const modules = new Map();
  const module = (key) => {
    if (!modules.has(key)) {
      modules.set(key, { children: new Map(), uses: [], defs: new Set(), paths: [] });
    }
    return modules.get(key);
  };
  module('');
  const stack = []; // open braces: the inline module a brace opens, or null
  const current = () => stack.filter((s) => s !== null).join('::');
  const re = new RegExp(
    [
      String.raw`(\{)`,
      String.raw`(\})`,
      String.raw`\bmod\s+([A-Za-z_]\w*)\s*([;{])`,
      String.raw`\b(use)\b`,
      String.raw`\b(?:struct|enum|fn|trait|type|union)\s+([A-Za-z_]\w*)`,
      String.raw`\b(?:const|static)\s+(?:mut\s+)?([A-Za-z_]\w*)\s*:`,
      String.raw`\bmacro_rules!\s*([A-Za-z_]\w*)`,
      String.raw`((?:\$crate|[A-Za-z_]\w*)(?:\s*::\s*[A-Za-z_]\w*)+)`,
    ].join('|'),
    'g',
  );
  let m;
  while ((m = re.exec(src)) !== null) {
    const here = module(current());
    if (m[1]) stack.push(null);
    else if (m[2]) stack.pop();
    else if (m[3]) {
      const prefix = current();
      here.children.set(m[3], { inline: m[4] === '{', line: lineOf(src, m.index) });
      if (m[4] === '{') {
        module(prefix ? `${prefix}::${m[3]}` : m[3]);
        stack.push(m[3]);
      }
    } else if (m[5]) {
      const end = src.indexOf(';', re.lastIndex);
      const body = src.slice(re.lastIndex, end < 0 ? src.length : end);
      const tokens = body.match(/::|\$?[A-Za-z_]\w*|[{},*]/g) ?? [];
      // `use<'a>` (precise capturing) and the like: not a declaration.
      if (tokens.length > 0 && /^\s*(?:::|[A-Za-z_${])/.test(body)) {
        const line = lineOf(src, m.index);
        for (const leaf of useLeaves(tokens)) here.uses.push({ ...leaf, line });
        re.lastIndex = end < 0 ? src.length : end + 1;
      }
    } else if (m[6] || m[7] || m[8]) {
      // Items at the module's own level only: a method in an `impl` is not a module's item.
      const atModuleLevel = stack.length === 0 || stack[stack.length - 1] !== null;
      if (atModuleLevel) here.defs.add(m[6] || m[7] || m[8]);
    } else if (m[9]) {
      const segs = m[9].split(/\s*::\s*/);
      here.paths.push({ path: segs, line: lineOf(src, m.index) });
    }
  }
  return modules;
}

// ----- A crate's module tree and its file graph ---------------------------------------------

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

/** Lines describing each circle of `dir` and the imports that make it. */
export function describeCircles(dir, graph = fileGraph(dir)) {
  const lines = [];
  for (const part of circles(graph)) {
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

// ----- The core's dependencies ---------------------------------------------------------------

/** Crates that only make sense in a browser (or draw charts): the core must not name them. */
const WEB_CRATES = new RegExp(
  `^(${[
    'leptos([-_].*)?', 'web-sys', 'wasm-bindgen([-_].*)?', 'js-sys', 'plotters([-_].*)?',
    'gloo([-_].*)?', 'serde-wasm-bindgen', 'console_error_panic_hook', 'console_log',
    'tracing-wasm', 'wasm-logger',
  ].join('|')})$`,
);

/** The web crates a Cargo.toml depends on (any dependency table, renames followed), as
 * `table: name` lines. */
export function webDependencies(manifest) {
  const found = [];
  let table = null;
  let depTable = false;
  for (const raw of manifest.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      table = header[1];
      // [dependencies], [dev-dependencies], [target.'cfg(…)'.build-dependencies], …
      const dotted = /^(?:.*\.)?((?:dev-|build-)?dependencies)(?:\.(.+))?$/.exec(table);
      depTable = Boolean(dotted);
      if (dotted?.[2]) {
        // [dependencies.leptos]: the table is the dependency.
        const name = dotted[2].replace(/^["']|["']$/g, '');
        if (WEB_CRATES.test(name)) found.push(`[${table}]`);
        depTable = 'one';
      }
      continue;
    }
    if (!depTable) continue;
    const kv = /^("?)([A-Za-z0-9_-]+)\1\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const [, , key, value] = kv;
    if (depTable === 'one') {
      if (key === 'package') {
        const pkg = /["']([^"']+)["']/.exec(value)?.[1];
        if (pkg && WEB_CRATES.test(pkg)) found.push(`[${table}] package = ${pkg}`);
      }
      continue;
    }
    const pkg = /\bpackage\s*=\s*["']([^"']+)["']/.exec(value)?.[1];
    if (WEB_CRATES.test(key) || (pkg && WEB_CRATES.test(pkg))) {
      found.push(`[${table}] ${key}${pkg ? ` (package ${pkg})` : ''}`);
    }
  }
  return found;
}

// ----- Running -------------------------------------------------------------------------------

/** Runs the checks; returns the lines to print and whether they passed. */
export function run({ strict = [], warn = [], manifests = [] }) {
  const out = [];
  let ok = true;
  for (const [dir, isStrict] of [...strict.map((d) => [d, true]), ...warn.map((d) => [d, false])]) {
    const graph = fileGraph(dir);
    const found = describeCircles(dir, graph);
    const count = circles(graph).length;
    if (count === 0) {
      const note = isStrict ? '' : ' (checked as a warning: it can be made strict)';
      out.push(`${dir}: ${graph.files.length} files, no import circle${note}`);
    } else {
      const note = isStrict ? '' : ' (a warning, not a failure)';
      out.push(`${dir}: ${count} import circle${count > 1 ? 's' : ''}${note}`);
      out.push(...found.map((l) => `  ${l}`));
      if (isStrict) ok = false;
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

/** The fixtures: a crate with a circle, one without (re-exports, a parent and its child,
 * comments and strings that name other modules), and two manifests. */
function selfTest() {
  const root = mkdtempSync(path.join(tmpdir(), 'check-modules-'));
  const write = (rel, text) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  const failures = [];
  const expect = (what, cond) => {
    if (!cond) failures.push(what);
  };
  try {
    // A circle through a re-export: a.rs uses b's item through lib.rs; b.rs uses a's.
    write('circle/src/a.rs', 'use crate::Bee;\npub struct Ay(Bee);\n');
    write('circle/src/b.rs', [
      'pub struct Bee;',
      'fn f() -> usize { core::mem::size_of::<super::a::Ay>() }',
    ].join('\n'));
    // A longer one, with inline paths only: x → y/mod.rs → y/z.rs → x.
    write('circle/src/x.rs', 'pub fn ex() { crate::y::why(); }\n');
    write('circle/src/y/mod.rs', 'mod z;\npub fn why() { z::zed(); }\n');
    write('circle/src/y/z.rs', 'pub fn zed() { crate::x::ex() }\n');
    write('circle/src/lib.rs', 'mod a;\nmod b;\nmod x;\nmod y;\npub use b::Bee;\n');
    const bad = run({ strict: [path.join(root, 'circle/src')] });
    const badGraph = fileGraph(path.join(root, 'circle/src'));
    const found = circles(badGraph).map((p) => p.join(' '));
    expect('the circle a.rs ↔ b.rs is found', found.includes('a.rs b.rs'));
    expect('the circle x.rs → y/mod.rs → y/z.rs is found',
      found.includes('x.rs y/mod.rs y/z.rs'));
    expect('a strict run with a circle fails', !bad.ok);
    expect('a warning run with a circle passes', run({ warn: [path.join(root, 'circle/src')] }).ok);

    // No circle: a parent re-exports its child, the child uses a sibling, a test module uses
    // super::*, comments, doc comments and strings name modules that would close a circle.
    write('clean/src/lib.rs', [
      '//! Uses [`crate::low::Low`] — a doc link, not an import.',
      'mod high;',
      'mod low;',
      'pub mod grid;',
      'pub use high::High;',
      'pub use grid::Dim;',
    ].join('\n'));
    write('clean/src/low.rs', [
      '/// Called by [`crate::high`]: not an import.',
      'pub struct Low;',
      'const NAME: &str = "crate::high::High";',
      "fn c() -> char { '\"' }",
      '/* crate::high::High /* nested */ */',
      '#[cfg(test)]',
      'mod tests {',
      '    use super::*;',
      '    #[test]',
      '    fn t() { let _ = Low; }',
      '}',
    ].join('\n'));
    write('clean/src/high.rs', [
      'use crate::low::Low;',
      "pub struct High<'a>(&'a Low);",
      'fn d() -> crate::Dim { crate::Dim }',
    ].join('\n'));
    write('clean/src/grid/mod.rs', 'mod names;\npub use names::{Dim, Link};\n');
    write('clean/src/grid/names.rs', 'pub struct Dim;\npub struct Link;\n');
    const good = run({ strict: [path.join(root, 'clean/src')] });
    const goodGraph = fileGraph(path.join(root, 'clean/src'));
    const stray = circles(goodGraph).map((p) => p.join(' ')).join('; ');
    expect(`no circle in the clean tree (found: ${stray})`, good.ok);
    const highTo = [...(goodGraph.edges.get('high.rs')?.keys() ?? [])].sort().join(' ');
    expect(`high.rs imports low.rs and, through two re-exports, grid/names.rs (got ${highTo})`,
      highTo === 'grid/names.rs low.rs');
    expect('low.rs imports nothing', !goodGraph.edges.has('low.rs'));

    // Manifests.
    write('web/Cargo.toml', [
      '[package]', 'name = "core"', '', '[dependencies]', 'serde = { workspace = true }',
      'leptos = { workspace = true } # a web crate', '',
      "[target.'cfg(target_arch = \"wasm32\")'.dependencies.web-sys]", 'version = "0.3"', '',
      '[dev-dependencies]', 'charts = { package = "plotters", version = "0.3" }',
    ].join('\n'));
    write('plain/Cargo.toml', [
      '[package]', 'name = "core"', 'description = "no leptos here"', '', '[dependencies]',
      'serde = { workspace = true }', '', '[dev-dependencies]', 'proptest = "1"',
      '', '[features]', 'leptos = []',
    ].join('\n'));
    const web = webDependencies(readFileSync(path.join(root, 'web/Cargo.toml'), 'utf8'));
    expect(`leptos, web-sys and a renamed plotters are found (got ${web.join('; ')})`,
      web.length === 3);
    const manifest = (name) => ({ manifests: [path.join(root, name, 'Cargo.toml')] });
    expect('a manifest with a web crate fails', !run(manifest('web')).ok);
    expect('a manifest without one passes', run(manifest('plain')).ok);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  if (failures.length) {
    console.log('check-modules self-test: FAILED');
    for (const f of failures) console.log(`  ${f}`);
    return false;
  }
  console.log('check-modules self-test: ok (circles and web dependencies are caught)');
  return true;
}

function main(argv) {
  if (argv.includes('--self-test')) return selfTest();
  if (argv[0] === '--graph' && argv[1]) {
    const { files, edges } = fileGraph(argv[1]);
    for (const f of files) {
      console.log(`${f} → ${[...(edges.get(f)?.keys() ?? [])].sort().join(', ')}`);
    }
    return true;
  }
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const opts = { strict: [], warn: [], manifests: [] };
  if (argv.length === 0) {
    opts.strict.push(path.join(repo, 'crates/parallel-core/src'));
    opts.warn.push(path.join(repo, 'web/src'));
    opts.manifests.push(path.join(repo, 'crates/parallel-core/Cargo.toml'));
  }
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    const lists = { '--strict': opts.strict, '--warn': opts.warn, '--no-web-deps': opts.manifests };
    const list = lists[flag];
    if (!list || value === undefined) {
      console.error(`check-modules: unknown argument ${flag}; see this script's header`);
      return false;
    }
    list.push(value);
    i++;
  }
  const { ok, out } = run(opts);
  for (const line of out) console.log(line);
  return ok;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2)) ? 0 : 1;
}
