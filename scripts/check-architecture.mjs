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
// A failure names the line of the document (for 5, file:line and the citation) and what is
// wrong with it.
//
// Usage: node scripts/check-architecture.mjs [--self-test]

import { execFileSync } from 'node:child_process';
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
  write('crates/parallel-cli/src/gamma.rs', 'pub struct Gamma;\nimpl Gamma {\n    pub fn turn(&self) {}\n}\npub fn turn() {}\n');
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
  rmSync(dir, { recursive: true, force: true });
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
