#!/usr/bin/env node
// Holds ARCHITECTURE.md to the tree it describes (run by scripts/test.sh; no build, < 1 s):
//   1. The API boundary names exactly the core's public modules (`pub mod` in its lib.rs).
//   2. Each code map (core, CLI, page) names every module of its crate, nested ones included
//      (each `mod x;` reached from the crate root, less test modules), and each module it
//      names exists (`x` as src/x.rs or src/x/, `x/` as src/x/). A map's module lines are list
//      items (`- \`a\`, \`b/\`: …`, the modules before the first colon) or the rows of a
//      `| module | … |` table; a nested module is named by its path (`sections/cluster`,
//      `link/{state,change}`) or by its name on its parent's line (`- \`link/\`: \`state\`, …`).
//   3. Each file path in backticks exists: `dir/file.ext`, `{a,b}.rs` and `dir/{a,b}` expanded,
//      read from the root, the core's or the page's src/, scripts/ or assets/ (`BASES`), from
//      a folder its list item names (`crates/parallel-cli/tests/`: `hostile.rs`) and, inside a
//      code map, first from that crate (src/ first) and the modules its line names.
//   4. Each Rust path in backticks (`Plan::cards_memory`, `memory::ledger`), in ARCHITECTURE.md
//      and docs/formulas.md, names an item defined in the core, the CLI or the page (`SOURCES`):
//      its last segment is a `fn`, type, constant, module, field or variant there, and a
//      leading type (`Plan::…`) is defined too. A renamed function fails here.
//   5. Every citation of the contract resolves to a section of docs/SPEC.md (`SPEC`): in each
//      text file git tracks or would add (crates/, web/, tests/, scripts/, docs/, README.md,
//      ARCHITECTURE.md, the pages …; not target/, dist/, node_modules/, .tools/, nor this
//      script, whose self-test cites sections that do not exist on purpose), each
//      `SPEC §N` (also `SPEC §N.M`, `SPEC.md §N`, `SPEC section N`, a citation wrapped onto the
//      next comment line, and each `§N` that continues one: `SPEC §4–§6`, `SPEC §12 and §17`)
//      must name a heading `## §N.` of docs/SPEC.md. A bare `§N` is a citation too in
//      docs/SPEC.md itself (its cross-references) and in any other Markdown file under docs/
//      that does not number its own sections; a docs file with numbered `## N.` headings
//      (docs/formulas.md) uses bare `§N` for those and for papers' sections, so there only
//      `SPEC §N` is checked. `§N.M` needs a `### §N.M` heading only when docs/SPEC.md has
//      subsections `### §N.…` under §N; otherwise §N's section is enough (it has none today).
//      docs/SPEC.md itself must not point outside the repository (`../`, `/work/`, `seeds/`),
//      each repository path it gives in backticks (`crates/…`, `web/…`, `tests/…`,
//      `scripts/…`, `docs/…`, `assets/…`) must exist, and each section heading appears once.
//   6. The document stays a map one reads: under `MAX_WORDS` (2,500) words as `wc -w` counts
//      them, and no table cell or list item over `MAX_CELL_WORDS` (40).
//   7. The "where is X" table (`WHERE`): each row is a figure or control with its test ids,
//      then the core's `file` and the names that compute it, then the page's `file` and the
//      names that draw it (`memory.rs` `Plan::memory` | `components/figures.rs`
//      `MemoryFigure`). Each file exists (read from its column's src/, else the root), each
//      name is defined in the file named before it, the page's column names a file, and each
//      test id is written, outside comments, in one of the row's files (`"mem-total"`; for
//      `traffic-<dim>`, `"traffic-`).
// A failure names the line of the document (for 5, file:line and the citation) and what is
// wrong with it.
//
// Usage: node scripts/check-architecture.mjs [--self-test]

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchTree } from './scratch-tree.mjs';

/** The code maps: a `### ` heading of ARCHITECTURE.md, its folder and, for a crate, its root
 * file (whose modules, nested ones included, its map must name). */
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

/** Every module of a crate, as paths from its src/ (`charts/stages/series`): each `mod x;`
 * reached from `rootFile`, less test modules (`mod tests;`, or under `#[cfg(test)]`). */
export function moduleTree(rootFile) {
  const out = [];
  const walk = (file, prefix) => {
    const text = readFileSync(file, 'utf8');
    const base = path.basename(file);
    const dir = base === 'mod.rs' || base === 'lib.rs' ? path.dirname(file) : file.replace(/\.rs$/, '');
    for (const m of text.matchAll(/^(\s*#\[cfg\(test\)\]\s*\n)?\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;/gm)) {
      if (m[1] || m[2] === 'tests') continue;
      const name = prefix ? `${prefix}/${m[2]}` : m[2];
      out.push(name);
      const child = [path.join(dir, `${m[2]}.rs`), path.join(dir, m[2], 'mod.rs')].find((f) => existsSync(f));
      if (child) walk(child, name);
    }
  };
  if (existsSync(rootFile)) walk(rootFile, '');
  return out;
}

/** A token as the module path it names: braces expanded, `src/`, `/mod.rs`, `.rs` and a
 * trailing `/` taken off (`charts/stages/` and `charts/stages/mod.rs` are `charts/stages`). */
const asModules = (token) =>
  expand(token).map((t) => t.replace(/^src\//, '').replace(/(\/mod)?\.rs$/, '').replace(/\/$/, ''));

/** The backticked tokens of a text. */
const ticked = (text) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** A table row's cells (its outer pipes dropped; a `|` inside backticks is no separator). */
export function cells(line) {
  const out = [''];
  let code = false;
  for (const ch of line.trim().replace(/^\|/, '').replace(/\|$/, '')) {
    if (ch === '`') code = !code;
    if (ch === '|' && !code) out.push('');
    else out[out.length - 1] += ch;
  }
  return out.map((c) => c.trim());
}

/** For each line of a list item (`- …` and the indented lines that continue it), the item's
 * whole text; `null` for other lines and inside code blocks. */
export function listItems(lines) {
  const out = lines.map(() => null);
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('```')) fence = !fence;
    if (fence || !/^\s*[-*] /.test(lines[i])) continue;
    let j = i + 1;
    while (j < lines.length && /^\s+\S/.test(lines[j]) && !/^\s*[-*] /.test(lines[j])) j++;
    const text = lines.slice(i, j).join(' ');
    for (let k = i; k < j; k++) out[k] = text;
    i = j - 1;
  }
  return out;
}

/** Words as `wc -w` counts them. */
const words = (text) => text.split(/\s+/).filter(Boolean).length;

/** The document stays a map one reads: fewer than `MAX_WORDS` words, and no table cell or
 * list item over `MAX_CELL_WORDS`. */
export const MAX_WORDS = 2500;
export const MAX_CELL_WORDS = 40;

/** The "where is X" table: its heading, and where each column's paths are read from (the
 * first column holds test ids, the others `path` then the names defined in it). */
export const WHERE = { heading: '## Where is X', bases: [null, 'crates/parallel-core/src', 'web/src'] };

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

  // 2. The code maps. A module line is a list item `- \`a\`, \`b/\`: …` (its modules: the
  //    tokens before the first colon) or a row of a `| module | … |` table (its first column).
  //    Each module it names exists. Each module the crate root declares leads a module line;
  //    each nested one is named by its path (`sections/cluster`, `link/{state,change}`)
  //    anywhere in the map, or by its name on its parent's module line (`- \`link/\`: \`state\``).
  const items = listItems(lines);
  const leads = lines.map(() => []);
  let moduleTable = false;
  lines.forEach((line, i) => {
    if (!mapOf[i] || mapOf[i] !== mapOf[i - 1]) moduleTable = false;
    if (!mapOf[i]) return;
    const row = line.match(/^\|([^|]*)\|/);
    if (!row) moduleTable = false;
    else if (/^\s*-+\s*$/.test(row[1])) return;
    else if (!/`/.test(row[1])) moduleTable = row[1].trim() === 'module';
    else if (moduleTable) leads[i] = ticked(row[1]);
    const item = line.match(/^\s*- ((?:[^`:]|`[^`]*`)*):/);
    if (item) leads[i] = ticked(item[1]);
  });
  for (const m of MAPS) {
    const start = lines.findIndex((l) => l.trim() === m.heading);
    if (!m.root) continue;
    if (start < 0) {
      at(0, `no code map "${m.heading}"`);
      continue;
    }
    const src = path.join(root, m.crate, 'src');
    const named = new Set();
    const leading = new Set();
    for (let i = start + 1; i < lines.length && mapOf[i] === m; i++) {
      for (const token of ticked(lines[i])) asModules(token).forEach((name) => named.add(name));
      const parents = leads[i].flatMap((token) => expand(token).map((t) => [t, asModules(t)[0]]));
      for (const [token, name] of parents) {
        leading.add(name);
        const found = token.endsWith('/')
          ? existsSync(path.join(src, name))
          : existsSync(path.join(src, `${name}.rs`)) || existsSync(path.join(src, name, 'mod.rs'));
        if (!found) at(i, `\`${token}\`: no such module in ${m.crate}/src`);
        for (const child of ticked(items[i] ?? lines[i])) asModules(child).forEach((c) => named.add(`${name}/${c}`));
      }
    }
    for (const name of moduleTree(path.join(root, m.crate, m.root))) {
      if (!(name.includes('/') ? named : leading).has(name)) {
        at(start, `the code map of ${m.crate} leaves out its module \`${name}\``);
      }
    }
  }

  // 3. File paths in backticks. A list item's paths may also be read inside the folders it
  //    names (`crates/parallel-core/tests/`: `links.rs`).
  const where = lines.findIndex((l) => l.trim() === WHERE.heading);
  const inWhere = (i) => where >= 0 && i > where && !lines.slice(where + 1, i + 1).some((l) => l.startsWith('## '));
  lines.forEach((line, i) => {
    if (inWhere(i) && line.startsWith('|')) return; // the "where is X" check reads its own rows
    // A module line's paths may also be read inside the modules it names.
    const rowModules = mapOf[i]
      ? leads[i].map((token) => path.join(mapOf[i].crate, 'src', token.replace(/\/$/, '')))
      : [];
    const folders = items[i] ? ticked(items[i]).filter((t) => t.endsWith('/')) : [];
    for (const [, token] of line.matchAll(/`([^`\s]+)`/g)) {
      if (!FILE.test(token.replace(/[{}]/g, '')) || GENERIC.has(token)) continue;
      const bases = mapOf[i]
        ? [path.join(mapOf[i].crate, 'src'), mapOf[i].crate, ...rowModules, ...folders, ...BASES]
        : [...folders, ...BASES];
      for (const file of expand(token)) {
        if (!bases.some((b) => existsSync(path.join(root, b, file)))) {
          at(i, `\`${file}\` does not exist${mapOf[i] ? ` (in ${mapOf[i].crate} or the root)` : ''}`);
        }
      }
    }
  });

  // 6. Its size: under MAX_WORDS words, no table cell or list item over MAX_CELL_WORDS.
  const total = words(doc);
  if (total >= MAX_WORDS) at(0, `${total} words: a map a newcomer reads stays under ${MAX_WORDS}`);
  lines.forEach((line, i) => {
    if (line.startsWith('|')) {
      cells(line).forEach((cell, k) => {
        const n = words(cell);
        if (n > MAX_CELL_WORDS) at(i, `column ${k + 1} has ${n} words (at most ${MAX_CELL_WORDS} a cell)`);
      });
    } else if (items[i] && /^\s*[-*] /.test(line)) {
      const n = words(items[i].replace(/^\s*[-*] /, ''));
      if (n > MAX_CELL_WORDS) at(i, `a list item of ${n} words (at most ${MAX_CELL_WORDS})`);
    }
  });

  // 7. The "where is X" table.
  problems.push(...checkWhere(root, lines).map(([i, what]) => `ARCHITECTURE.md line ${i + 1}: ${what}`));
  return problems;
}

/** A Rust file's text without its comment lines (`//`, `///`, `//!`). */
const code = (text) => text.split('\n').filter((l) => !/^\s*\/\//.test(l)).join('\n');

/**
 * The "where is X" table against the tree: each row names a figure or control with its test
 * ids (`mem-total`; `traffic-<dim>` for ids written with a part filled in), then the core's
 * file and functions that compute it and the page's that draw it: `path` `name`, `name`;
 * `path` `name`. Each path exists (read from its column's base, else from the root), each
 * name is defined in the file before it (`Plan::memory`: a `fn memory` there), the page's
 * column names a file, and each test id is written in one of the row's files (outside
 * comments) as `"id"`, or `"prefix` for `prefix<part>`. Returns `[line index, what]`.
 */
export function checkWhere(root, lines) {
  const problems = [];
  const start = lines.findIndex((l) => l.trim() === WHERE.heading);
  if (start < 0) return [[0, `no "${WHERE.heading}" section`]];
  let rows = 0;
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
    if (!lines[i].startsWith('|')) continue;
    const row = cells(lines[i]);
    rows += 1;
    if (rows <= 2) continue; // its header and the line under it
    if (row.length !== WHERE.bases.length) {
      problems.push([i, `a row of ${row.length} columns, not ${WHERE.bases.length} (X, computed, drawn)`]);
      continue;
    }
    const files = [];
    row.forEach((cell, k) => {
      const base = WHERE.bases[k];
      if (!base) return;
      let file = null;
      for (const token of ticked(cell)) {
        if (FILE.test(token.replace(/[{}]/g, ''))) {
          // `a/{b,c}.rs` names two files; a name after it is defined in one of them.
          file = [];
          for (const one of expand(token)) {
            const found = [path.join(base, one), one].find((f) => existsSync(path.join(root, f)));
            if (!found) problems.push([i, `\`${one}\` does not exist (in ${base} or the root)`]);
            else file.push({ file: found, text: readFileSync(path.join(root, found), 'utf8') });
          }
          files.push(...file);
          if (file.length === 0) file = null;
        } else if (!file) {
          if (!problems.some(([j]) => j === i)) problems.push([i, `\`${token}\` names no file before it`]);
        } else {
          const name = token.replace(/\(.*\)$/, '').split('::').at(-1);
          if (!defined(file, name)) problems.push([i, `\`${token}\` is not defined in ${file.map((f) => f.file).join(' or ')}`]);
        }
      }
    });
    if (!ticked(row[WHERE.bases.length - 1]).some((t) => FILE.test(t.replace(/[{}]/g, '')))) {
      problems.push([i, `no file of ${WHERE.bases.at(-1)} draws "${row[0]}"`]);
      continue;
    }
    const ids = ticked(row[0]);
    if (ids.length === 0) problems.push([i, `"${row[0]}" gives no test id`]);
    for (const id of ids) {
      const written = id.includes('<') ? `"${id.slice(0, id.indexOf('<'))}` : `"${id}"`;
      if (files.length > 0 && !files.some((f) => code(f.text).includes(written))) {
        problems.push([i, `the test id \`${id}\` is in none of ${files.map((f) => f.file).join(', ')}`]);
      }
    }
  }
  if (rows <= 2) problems.push([start, 'the "where is X" table has no rows']);
  return problems;
}

/** The source folders whose items the documents may name. */
const SOURCES = ['crates/parallel-core/src', 'crates/parallel-cli/src', 'web/src'];

/** Types of other crates the documents name (Leptos's), not resolved in ours. */
const EXTERNAL = new Set(['Signal', 'Memo', 'RwSignal', 'Callback', 'Effect']);

/** Every `.rs` file under `dir`: `{ file, text }`. */
function rustSources(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) rustSources(file, out);
    else if (file.endsWith('.rs')) out.push({ file, text: readFileSync(file, 'utf8') });
  }
  return out;
}

/** Whether `name` is defined in one of `sources`: an item, a field, or an enum variant (a
 * capitalised name opening a line: `Variant,`, `Variant(…)`, `Variant {`). A lower-case name
 * must be an item or a field: a line that merely calls it defines nothing. */
function defined(sources, name) {
  const variant = /^[A-Z]/.test(name) ? `|^\\s*${name}\\s*[,({]` : '';
  const item = new RegExp(
    `\\b(fn|struct|enum|trait|const|type|static|mod)\\s+${name}\\b|\\bpub(\\([a-z]+\\))?\\s+${name}\\s*:[^:]|^\\s*${name}\\s*:[^:]${variant}`,
    'm',
  );
  return sources.some((s) => item.test(s.text));
}

/**
 * Where the items under `owner` live: for a type, the files that define it or have an `impl`
 * of it (a method of `Plan` may sit in any file with an `impl Plan`); for a module, its file or
 * folder, or the files that hold it inline (`mod tests {`). Every file when the owner is not found (a re-export, another crate's type).
 */
function scopeOf(sources, owner) {
  const here = /^[A-Z]/.test(owner)
    ? sources.filter((s) =>
        new RegExp(`\\b(struct|enum|trait|type)\\s+${owner}\\b|\\bimpl(<[^>]*>)?\\s+(\\S+\\s+for\\s+)?${owner}\\b`).test(s.text))
    : sources.filter((s) => {
        const parts = s.file.split(path.sep);
        return parts.includes(owner) || parts.at(-1) === `${owner}.rs` ||
          new RegExp(`\\bmod\\s+${owner}\\s*\\{`).test(s.text);
      });
  return here.length > 0 ? here : sources;
}

/** Each Rust path in backticks of `doc` (named `name`) that names nothing in the tree at `root`. */
export function unresolved(root, doc, name) {
  const sources = SOURCES.flatMap((dir) => rustSources(path.join(root, dir)));
  const problems = [];
  doc.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/`([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+)(?:\([^`]*\))?`/g)) {
      const parts = m[1].split('::');
      if (EXTERNAL.has(parts[0])) continue;
      // Each type on the path is defined somewhere; the last part where the one before it lives.
      const missing = parts.filter((part, k) => {
        if (k === parts.length - 1) return !defined(scopeOf(sources, parts[k - 1]), part);
        return /^[A-Z]/.test(part) && !defined(sources, part);
      });
      if (missing.length > 0) problems.push(`${name} line ${i + 1}: \`${m[1]}\` names no definition (${missing.join(', ')})`);
    }
  });
  return problems;
}

/** The contract every "SPEC §N" cites. */
export const SPEC = 'docs/SPEC.md';

/** Folders whose files are built, fetched or installed, not written: never read for citations. */
const SKIPPED = /(^|\/)(target|dist|node_modules|\.tools)\//;

/** This script: its self-test's citations are fixtures, not the code's. */
const THIS_SCRIPT = 'scripts/check-architecture.mjs';

/** The sections of the contract: `## §N.` headings, and `### §N.M` subsections by section. */
export function specSections(spec) {
  const sections = new Set();
  const subsections = new Map();
  for (const line of spec.split('\n')) {
    const top = line.match(/^## §(\d+)\.(?!\d)/);
    if (top) sections.add(Number(top[1]));
    const sub = line.match(/^### §(\d+)\.(\d+)(?!\d)/);
    if (sub) {
      const n = Number(sub[1]);
      if (!subsections.has(n)) subsections.set(n, new Set());
      subsections.get(n).add(Number(sub[2]));
    }
  }
  return { sections, subsections };
}

/** `§N` or `§N.M` (a `.` not followed by a digit ends a sentence). */
const SECTION = String.raw`§\s?(\d+)(?:\.(\d+))?`;
/** A citation: `SPEC §N`, `SPEC.md §N`, `SPEC section N`, also across a comment's line break. */
const CITED = new RegExp(
  String.raw`\bSPEC(?:\.md)?` + '`?' +
    String.raw`(?:[ \t]*\n[ \t]*(?:\/\/[\/!]?|#|\*|--)?)?[ \t]*(?:${SECTION}|section\s+(\d+)(?:\.(\d+))?)`,
  'g',
);
/** What continues a citation: `–§6`, `, §11`, ` and §17`, ` or §5`. */
const CONTINUED = new RegExp(String.raw`^\s*(?:,|–|-|—|\/|and|or|to)\s*${SECTION}`);
/** A `§N` standing alone (not inside a word, not `§§`). */
const BARE = new RegExp(String.raw`(?<![\w§])${SECTION}`, 'g');

/** Whether a Markdown file numbers its own sections (`## 1. Units`): its bare `§N` are its own. */
const numbersItsSections = (text) => /^#{2,3} \d+\.\s/m.test(text);

/** Every citation of the contract in the file `name` with `text`: `{ line, cite, section, sub }`. */
export function citationsIn(name, text) {
  const found = [];
  const taken = new Set();
  const lineAt = (index) => text.slice(0, index).split('\n').length;
  const add = (index, cite, section, sub) => {
    taken.add(index);
    found.push({ line: lineAt(index), cite, section: Number(section), sub: sub === undefined ? null : Number(sub) });
  };
  const written = (n, m) => `§${n}${m === undefined ? '' : `.${m}`}`;
  for (const m of text.matchAll(CITED)) {
    const bySign = m[1] !== undefined;
    const at = m.index + m[0].lastIndexOf(bySign ? '§' : 'section');
    add(at, bySign ? `SPEC ${written(m[1], m[2])}` : `SPEC section ${m[3]}${m[4] === undefined ? '' : `.${m[4]}`}`,
      bySign ? m[1] : m[3], bySign ? m[2] : m[4]);
    // The sections that continue it: `SPEC §4–§6`, `SPEC §4, §5, §11, §12`, `SPEC §12 and §17`.
    let end = m.index + m[0].length;
    for (let next = text.slice(end).match(CONTINUED); next; next = text.slice(end).match(CONTINUED)) {
      add(end + next[0].indexOf('§'), `SPEC ${written(next[1], next[2])}`, next[1], next[2]);
      end += next[0].length;
    }
  }
  const docs = name.startsWith('docs/') && name.endsWith('.md');
  if (docs && (name === SPEC || !numbersItsSections(text))) {
    for (const m of text.matchAll(BARE)) {
      if (!taken.has(m.index)) add(m.index, written(m[1], m[2]), m[1], m[2]);
    }
  }
  return found;
}

/** Why docs/SPEC.md does not resolve a citation of §N or §N.M, or null when it does. */
function unresolvedCitation({ section, sub }, { sections, subsections }) {
  if (!sections.has(section)) return `no section "## §${section}." in ${SPEC}`;
  if (sub !== null && subsections.has(section) && !subsections.get(section).has(sub)) {
    return `§${section} has subsections but no "### §${section}.${sub}." in ${SPEC}`;
  }
  return null;
}

/** docs/SPEC.md against the tree: nothing outside the repository, its paths exist, and each
 * section heading is `## §N. Title`, once. */
function specOwnProblems(root, spec) {
  const problems = [];
  const seen = new Map();
  spec.split('\n').forEach((line, i) => {
    const at = `${SPEC}:${i + 1}`;
    const outside = line.match(/\.\.\/|\/work\/|\bseeds\//);
    if (outside) problems.push(`${at}: points outside the repository ("${outside[0]}")`);
    for (const [, token] of line.matchAll(/`((?:crates|web|tests|scripts|docs|assets)\/[^`\s]*)`/g)) {
      if (!existsSync(path.join(root, token))) problems.push(`${at}: \`${token}\` does not exist`);
    }
    if (/^##\s*§/.test(line) && !/^## §\d+\. \S/.test(line)) problems.push(`${at}: a section heading reads "## §N. Title"`);
    const top = line.match(/^## §(\d+)\./);
    if (top && seen.has(top[1])) problems.push(`${at}: §${top[1]} is already the heading of line ${seen.get(top[1])}`);
    else if (top) seen.set(top[1], i + 1);
  });
  return problems;
}

/** Every citation of the contract in `files` (`{ name, text }`) that `spec` (the text of
 * docs/SPEC.md) does not resolve, as `file:line: citation: why`, and how many were read. */
export function checkCitations(root, files, spec) {
  const sections = specSections(spec);
  const problems = specOwnProblems(root, spec);
  let count = 0;
  for (const { name, text } of files) {
    for (const c of citationsIn(name, text)) {
      count += 1;
      const why = unresolvedCitation(c, sections);
      if (why) problems.push(`${name}:${c.line}: ${c.cite}: ${why}`);
    }
  }
  return { problems, count };
}

/** The repository's text files, `{ name, text }`: what git tracks or would add (every file
 * under the root when there is no git), less build and tool folders and binary files. */
function repositoryFiles(root) {
  let names;
  try {
    names = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).split('\0');
  } catch {
    names = [];
    const walk = (dir) => {
      for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const name = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.name === '.git' || SKIPPED.test(`${name}/`)) continue;
        if (entry.isDirectory()) walk(name);
        else if (entry.isFile()) names.push(name);
      }
    };
    walk('');
  }
  const files = [];
  for (const name of new Set(names)) {
    if (!name || SKIPPED.test(name) || name === THIS_SCRIPT) continue;
    const file = path.join(root, name);
    if (!existsSync(file) || !statSync(file).isFile()) continue;
    const bytes = readFileSync(file);
    if (bytes.includes(0)) continue;
    files.push({ name, text: bytes.toString('utf8') });
  }
  return files;
}

/** Small trees with one mistake each; each must be caught, and the clean one must pass. */
function selfTest() {
  const { dir, write, remove } = scratchTree('check-architecture-');
  write('crates/parallel-core/src/lib.rs', 'pub mod alpha;\nmod beta;\n');
  write('crates/parallel-core/src/beta/mod.rs', 'mod inner;\n#[cfg(test)]\nmod checked;\nmod tests;\n');
  write('crates/parallel-core/src/beta/inner.rs', '');
  write('crates/parallel-cli/src/lib.rs', 'mod gamma;\n');
  write('web/src/lib.rs', 'pub mod delta;\n');
  write('web/src/delta/mod.rs', 'pub(crate) mod view;\n');
  write('web/src/delta/view.rs', [
    '// data-testid="delta-commented"',
    'pub fn DeltaView() { let _ = ("delta-figure", format!("delta-{}", 1)); }',
    'pub fn delta_row() {}',
  ].join('\n'));
  write('scripts/x.sh', '');
  write('crates/parallel-core/src/alpha.rs', 'pub struct Alpha { pub width: u32 }\nimpl Alpha {\n    pub fn reach(&self) -> u32 { 1 }\n}\n');
  write('crates/parallel-cli/src/gamma.rs', 'pub struct Gamma;\nimpl Gamma {\n    pub fn turn(&self) {}\n}\npub fn turn() {}\n');
  // The core's map as a table, the page's as a list (its nested module named on its parent's
  // line); beta's test modules need no naming.
  const clean = [
    '# A', 'See `scripts/x.sh`.',
    '### `crates/parallel-core`', '| module | holds |', '|---|---|', '| `alpha` | `alpha.rs` |', '| `beta/` | b, `beta/inner` |',
    '### `crates/parallel-cli`', '| module | holds |', '|---|---|', '| `gamma` | `src/gamma.rs` |',
    '### `web/`', '- `delta/`: `delta/mod.rs`, and `view`.',
    '## API boundary', 'Its public modules: `alpha` (`lib.rs` declares every other module private).',
    '## Where is X', '| X | core | page |', '|---|---|---|',
    '| reach `delta-figure`, `delta-<n>` | `alpha.rs` `Alpha::reach` | `delta/{mod,view}.rs` `DeltaView`, `delta_row` |',
  ].join('\n');
  const cell = (n) => Array(n).fill('w').join(' ');
  const cases = [
    ['clean', clean, 0],
    ['a public module left out', clean.replace('`alpha` (`lib.rs`', '(`lib.rs`'), 1],
    ['a private module listed', clean.replace('`alpha` (', '`alpha`, `beta` ('), 1],
    ['a module missing from a map', clean.replace('| `beta/` | b, `beta/inner` |', ''), 2],
    ['a mapped module that does not exist', clean.replace('`gamma` |', '`gamma`, `epsilon` |'), 1],
    ['a path that does not exist', clean.replace('`scripts/x.sh`', '`scripts/{x,y}.sh`'), 1],
    ['a module only mentioned, leading no line', clean.replace('| `beta/` | b, `beta/inner` |', '| `alpha` | `alpha.rs`, not `beta`, `beta/inner` |'), 1],
    ['a nested module left out', clean.replace(', `beta/inner`', ''), 1],
    ['a nested module left out of its parent\'s line', clean.replace('and `view`', 'and the view'), 1],
    ['an indented module line', clean.replace('- `delta/`:', '  - `delta/`:'), 0],
    ['a nested module named on its parent\'s next line', clean.replace(', and `view`.', ',\n  and `view`.'), 0],
    ['a listed module that does not exist', clean.replace('- `delta/`:', '- `delta/`, `omega`:'), 1],
    ['a cell of more than 40 words', clean.replace('| b, `beta/inner` |', `| ${cell(41)} \`beta/inner\` |`), 1],
    ['a list item of more than 40 words', clean.replace('and `view`.', `and \`view\`,\n  ${cell(40)}.`), 1],
    ['a document of 2,500 words', `${clean}\n\n${cell(2500)}`, 1],
    ['no "where is X"', clean.replace('## Where is X', '## Elsewhere'), 1],
    ['a where path that does not exist', clean.replace('`alpha.rs` `Alpha', '`alpha2.rs` `Alpha'), 1],
    ['a name not in the file before it', clean.replace('`Alpha::reach`', '`Alpha::reach`, `turn`'), 1],
    ['a name before any file', clean.replace('`alpha.rs` `Alpha::reach`', '`Alpha::reach` `alpha.rs`'), 1],
    ['a row the page draws nowhere', clean.replace('| `delta/{mod,view}.rs` `DeltaView`, `delta_row` |', '| — |'), 1],
    ['a row of two columns', clean.replace(' `alpha.rs` `Alpha::reach` |', ''), 1],
    ['a test id in none of its files', clean.replace('`delta-figure`', '`delta-figures`'), 1],
    ['a test id only in a comment', clean.replace('`delta-figure`', '`delta-commented`'), 1],
    ['a row with no test id', clean.replace('`delta-figure`, `delta-<n>`', 'its reach'), 1],
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
    ['a function of another type', 'By `Alpha::turn`.', 1],
    ['a function of another module', 'By `alpha::turn`.', 1],
    ['a module\'s function', 'By `gamma::turn` and `Gamma::turn`.', 0],
  ];
  for (const [name, doc, expected] of paths) {
    const found = unresolved(dir, doc, 'doc');
    if (found.length !== expected) {
      ok = false;
      console.error(`check-architecture self-test "${name}": expected ${expected} problem(s), got ${found.length}: ${found.join('; ')}`);
    }
  }
  // 5. Citations of the contract, against a contract of three sections (§3 with a subsection).
  const spec = [
    '# Contract', '## §1. Units', 'As §2 says.', '## §2. Inputs', 'See `crates/parallel-core/src/alpha.rs`.',
    '## §3. Grid', '### §3.1. Nodes', 'text',
  ].join('\n');
  const cited = [
    ['a citation of a present section', 'a.rs', '// SPEC §2: the inputs.', 0],
    ['a citation of a missing section', 'a.rs', '// Ranks (SPEC §7).', 1],
    ['a missing section ending a range', 'a.rs', '//! SPEC §1–§9', 1],
    ['a list of present sections', 'a.rs', '// SPEC §1, §2 and §3', 0],
    ['a missing section in a list', 'a.rs', '// SPEC §1, §2 and §12', 1],
    ['a citation wrapped onto the next comment line', 'a.rs', '/// its rate (SPEC\n/// §8).', 1],
    ['§N.M when §N has no subsections', 'a.py', '# SPEC §2.4', 0],
    ['§N.M, a present subsection', 'a.mjs', '// SPEC §3.1.', 0],
    ['§N.M, a missing subsection', 'a.mjs', '// SPEC §3.2', 1],
    ['a sentence ending after SPEC §N', 'a.rs', '// as in SPEC §3. Then item §44.', 0],
    ['SPEC section N', 'a.py', '"""Measure a card (SPEC section 19)."""', 1],
    ['an identifier, not a citation', 'a.mjs', 'const SPEC_9 = {};', 0],
    ['a bare §N in a docs page', 'docs/x.md', 'As §5 says.', 1],
    ['a bare §N in a docs page with numbered sections (its own)', 'docs/x.md', '## 1. Units\nAs §5 says.', 0],
    ['SPEC §N in a docs page with numbered sections', 'docs/x.md', '## 1. Units\nAs SPEC §5 says.', 1],
    ['a bare §N outside docs/ (a paper\'s)', 'README.md', 'Report §5.1 of a paper.', 0],
  ];
  for (const [name, file, text, expected] of cited) {
    const { problems } = checkCitations(dir, [{ name: file, text }], spec);
    if (problems.length !== expected) {
      ok = false;
      console.error(`check-architecture self-test "${name}": expected ${expected} problem(s), got ${problems.length}: ${problems.join('; ')}`);
    }
  }
  const contracts = [
    ['the contract, clean', spec, 0],
    ['a cross-reference to a missing section', `${spec}\nAs §4 says.`, 1],
    ['a path outside the repository', `${spec}\nRead ../shared/notes.md.`, 1],
    ['a repository path that does not exist', `${spec}\nSee \`crates/parallel-core/src/nope.rs\`.`, 1],
    ['a section heading twice', `${spec}\n## §2. Inputs again`, 1],
    ['a section heading without its title', `${spec}\n## §2 Inputs`, 1],
  ];
  for (const [name, text, expected] of contracts) {
    const { problems } = checkCitations(dir, [{ name: SPEC, text }], text);
    if (problems.length !== expected) {
      ok = false;
      console.error(`check-architecture self-test "${name}": expected ${expected} problem(s), got ${problems.length}: ${problems.join('; ')}`);
    }
  }
  remove();
  const total = cases.length + paths.length + cited.length + contracts.length;
  if (ok) console.log(`check-architecture: self-test passed (${total} cases)`);
  return ok;
}

function main(argv) {
  if (argv.includes('--self-test')) return selfTest();
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const specFile = path.join(root, SPEC);
  const cited = existsSync(specFile)
    ? checkCitations(root, repositoryFiles(root), readFileSync(specFile, 'utf8'))
    : { problems: [`${SPEC}: missing (the contract every "SPEC §N" cites)`], count: 0 };
  const problems = [
    ...check(root, readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8')),
    ...unresolved(root, readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8'), 'ARCHITECTURE.md'),
    ...unresolved(root, readFileSync(path.join(root, 'docs/formulas.md'), 'utf8'), 'docs/formulas.md'),
    ...cited.problems,
  ];
  for (const p of problems) console.error(p);
  if (problems.length === 0) {
    console.log('check-architecture: ARCHITECTURE.md matches the tree; its and docs/formulas.md\'s Rust paths resolve');
    console.log(`check-architecture: ${cited.count} citations of the contract resolve to ${SPEC}`);
  }
  return problems.length === 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2)) ? 0 : 1;
}
