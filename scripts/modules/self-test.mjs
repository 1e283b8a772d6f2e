// Part of scripts/check-modules.mjs (see its header): fixture trees that each check must catch.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scratchTree } from '../scratch-tree.mjs';
import { circles, fileGraph } from './file-graph.mjs';
import { webDependencies } from './manifest.mjs';
import { run } from './run.mjs';

/** The fixtures: a crate with a circle, one without (re-exports, a parent and its child,
 * comments and strings that name other modules), and two manifests. */
export function selfTest() {
  const { dir: root, write, remove } = scratchTree('check-modules-');
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

    // Rooms: the planner importing the lesson, the kit importing the planner, are found; a page
    // importing the kit and state, and pages/mod.rs naming every page, are not.
    write('rooms/src/lib.rs', 'pub mod kit;\npub mod pages;\npub mod state;\n');
    write('rooms/src/kit/mod.rs', 'pub mod share;\npub fn k() { crate::pages::plan::p(); }\n');
    write('rooms/src/kit/share.rs', 'pub fn s() {}\n');
    write('rooms/src/state/mod.rs', 'pub fn st() {}\n');
    write('rooms/src/pages/mod.rs', 'pub mod lesson;\npub mod plan;\npub fn start() { lesson::l(); plan::p(); }\n');
    write('rooms/src/pages/lesson/mod.rs', 'pub fn l() { crate::kit::share::s(); crate::state::st(); }\n');
    write('rooms/src/pages/plan/mod.rs', 'pub mod form;\npub fn p() { form::f(); }\n');
    write('rooms/src/pages/plan/form.rs', 'pub fn f() { crate::pages::lesson::l(); }\n');
    const walls = run({ rooms: [path.join(root, 'rooms/src')] });
    const wallText = walls.out.join('\n');
    expect(`the planner's import of the lesson is found (${wallText})`,
      wallText.includes('pages/plan/form.rs → pages/lesson/mod.rs'));
    expect(`the kit's import of the planner is found (${wallText})`,
      wallText.includes('kit/mod.rs → pages/plan/mod.rs'));
    expect(`only those two (${wallText})`, walls.out.length === 3 && !walls.ok);

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
    remove();
  }
  if (failures.length) {
    console.log('check-modules self-test: FAILED');
    for (const f of failures) console.log(`  ${f}`);
    return false;
  }
  console.log('check-modules self-test: ok (circles, crossed walls and web dependencies are caught)');
  return true;
}
