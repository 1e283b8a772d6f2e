// Benchmark, not a test: two builds of the page side by side in one run, on the same machine,
// their measurements interleaved (before, after, before, after…) so that other work on the
// machine weighs on both alike.
//
//   node tests/bench-compare.mjs --before DIR --after DIR [--n 100] [--loads 7] [--json FILE]
//   scripts/bench.sh --before REV   (builds REV and the working tree, then runs this)
//
// For each build: the gzipped bytes of every entry page (the lesson, the embedded widget, the RL
// page and the planner), as bench.mjs counts them; fresh loads of the lesson page (first paint, and
// interactive: the 8-card grid's memory figure exists), with the CPU as is and slowed 4×; and
// the slider scenarios of bench.mjs on the 64-card grid (JS done, and a move made in a frame
// until that frame is rendered). Prints before, after and the change; with --strict, exits 1
// when the lesson page is interactive later than before or its slider frames are slower
// (medians, and p95 of the frames, beyond the run-to-run spread stated below), or when an entry
// page grew by more than 10 KB gzipped.

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startLab } from './harness.mjs';
import { measure, percentile } from './bench-in-page.mjs';
import { SCENARIOS, loading, openGrid, sizes } from './bench-common.mjs';

const { values: args } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    n: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '20' },
    loads: { type: 'string', default: '7' },
    json: { type: 'string' },
    strict: { type: 'boolean', default: false },
  },
});
if (!args.before || !args.after) {
  console.error('usage: node tests/bench-compare.mjs --before DIR --after DIR [--n 100] [--loads 7] [--json FILE] [--strict]');
  process.exit(2);
}
const BUILDS = { before: path.resolve(args.before), after: path.resolve(args.after) };
const N = Number(args.n);
const WARMUP = Number(args.warmup);
const LOADS = Number(args.loads);
/**
 * A later or slower "after" counts only beyond this share of the "before" figure: two runs of
 * the same build on this machine differ by about this much (loads and frame times are medians
 * over a few dozen samples on a shared 2-core machine).
 */
const SPREAD = 0.1;

/** Fresh loads of the lesson page, one of each build in turn, `runs` of each. */
async function loads(slowdown, runs) {
  const all = { before: { fcp: [], interactive: [] }, after: { fcp: [], interactive: [] } };
  for (let i = 0; i < runs; i++) {
    for (const [name, dist] of Object.entries(BUILDS)) {
      const one = await loading(slowdown, 1, { dist });
      all[name].fcp.push(one.fcp);
      all[name].interactive.push(one.interactive);
    }
  }
  const median = (xs) => percentile(xs, 50);
  return Object.fromEntries(
    Object.entries(all).map(([name, { fcp, interactive }]) => [name, { fcp: median(fcp), interactive: median(interactive) }]),
  );
}

/** The slider scenarios on each build, in two rounds (before, after, before, after). */
async function frames() {
  const samples = { before: {}, after: {} };
  for (let round = 0; round < 2; round++) {
    for (const [name, dist] of Object.entries(BUILDS)) {
      const lab = await startLab({ isolated: true, dist });
      try {
        const { page, problems } = await openGrid(lab, dist);
        for (const scenario of SCENARIOS) {
          const { samples: s } = await page.evaluate(measure, { ...scenario, n: N, warmup: WARMUP });
          const into = (samples[name][scenario.name] ??= { done: [], rendered: [] });
          into.done.push(...s.done);
          into.rendered.push(...s.rendered);
        }
        if (problems.length) throw new Error(`${name}: the page reported problems:\n${problems.join('\n')}`);
      } finally {
        await lab.close();
      }
    }
  }
  return samples;
}

/** Every entry page, as `sizes` counts it (the page, its wasm and JS, the service worker). */
const PAGES = [
  ['lesson page (index.html)', 'index.html'],
  ['embedded widget (embed.html)', 'embed.html'],
  ['RL page (rl.html)', 'rl.html'],
  ['planner (plan.html)', 'plan.html'],
];
/**
 * A page that grows by more than this many gzipped bytes must say why in the change's note
 * (the project's rule for size); with --strict such growth fails the comparison.
 */
const SAY_WHY_BYTES = 10_000;
/** A page's gzipped total, or `null` when that build has no such page (one from before the split). */
const total = async (page, dist) =>
  existsSync(path.join(dist, page)) ? (await sizes(page, dist)).reduce((sum, f) => sum + f.gzip, 0) : null;
const bytes = { before: {}, after: {} };
for (const [name, dist] of Object.entries(BUILDS)) {
  for (const [, file] of PAGES) bytes[name][file] = await total(file, dist);
}
const load1 = await loads(1, LOADS);
const load4 = await loads(4, Math.max(3, Math.ceil(LOADS / 2)));
const slid = await frames();

const kb = (b) => `${(b / 1000).toFixed(1)} KB`;
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const change = (before, after) => `${after >= before ? '+' : '−'}${(Math.abs(after / before - 1) * 100).toFixed(1)}%`;
/** A figure the issue asks not to grow: later or slower only beyond SPREAD. */
const noWorse = (before, after) => {
  const pass = after <= before * (1 + SPREAD);
  return { pass, text: pass ? `✓ (no worse, within ${SPREAD * 100}%)` : '✗ worse' };
};
/** A page's bytes: growth past SAY_WHY_BYTES needs its reason in the note. */
const saysWhy = (before, after) => {
  const pass = after - before <= SAY_WHY_BYTES;
  return { pass, text: pass ? '' : `✗ grew by more than ${kb(SAY_WHY_BYTES)}: say why` };
};
let ok = true;
/** One row; `judge` gives a verdict that --strict holds to. A build without the figure (null) shows "no page". */
const row = (label, before, after, fmt, judge) => {
  const show = (x) => (x === null ? 'no page' : fmt(x));
  const both = before !== null && after !== null;
  const verdict = both && judge ? judge(before, after) : { pass: true, text: '' };
  ok &&= verdict.pass;
  const delta = both ? change(before, after) : '';
  console.log(`  ${label.padEnd(46)}${show(before).padStart(11)}${show(after).padStart(11)}${delta.padStart(9)}  ${verdict.text}`);
};

console.log(`Parallel Lab, two builds side by side · ${os.cpus().length} CPU(s) · load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log(`  before: ${BUILDS.before}\n  after:  ${BUILDS.after}\n`);
console.log(`  ${''.padEnd(46)}${'before'.padStart(11)}${'after'.padStart(11)}${'change'.padStart(9)}`);
for (const [label, file] of PAGES) row(`${label}, gzip -9`, bytes.before[file], bytes.after[file], kb, saysWhy);
row(`lesson page, first paint (CPU ×1, ${LOADS} loads)`, load1.before.fcp, load1.after.fcp, ms);
row(`lesson page, interactive (CPU ×1, ${LOADS} loads)`, load1.before.interactive, load1.after.interactive, ms, noWorse);
row('lesson page, interactive (CPU ÷4)', load4.before.interactive, load4.after.interactive, ms, noWorse);
for (const { name } of SCENARIOS) {
  const [b, a] = [slid.before[name], slid.after[name]];
  row(`${name}: JS done, p50 (${b.done.length} moves)`, percentile(b.done, 50), percentile(a.done, 50), ms, noWorse);
  row(`${name}: frame rendered, p50`, percentile(b.rendered, 50), percentile(a.rendered, 50), ms, noWorse);
  row(`${name}: frame rendered, p95`, percentile(b.rendered, 95), percentile(a.rendered, 95), ms, noWorse);
}

if (args.json) {
  await writeFile(args.json, JSON.stringify({ builds: BUILDS, bytes, load1, load4, frames: slid }, null, 2));
}
if (args.strict && !ok) process.exit(1);
