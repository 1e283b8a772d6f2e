// Benchmark, not a test: how long a student waits on a slow network until the page can be read,
// its first grid is drawn and it answers (issue 53's method). Each build's pages are served
// gzip -9 encoded, as a static host serves them, loaded cold (a fresh browser context, the
// cache disabled) under Chromium's network emulation (CDP `Network.emulateNetworkConditions`)
// at two profiles, and each figure is the median of the runs.
//
//   node tests/bench-load.mjs [--before DIR] [--after DIR] [--runs 5] [--json FILE]
//   scripts/bench.sh --load [--before REV] [these options]
//
// Without --before/--after it measures DIST alone. Per page (the lesson; the embedded 64-card
// grid at its defaults, which embed.html holds as a first screen; and at a plan its link names,
// which it does not) and profile, it reports:
//   first text    first contentful paint: the first text on screen;
//   grid drawn    the first card of the page's first grid on screen (the lesson's 8-card grid,
//                 the embed's 64-card grid), from the first screen in the HTML or the wasm's:
//                 laid out, and not before the first paint;
//   interactive   the grid's memory figure in the DOM and no first screen left: the app has
//                 mounted that grid, its controls and their handlers, so a slider moved now is
//                 answered on the next frame (the slider benchmarks in bench.mjs time that
//                 frame).
// A build that has no page of that name is skipped.

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DESKTOP, DIST, startLab } from './harness.mjs';
import { percentile } from './bench-in-page.mjs';

const { values: args } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    runs: { type: 'string', default: '5' },
    json: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const BUILDS = Object.fromEntries(
  Object.entries({ before: args.before, after: args.after }).filter(([, dir]) => dir).map(([name, dir]) => [name, path.resolve(dir)]),
);
if (!Object.keys(BUILDS).length) BUILDS.build = DIST;

/**
 * The two networks of issue 53's table, as Chromium's DevTools name them: download and
 * latency as the issue measured (Slow 4G 1.6 Mbps and 150 ms, Fast 4G 9 Mbps and 60 ms);
 * upload as DevTools' presets (750 kbps, 1.5 Mbps). Throughputs in bytes per second.
 */
const PROFILES = [
  { name: 'Slow 4G', latency: 150, download: (1.6e6 / 8), upload: (750e3 / 8) },
  { name: 'Fast 4G', latency: 60, download: (9e6 / 8), upload: (1.5e6 / 8) },
];

/** The pages, each with its address and the selectors of its first grid and its figure. */
const PAGES = [
  {
    name: 'lesson', file: 'index.html', address: '',
    grid: '[data-testid="grid-8"] [data-card]',
    figure: '[data-testid="section-8"] [data-testid="mem-states"]',
  },
  {
    name: 'embed', file: 'embed.html', address: 'embed.html#embed=grid-64',
    grid: '[data-testid="grid-64"] [data-card]',
    figure: '[data-testid="embed-root"] [data-testid="mem-states"]',
  },
  {
    name: 'embed at a plan', file: 'embed.html', address: 'embed.html#g64=tp8.pp2.z1&embed=grid-64',
    grid: '[data-testid="grid-64"] [data-card]',
    figure: '[data-testid="embed-root"] [data-testid="mem-states"]',
  },
];

/** One cold load of `page` from `lab` under `profile`: { text, grid, interactive } in ms. */
async function load(lab, page, profile) {
  const context = await lab.browser.newContext(DESKTOP);
  try {
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.latency,
      downloadThroughput: profile.download,
      uploadThroughput: profile.upload,
    });
    // Each moment is recorded inside the page as it happens (a mutation observer from the
    // first byte of the document), not polled from outside.
    await tab.addInitScript(({ grid, figure }) => {
      const seen = {};
      window.__loadTimes = seen;
      const shown = (selector) => [...document.querySelectorAll(selector)].some((e) => e.getClientRects().length > 0);
      const observer = new MutationObserver(() => {
        if (seen.grid === undefined && shown(grid)) seen.grid = performance.now();
        if (seen.interactive === undefined && document.querySelector(figure) && !document.querySelector('.first-screen')) {
          seen.interactive = performance.now();
        }
        if (seen.grid !== undefined && seen.interactive !== undefined) observer.disconnect();
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-screen'] });
    }, { grid: page.grid, figure: page.figure });
    await tab.goto(`${lab.baseUrl}${page.address}`, { waitUntil: 'commit' });
    await tab.waitForFunction(
      () => window.__loadTimes?.interactive !== undefined && window.__loadTimes.grid !== undefined &&
        performance.getEntriesByName('first-contentful-paint').length > 0,
      null,
      { timeout: 120_000, polling: 100 },
    );
    // The grid is on screen once it is laid out and a frame has been painted: a first screen
    // in the HTML is laid out before the first paint.
    return await tab.evaluate(() => {
      const text = performance.getEntriesByName('first-contentful-paint')[0].startTime;
      return { text, grid: Math.max(window.__loadTimes.grid, text), interactive: window.__loadTimes.interactive };
    });
  } finally {
    await context.close();
  }
}

const results = {};
for (const [build, dist] of Object.entries(BUILDS)) {
  const lab = await startLab({ dist, gzip: true });
  try {
    for (const page of PAGES) {
      if (!existsSync(path.join(dist, page.file))) continue;
      for (const profile of PROFILES) {
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await load(lab, page, profile));
        const median = (key) => percentile(runs.map((r) => r[key]), 50);
        (results[`${page.name} · ${profile.name}`] ??= {})[build] = {
          text: median('text'), grid: median('grid'), interactive: median('interactive'), runs,
        };
      }
    }
  } finally {
    await lab.close();
  }
}

const names = Object.keys(BUILDS);
const ms = (x) => (x === undefined ? '—' : `${Math.round(x).toLocaleString('en-US')} ms`);
console.log(`Parallel Lab, cold loads served gzipped, median of ${RUNS} · ${names.map((n) => `${n}: ${BUILDS[n]}`).join(' · ')}`);
for (const [row, byBuild] of Object.entries(results)) {
  for (const key of ['text', 'grid', 'interactive']) {
    const label = { text: 'first text', grid: 'grid drawn', interactive: 'interactive' }[key];
    const cells = names.map((n) => ms(byBuild[n]?.[key]).padStart(10));
    const change = names.length === 2 && byBuild.before && byBuild.after
      ? `${(((byBuild.after[key] - byBuild.before[key]) / byBuild.before[key]) * 100).toFixed(1)}%`
      : '';
    console.log(`  ${`${row}, ${label}`.padEnd(40)} ${cells.join(' ')} ${change.padStart(8)}`);
  }
}
if (args.json) await writeFile(args.json, JSON.stringify({ builds: BUILDS, runs: RUNS, profiles: PROFILES, results }, null, 2));
