// What the benchmark (bench.mjs) and its side-by-side comparison of two builds
// (bench-compare.mjs) measure the same way: the slider scenarios, the grid they start from,
// fresh loads and the bytes a page loads.

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync, constants as zlib } from 'node:zlib';
import { DESKTOP, DIST, openPage, setRange, startLab } from './harness.mjs';
import { percentile } from './bench-in-page.mjs';

export const SCENARIOS = [
  // m changes the bubble and the traffic, not the grid's groups.
  { name: 'slider-m 8 ↔ 32', testId: 'slider-m', values: [32, 8], watch: 'bubble', attr: 'data-ratio' },
  // PP changes every card's coordinates, the groups, the hops, DP, the schedule view.
  { name: 'slider-pp 2 ↔ 4', testId: 'slider-pp', values: [4, 2], watch: 'bubble', attr: 'data-ratio' },
];

/**
 * Whether the build in `dist` writes first screens into its pages (issue 53: `<html
 * data-screens>`); one from before, as `bench.sh --before REV` may build, does not.
 */
export function hasFirstScreens(dist) {
  return /<html[^>]*\sdata-screens[\s=>]/.test(readFileSync(path.join(dist, 'index.html'), 'utf8'));
}

/**
 * Opens part two's grid as the latency scenarios start from: TP 8 × PP 2, ZeRO-1, full
 * recompute, card 0, on the build in `dist` that `lab` serves.
 */
export async function openGrid(lab, dist = DIST) {
  const { page, context, problems } = await openPage(lab, DESKTOP, { firstScreen: hasFirstScreens(dist) });
  const section = page.getByTestId('section-64');
  await setRange(section, 'slider-tp', 8);
  await setRange(section, 'slider-pp', 2);
  await section.getByTestId('select-zero').selectOption('1');
  await section.getByTestId('select-recompute').selectOption('full');
  await section.getByTestId('card-0').click();
  await section.getByTestId('grid-64').scrollIntoViewIfNeeded();
  return { page, context, problems };
}

/**
 * Loading, from navigation start on loopback: first contentful paint, and "interactive" (the
 * wasm app has mounted the page's first grid and a slider answers: the moment the 8-card
 * grid's memory figure exists and no first screen is left, recorded inside the page, as
 * bench-load.mjs has it), then the moment the parts below it, the lesson's 64-card grid
 * among them, are drawn too (`<html data-drawn="all">`). `slowdown` > 1 throttles the CPU through the
 * DevTools protocol (4 = a student's phone). Median of `runs` fresh loads. With `embed`, the
 * embed entry point showing the 64-card grid instead (interactive: its memory figure exists).
 * `dist` measures another build than DIST.
 */
export async function loading(slowdown, runs, { embed = false, shell = false, dist = DIST } = {}) {
  // The first screen alone: index.html without its module script and the preloads of the
  // wasm and JS, so nothing but the HTML and the CSS is fetched and drawn.
  const files = {};
  if (shell) {
    const html = await readFile(path.join(dist, 'index.html'), 'utf8');
    const body = html
      .replace(/<script type="module">[\s\S]*?<\/script>/, '')
      .replace(/<link rel="(?:modulepreload|preload)"[^>]*>/g, '');
    if (body === html) throw new Error('index.html: no module script to leave out');
    files['/shell.html'] = { type: 'text/html; charset=utf-8', body };
  }
  const lab = await startLab({ files, dist });
  try {
    const fcp = [];
    const interactive = [];
    const drawn = [];
    for (let i = 0; i < runs; i++) {
      const context = await lab.browser.newContext(DESKTOP);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      await page.addInitScript((selector) => {
        const observer = new MutationObserver(() => {
          if (window.__interactiveAt === undefined && document.querySelector(selector) && !document.querySelector('.first-screen')) {
            window.__interactiveAt = performance.now();
          }
          if (window.__drawnAt === undefined && document.documentElement.dataset.drawn === 'all') {
            window.__drawnAt = performance.now();
          }
          if (window.__interactiveAt !== undefined && window.__drawnAt !== undefined) observer.disconnect();
        });
        observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-drawn'] });
      }, embed ? '[data-testid="embed-root"] [data-testid="mem-states"]' : '[data-testid="section-8"] [data-testid="mem-states"]');
      const address = embed ? 'embed.html#g64=tp8.pp2.z1&embed=grid-64' : shell ? 'shell.html' : '';
      await page.goto(`${lab.baseUrl}${address}`, { waitUntil: 'load' });
      await page.waitForFunction(
        ({ embed, shell }) =>
          (shell || window.__interactiveAt !== undefined) &&
          (embed || shell || window.__drawnAt !== undefined) &&
          performance.getEntriesByName('first-contentful-paint').length > 0,
        { embed, shell },
        { timeout: 60_000 },
      );
      const [paint, ready, all] = await page.evaluate(() => [
        performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        window.__interactiveAt ?? NaN,
        window.__drawnAt ?? NaN,
      ]);
      fcp.push(paint);
      interactive.push(ready);
      drawn.push(all);
      await context.close();
    }
    const median = (xs) => percentile(xs, 50);
    return { slowdown, runs, embed, shell, fcp: median(fcp), interactive: median(interactive), drawn: median(drawn), fcpAll: fcp, interactiveAll: interactive, drawnAll: drawn };
  } finally {
    await lab.close();
  }
}

/**
 * gzip -9 of each file a page of `dist` loads: the page, what it names, and the service worker.
 * `later`: a split module (scripts/split.mjs), fetched when the page draws its part, after the
 * first frame; the page waits for the others.
 */
export async function sizes(page, dist = DIST) {
  const html = await readFile(path.join(dist, page), 'utf8');
  const named = [...html.matchAll(/\.\/([^"'#?\s]+\.(?:wasm|js|css))/g)].map((m) => m[1]);
  const split = new Set(
    [...html.matchAll(/data-split-modules="([^"]*)"/g)].flatMap((m) => m[1].split(' ').map((f) => f.replace(/^\.\//, ''))),
  );
  const files = [...new Set([page, ...named, 'sw.js'])].sort();
  const rows = [];
  for (const file of files) {
    const body = await readFile(path.join(dist, file));
    rows.push({ file, raw: body.length, gzip: gzipSync(body, { level: zlib.Z_BEST_COMPRESSION }).length, later: split.has(file) });
  }
  return rows;
}

