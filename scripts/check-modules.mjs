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
//   3. The page's rooms (`--rooms DIR`, web/src): a file under `pages/<page>/` imports no other
//      page's files; `kit/` and `state/` import no page (modules/rooms.mjs).
//
// Usage:
//   node scripts/check-modules.mjs [--strict DIR]... [--warn DIR]... [--no-web-deps CARGO_TOML]...
//                                  [--rooms DIR]...
//   node scripts/check-modules.mjs --self-test
//   node scripts/check-modules.mjs --graph DIR      (each file and the files it imports)
// `--strict DIR` fails (exit 1) on any circle in DIR (a crate's src/); `--warn DIR` prints its
// circles and passes. With no arguments: the core strictly, web/src as a warning, and the
// core's Cargo.toml. `--self-test` runs the checks on small fixture trees (one with a circle,
// one with a web dependency) and fails unless each is caught.
//
// The checks live in scripts/modules/: rust-source.mjs (lexing), file-graph.mjs (the module
// tree and its circles), manifest.mjs (web crates), rooms.mjs, run.mjs, self-test.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileGraph } from './modules/file-graph.mjs';
import { run } from './modules/run.mjs';
import { selfTest } from './modules/self-test.mjs';

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
  const opts = { strict: [], warn: [], manifests: [], rooms: [] };
  if (argv.length === 0) {
    opts.strict.push(path.join(repo, 'crates/parallel-core/src'));
    opts.warn.push(path.join(repo, 'web/src'));
    opts.rooms.push(path.join(repo, 'web/src'));
    opts.manifests.push(path.join(repo, 'crates/parallel-core/Cargo.toml'));
  }
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    const lists = {
      '--strict': opts.strict, '--warn': opts.warn, '--no-web-deps': opts.manifests, '--rooms': opts.rooms,
    };
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
