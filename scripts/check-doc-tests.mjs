#!/usr/bin/env node
// docs/formulas.md names the tests that pin each formula: `core/tests/x.rs`,
// `core/src/x.rs::tests::f`, `cli/tests/x.rs::f`, `web/src/x.rs::f`, and after one of them a
// shorthand `::g` for another test of the same file (`*` for a family: `search_*`). This checks
// that every such file exists and holds each function named in it, and fails with the line of
// each that does not: a test renamed or moved makes the document wrong, and CI says so.
//
//   node scripts/check-doc-tests.mjs              check docs/formulas.md
//   node scripts/check-doc-tests.mjs --self-test  the checker on its own fixtures
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchTree } from './scratch-tree.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC = 'docs/formulas.md';

/** The crate folder each short prefix stands for. */
const CRATES = { core: 'crates/parallel-core', cli: 'crates/parallel-cli', web: 'web' };

/** The legend's placeholders (`core/tests/x.rs`): examples of the notation, not tests. */
const LEGEND = /\/x\.rs(::|$)/;

/** Problems of `doc` against the tree at `root`: `line N: why`. */
export function check(root, doc) {
  const problems = [];
  const texts = new Map();
  const read = (file) => {
    if (!texts.has(file)) texts.set(file, existsSync(file) ? readFileSync(file, 'utf8') : null);
    return texts.get(file);
  };
  const has = (text, name) => new RegExp(`\\bfn ${name.replace(/\*/g, '[a-z0-9_]*')}\\b`).test(text);
  let last = null;
  doc.split('\n').forEach((line, i) => {
    const at = `line ${i + 1}`;
    const refs = /`(?:((core|cli|web)\/[A-Za-z0-9_/]+\.rs)((?:::[A-Za-z0-9_*]+)*)|::([a-z0-9_*]+))`/g;
    for (const m of line.matchAll(refs)) {
      if (m[1]) {
        if (LEGEND.test(m[1] + m[3])) continue;
        const file = path.join(root, CRATES[m[2]], m[1].slice(m[2].length + 1));
        last = { file, shown: m[1] };
        if (read(file) === null) {
          problems.push(`${at}: \`${m[1]}\` does not exist`);
          continue;
        }
        const name = m[3].split('::').filter((p) => p && p !== 'tests').at(-1);
        if (name && !has(read(file), name)) problems.push(`${at}: \`${m[1]}\` has no test \`${name}\``);
      } else if (last && read(last.file) !== null && !has(read(last.file), m[4])) {
        // `::g` after a file: a test of that file, unless the core or the page define it
        // elsewhere (a doc may list `::Type::method` paths the map check resolves).
        problems.push(`${at}: \`::${m[4]}\` is not a test of \`${last.shown}\``);
      }
    }
  });
  return problems;
}

function selfTest() {
  const { dir, write, remove } = scratchTree('check-doc-tests-');
  write('crates/parallel-core/tests/a.rs', '#[test]\nfn holds() {}\n#[test]\nfn search_one() {}\n');
  write('crates/parallel-core/src/b/mod.rs', 'mod tests {\n    #[test]\n    fn inside() {}\n}\n');
  const cases = [
    ['legend', 'Paths: `core/tests/x.rs`, `core/src/x.rs::tests::f`.', 0],
    ['a file', 'Tests: `core/tests/a.rs`.', 0],
    ['a test and its neighbours', '`core/tests/a.rs::holds`, `::search_*`.', 0],
    ['a unit test', '`core/src/b/mod.rs::tests::inside`.', 0],
    ['a moved file', '`core/src/b.rs::tests::inside`.', 1],
    ['a renamed test', '`core/tests/a.rs::held`.', 1],
    ['a shorthand of another file', '`core/tests/a.rs::holds`, `::inside`.', 1],
  ];
  let failed = 0;
  for (const [name, doc, want] of cases) {
    const got = check(dir, doc);
    if (got.length !== want) {
      console.error(`self-test "${name}": ${got.length} problem(s), wanted ${want}: ${got.join('; ')}`);
      failed++;
    }
  }
  remove();
  if (failed) process.exit(1);
  console.log(`check-doc-tests self-test: ${cases.length} cases pass`);
}

function main() {
  const problems = check(ROOT, readFileSync(path.join(ROOT, DOC), 'utf8'));
  for (const p of problems) console.error(`${DOC} ${p}`);
  if (problems.length) {
    console.error(`check-doc-tests: ${problems.length} test reference(s) in ${DOC} do not hold`);
    process.exit(1);
  }
  console.log(`check-doc-tests: every test ${DOC} names exists`);
}

if (process.argv.includes('--self-test')) selfTest();
else main();
