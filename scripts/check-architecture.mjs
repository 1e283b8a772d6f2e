#!/usr/bin/env node
// Holds ARCHITECTURE.md to the tree it describes (run by scripts/test.sh; no build, < 1 s):
//   1. The API boundary names exactly the core's public modules (`pub mod` in its lib.rs).
//   2. Each code map (core, CLI, page) names every module its crate root declares, and each
//      module it names exists (`x` as src/x.rs or src/x/, `x/` as src/x/).
//   3. Each file path in backticks exists: `dir/file.ext`, `{a,b}.rs` and `dir/{a,b}` expanded,
//      read from the root, the core's or the page's src/, scripts/ or assets/ (`BASES`) and,
//      inside a code map, first from that crate (src/ first) and the modules its row names.
//   4. Each Rust path in backticks (`Plan::cards_memory`, `memory::ledger`), in ARCHITECTURE.md
//      and docs/formulas.md, names an item defined in the core, the CLI or the page (`SOURCES`):
//      its last segment is a `fn`, type, constant, module, field or variant there, and a
//      leading type (`Plan::…`) is defined too. A renamed function fails here.
// A failure names the line of the document and what is wrong with it.
//
// Usage: node scripts/check-architecture.mjs [--self-test]

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The code maps: a `### ` heading of ARCHITECTURE.md, its folder and, for a crate, its root
 * file (whose modules its table must name). */
const MAPS = [
  { heading: '### `crates/parallel-core`', crate: 'crates/parallel-core', root: 'src/lib.rs' },
  { heading: '### `crates/parallel-cli`', crate: 'crates/parallel-cli', root: 'src/lib.rs' },
  { heading: '### `web/`', crate: 'web', root: 'src/lib.rs' },
  { heading: '### `tests/`', crate: 'tests' },
  { heading: '### `scripts/`', crate: 'scripts' },
];

/** Where a path outside the code maps may be read from. */
const BASES = ['.', 'crates/parallel-core/src', 'crates/parallel-core', 'web/src', 'scripts', 'assets'];

const FILE = /\.(rs|mjs|js|md|sh|toml|html|css|json)$/;

/** File names the document uses for a kind of file, not for one of the tree's. */
const GENERIC = new Set(['mod.rs', 'config.json']);

/** `a{b,c}d` → [abd, acd] (one level of braces, as the document writes them). */
export function expand(token) {
  const m = token.match(/^(.*?)\{([^{}]*)\}(.*)$/);
  if (!m) return [token];
  return m[2].split(',').flatMap((part) => expand(`${m[1]}${part}${m[3]}`));
}

/** The modules a crate root declares: `[pub] mod name;`, with whether each is public. */
export function declaredModules(source) {
  const mods = new Map();
  for (const m of source.matchAll(/^\s*(pub\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;/gm)) {
    mods.set(m[2], Boolean(m[1]));
  }
  return mods;
}

/** Every problem of the document `doc` against the tree at `root`, as `line N: what`. */
export function check(root, doc) {
  const problems = [];
  const lines = doc.split('\n');
  const at = (i, what) => problems.push(`ARCHITECTURE.md line ${i + 1}: ${what}`);

  // Which code map (if any) each line belongs to.
  let map = null;
  const mapOf = lines.map((line) => {
    if (line.startsWith('#')) map = MAPS.find((m) => line.trim() === m.heading) ?? null;
    return map;
  });

  // 1. The API boundary.
  const boundary = lines.findIndex((l) => l.trim() === '## API boundary');
  const lib = path.join(root, 'crates/parallel-core/src/lib.rs');
  if (boundary < 0) at(0, 'no "## API boundary" section');
  else if (existsSync(lib)) {
    let text = '';
    for (let i = boundary + 1; i < lines.length && !lines[i].startsWith('#'); i++) {
      text += `${lines[i]}\n`;
      if (lines[i].includes('declares')) break;
    }
    const listed = new Set([...text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    const publicMods = [...declaredModules(readFileSync(lib, 'utf8'))]
      .filter(([, pub]) => pub)
      .map(([name]) => name);
    for (const name of publicMods) {
      if (!listed.has(name)) at(boundary, `the API boundary leaves out the public module \`${name}\``);
    }
    for (const name of listed) {
      if (!publicMods.includes(name)) at(boundary, `the API boundary names \`${name}\`, not a public module of lib.rs`);
    }
  }

  // 2. The code maps' tables: first column, module names.
  for (const m of MAPS) {
    const start = lines.findIndex((l) => l.trim() === m.heading);
    if (!m.root) continue;
    if (start < 0) {
      at(0, `no code map "${m.heading}"`);
      continue;
    }
    const src = path.join(root, m.crate, 'src');
    const named = new Set();
    let moduleTable = false;
    for (let i = start + 1; i < lines.length && mapOf[i] === m; i++) {
      const row = lines[i].match(/^\|([^|]*)\|/);
      if (!row) {
        moduleTable = false;
        continue;
      }
      if (/^\s*-+\s*$/.test(row[1])) continue;
      if (!/`/.test(row[1])) {
        moduleTable = row[1].trim() === 'module';
        continue;
      }
      if (!moduleTable) continue;
      for (const [, token] of row[1].matchAll(/`([^`]+)`/g)) {
        const name = token.replace(/\/$/, '');
        named.add(name);
        const isDir = token.endsWith('/');
        const found = isDir
          ? existsSync(path.join(src, name))
          : existsSync(path.join(src, `${name}.rs`)) || existsSync(path.join(src, name, 'mod.rs'));
        if (!found) at(i, `\`${token}\`: no such module in ${m.crate}/src`);
      }
    }
    const crateRoot = path.join(root, m.crate, m.root);
    if (!existsSync(crateRoot)) continue;
    for (const name of declaredModules(readFileSync(crateRoot, 'utf8')).keys()) {
      if (!named.has(name)) at(start, `the code map of ${m.crate} leaves out its module \`${name}\``);
    }
  }

  // 3. File paths in backticks.
  lines.forEach((line, i) => {
    // A table row's paths may also be read inside the modules its first column names.
    const rowModules = mapOf[i]
      ? [...(line.match(/^\|([^|]*)\|/)?.[1] ?? '').matchAll(/`([^`]+)`/g)].map((r) =>
          path.join(mapOf[i].crate, 'src', r[1].replace(/\/$/, '')))
      : [];
    for (const [, token] of line.matchAll(/`([^`\s]+)`/g)) {
      if (!FILE.test(token.replace(/[{}]/g, '')) || GENERIC.has(token)) continue;
      const bases = mapOf[i]
        ? [path.join(mapOf[i].crate, 'src'), mapOf[i].crate, ...rowModules, ...BASES]
        : BASES;
      for (const file of expand(token)) {
        if (!bases.some((b) => existsSync(path.join(root, b, file)))) {
          at(i, `\`${file}\` does not exist${mapOf[i] ? ` (in ${mapOf[i].crate} or the root)` : ''}`);
        }
      }
    }
  });
  return problems;
}

/** The source folders whose items the documents may name. */
const SOURCES = ['crates/parallel-core/src', 'crates/parallel-cli/src', 'web/src'];

/** Types of other crates the documents name (Leptos's), not resolved in ours. */
const EXTERNAL = new Set(['Signal', 'Memo', 'RwSignal', 'Callback', 'Effect']);

/** Every `.rs` file's text under `dir`. */
function rustSources(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) rustSources(file, out);
    else if (file.endsWith('.rs')) out.push(readFileSync(file, 'utf8'));
  }
  return out;
}

/** Whether `name` is defined in one of `sources`: an item, a field, or an enum variant. */
function defined(sources, name) {
  const item = new RegExp(
    `\\b(fn|struct|enum|trait|const|type|static|mod)\\s+${name}\\b|\\bpub(\\([a-z]+\\))?\\s+${name}\\s*:|^\\s*${name}\\s*[,({]`,
    'm',
  );
  return sources.some((s) => item.test(s));
}

/** Each Rust path in backticks of `doc` (named `name`) that names nothing in the tree at `root`. */
export function unresolved(root, doc, name) {
  const sources = SOURCES.flatMap((dir) => rustSources(path.join(root, dir)));
  const problems = [];
  doc.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/`([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+)(?:\([^`]*\))?`/g)) {
      const parts = m[1].split('::');
      if (EXTERNAL.has(parts[0])) continue;
      const missing = parts.filter((part, k) => (k === parts.length - 1 || /^[A-Z]/.test(part)) && !defined(sources, part));
      if (missing.length > 0) problems.push(`${name} line ${i + 1}: \`${m[1]}\` names no definition (${missing.join(', ')})`);
    }
  });
  return problems;
}

/** Small trees with one mistake each; each must be caught, and the clean one must pass. */
function selfTest() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'check-architecture-'));
  const write = (file, text) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  write('crates/parallel-core/src/lib.rs', 'pub mod alpha;\nmod beta;\n');
  write('crates/parallel-core/src/alpha.rs', '');
  write('crates/parallel-core/src/beta/mod.rs', '');
  write('crates/parallel-cli/src/lib.rs', 'mod gamma;\n');
  write('crates/parallel-cli/src/gamma.rs', '');
  write('web/src/lib.rs', 'pub mod delta;\n');
  write('web/src/delta/mod.rs', '');
  write('scripts/x.sh', '');
  write('crates/parallel-core/src/alpha.rs', 'pub struct Alpha { pub width: u32 }\nimpl Alpha {\n    pub fn reach(&self) -> u32 { 1 }\n}\n');
  const clean = [
    '# A', 'See `scripts/x.sh`.',
    '### `crates/parallel-core`', '| module | holds |', '|---|---|', '| `alpha` | `alpha.rs` |', '| `beta/` | b |',
    '### `crates/parallel-cli`', '| module | holds |', '|---|---|', '| `gamma` | `src/gamma.rs` |',
    '### `web/`', '| module | holds |', '|---|---|', '| `delta/` | `delta/mod.rs` |',
    '## API boundary', 'Its public modules: `alpha` (`lib.rs` declares every other module private).',
  ].join('\n');
  const cases = [
    ['clean', clean, 0],
    ['a public module left out', clean.replace('`alpha` (`lib.rs`', '(`lib.rs`'), 1],
    ['a private module listed', clean.replace('`alpha` (', '`alpha`, `beta` ('), 1],
    ['a module missing from a map', clean.replace('| `beta/` | b |', ''), 1],
    ['a mapped module that does not exist', clean.replace('`gamma` |', '`gamma`, `epsilon` |'), 1],
    ['a path that does not exist', clean.replace('`scripts/x.sh`', '`scripts/{x,y}.sh`'), 1],
  ];
  let ok = true;
  for (const [name, doc, expected] of cases) {
    const found = check(dir, doc);
    if (found.length !== expected) {
      ok = false;
      console.error(`check-architecture self-test "${name}": expected ${expected} problem(s), got ${found.length}: ${found.join('; ')}`);
    }
  }
  const paths = [
    ['resolved', 'By `Alpha::reach` over `Alpha::width` (`alpha::Alpha`).', 0],
    ['a renamed function', 'By `Alpha::stretch`.', 1],
    ['a renamed type', 'By `Beta::reach`.', 1],
  ];
  for (const [name, doc, expected] of paths) {
    const found = unresolved(dir, doc, 'doc');
    if (found.length !== expected) {
      ok = false;
      console.error(`check-architecture self-test "${name}": expected ${expected} problem(s), got ${found.length}: ${found.join('; ')}`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  if (ok) console.log(`check-architecture: self-test passed (${cases.length + paths.length} cases)`);
  return ok;
}

function main(argv) {
  if (argv.includes('--self-test')) return selfTest();
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const problems = [
    ...check(root, readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8')),
    ...unresolved(root, readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8'), 'ARCHITECTURE.md'),
    ...unresolved(root, readFileSync(path.join(root, 'docs/formulas.md'), 'utf8'), 'docs/formulas.md'),
  ];
  for (const p of problems) console.error(p);
  if (problems.length === 0) console.log('check-architecture: ARCHITECTURE.md matches the tree; its and docs/formulas.md\'s Rust paths resolve');
  return problems.length === 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2)) ? 0 : 1;
}
