// Where a link lands (the core's link::landing; its first step in assets/landing.js, the rest
// in each entry point's wasm): a link that names a widget (`embed=grid-64`) opens that widget
// alone at embed.html, whichever entry point (or the folder) it was opened at; a plan with CPU
// Adam or rollout engines opens the RL page, one with a model of one's own the planner, a
// section the lesson; any other link stays on the page it was opened at (embed.html sends it
// to the lesson). Every malformed `embed=` value, opened at each entry point, is sent on at
// most once, draws a page and names what was ignored in the notice; a valid one draws its
// widget. The script is checked against the core over random links natively
// (web/src/state/landing.rs), the rule itself in the core (link/landing.rs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP, labForFile, visibleText, waitForApp, waitForGrids, watchProblems } from './harness.mjs';

/** A config.json to paste: Llama 3 8B's, as the core's tests keep it. */
const LLAMA_CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'crates', 'parallel-core', 'tests', 'fixtures', 'hf', 'llama3-8b.json');

const lab = labForFile();

// The ways into the lab: the folder (old snippets, `…/#embed=…`) and the four files.
const ENTRIES = ['', 'index.html', 'embed.html', 'rl.html', 'plan.html'];

/** The page each entry point's file shows a link without other needs on (`data-entry`). */
const PAGE_OF = { 'index.html': 'lesson', 'embed.html': 'lesson', 'rl.html': 'rl', 'plan.html': 'plan' };

// `embed=` values a link may carry by mistake, as written in the address (percent-encoded
// where a browser would encode them), with the text the notice quotes.
const MALFORMED = [
  { value: '', quoted: 'embed=' },
  { value: 'nonsense', quoted: 'embed=nonsense' },
  { value: 'GRID-64', quoted: 'embed=GRID-64' },
  { value: 'grid-64x', quoted: 'embed=grid-64x' },
  { value: 'grid-64.tp8', quoted: 'embed=grid-64.tp8' },
  { value: 'grid-64%00', quoted: 'embed=grid-64' },
  { value: 'grid-64%3Cscript%3Ealert(1)%3C/script%3E', quoted: 'embed=grid-64<script>' },
  { value: '%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', quoted: 'embed=<img src=x' },
  { value: 'javascript:alert(1)', quoted: 'embed=javascript:alert(' },
  { value: '%FF%FE', quoted: 'embed=\ufffd\ufffd' },
];

/**
 * Opens `url` in a fresh context and records every document the page loads (the first
 * included) and every dialog. Resolves to `{ page, context, problems, navigations, dialogs }`.
 */
async function open(url) {
  const context = await lab.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchProblems(page);
  const navigations = [];
  const dialogs = [];
  // What the first document asked for before the next one took its place: a redirect leaves
  // it, cutting off what is still loading.
  const first = new Set();
  let committed = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) committed += 1;
  });
  // Documents loaded into the page (same-document changes of the address are not loads).
  page.on('request', (request) => {
    const navigation = request.isNavigationRequest() && request.frame() === page.mainFrame();
    if (navigation) navigations.push(new URL(request.url()).pathname.split('/').pop());
    // The first document itself, and what it asks for before the next one takes its place.
    if (navigation ? navigations.length === 1 : committed <= 1) first.add(request.url());
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, context, problems, navigations, dialogs, first };
}

/**
 * Waits until the page has nothing more to load, then checks what went wrong on it. A
 * document left for another entry point may be cut off while it, or what it asked for (its
 * icon), still loads (whether it is depends on the machine's speed): those aborts are the
 * redirect itself, not a problem.
 */
async function settled({ page, problems, navigations, dialogs, first }, what) {
  await page.waitForLoadState('networkidle');
  assert.ok(navigations.length <= 2, `${what}: at most one redirect, saw ${navigations.join(' → ')}`);
  assert.deepEqual(dialogs, [], `${what}: no dialog`);
  const left = navigations.length === 2 ? [...first] : [];
  const real = problems.filter((p) => !left.some((url) => p === `request failed: ${url} (net::ERR_ABORTED)`));
  assert.deepEqual(real, [], `${what}: console errors, page errors or failed requests`);
}

test('a malformed embed= value, at either entry point, lands on the whole page once, drawn, with a notice naming it', async () => {
  // Every file (the folder serves index.html itself: the next test opens it too).
  for (const entry of ['index.html', 'embed.html', 'rl.html', 'plan.html']) {
    for (const { value, quoted } of MALFORMED) {
      // With other broken parts too, once per entry point (the issue's own example).
      const fragments = [`embed=${value}`, ...(value === 'nonsense' ? [`card=1e309&lang=xx&embed=${value}`] : [])];
      for (const fragment of fragments) {
        const what = `${entry || './'}#${fragment}`;
        const opened = await open(`${lab.baseUrl}${entry}#${fragment}`);
        const { page } = opened;
        await waitForGrids(page);
        assert.equal(await page.locator('html').getAttribute('data-entry'), PAGE_OF[entry], `${what}: a page`);
        assert.equal(await page.getByTestId('section-64').locator('[data-card]').count(), 64, `${what}: the grid is drawn`);
        const notice = await visibleText(page.getByTestId('link-notice'));
        assert.ok(notice.includes(quoted), `${what}: the notice names ${JSON.stringify(quoted)}: ${notice}`);
        if (fragment.startsWith('card=')) {
          for (const part of ['card=1e309', 'lang=xx']) assert.ok(notice.includes(part), `${what}: names ${part}`);
        }
        // The page writes the link back in its own form, without what it ignored.
        await page.waitForFunction(() => !location.hash.includes('embed='));
        await settled(opened, what);
        // Sent on at most once, and only from embed.html (which such a link does not belong to).
        assert.deepEqual(opened.navigations, entry === 'embed.html' ? ['embed.html', 'index.html'] : [entry], what);
        await opened.context.close();
      }
    }
  }
});

test('a link naming a widget opens it alone at embed.html, from any entry point, sent on at most once', async () => {
  for (const entry of ENTRIES) {
    for (const fragment of ['g64=tp8.pp2&embed=grid-64', 'embed=%20table-8%20&lang=en']) {
      const what = `${entry || './'}#${fragment}`;
      const opened = await open(`${lab.baseUrl}${entry}#${fragment}`);
      const { page } = opened;
      await waitForApp(page);
      const root = page.getByTestId('embed-root');
      await root.locator('[data-testid^="section-"]').waitFor();
      assert.equal(await page.locator('html').getAttribute('data-entry'), 'embed', `${what}: the widget's entry point`);
      assert.equal(await page.getByTestId('link-notice').count(), 0, `${what}: nothing ignored`);
      if (fragment.includes('grid-64')) {
        await root.getByTestId('mem-states').waitFor();
        assert.equal(await root.getByTestId('slider-pp').inputValue(), '2');
      } else {
        await root.getByTestId('table-8').waitFor();
        assert.equal(await page.locator('html').getAttribute('lang'), 'en');
      }
      await settled(opened, what);
      assert.deepEqual(opened.navigations, entry === 'embed.html' ? ['embed.html'] : [entry, 'embed.html'], what);
      await opened.context.close();
    }
  }
});

test('old links land where their content now lives: CPU Adam on the RL page, a section on the lesson, once', async () => {
  const cases = [
    { at: 'index.html', fragment: 'g8=cpuadam.tp2&c8=1', to: 'rl.html', entry: 'rl' },
    { at: 'embed.html', fragment: 'g64=tp8.pp8.cpuadam', to: 'rl.html', entry: 'rl' },
    { at: 'plan.html', fragment: 'g8=cpuadam', to: 'rl.html', entry: 'rl' },
    { at: 'plan.html', fragment: 'g64=tp8.pp8&sec=part-two', to: 'index.html', entry: 'lesson' },
    { at: 'rl.html', fragment: 'sec=part-four&lang=en', to: 'index.html', entry: 'lesson' },
  ];
  for (const { at, fragment, to, entry } of cases) {
    const what = `${at}#${fragment}`;
    const opened = await open(`${lab.baseUrl}${at}#${fragment}`);
    await waitForGrids(opened.page);
    assert.equal(await opened.page.locator('html').getAttribute('data-entry'), entry, what);
    assert.equal(await opened.page.getByTestId('link-notice').count(), 0, `${what}: nothing ignored`);
    if (fragment.includes('cpuadam')) {
      const id = fragment.startsWith('g8') ? '8' : '64';
      assert.equal(await opened.page.getByTestId(`section-${id}`).getByTestId('toggle-offload').isChecked(), true, what);
    }
    await settled(opened, what);
    assert.deepEqual(opened.navigations, [at, to], what);
    await opened.context.close();
  }
  // A model of one's own, pasted on the planner, then its link opened at the lesson (as every
  // link was written before the pages split): the planner, once.
  const planner = await open(`${lab.baseUrl}plan.html`);
  await waitForGrids(planner.page);
  const section = planner.page.getByTestId('section-8');
  await section.locator('.own-model summary').click();
  await section.getByTestId('model-config').fill(await readFile(LLAMA_CONFIG, 'utf8'));
  await section.getByTestId('model-config-apply').click();
  await planner.page.waitForFunction(() => /g8=[^&]*mdl-/.test(location.hash));
  const hash = await planner.page.evaluate(() => location.hash);
  await planner.context.close();
  const opened = await open(`${lab.baseUrl}index.html${hash}`);
  await waitForGrids(opened.page);
  assert.equal(await opened.page.locator('html').getAttribute('data-entry'), 'plan');
  assert.equal(await opened.page.getByTestId('section-8').getByTestId('select-model').inputValue(), 'custom');
  await settled(opened, `index.html${hash}`);
  assert.deepEqual(opened.navigations, ['index.html', 'plan.html']);
  await opened.context.close();
});

test('embed.html with a link that names no widget sends it to the lesson, once', async () => {
  for (const fragment of ['', 'g64=tp8.pp2&c64=0']) {
    const opened = await open(`${lab.baseUrl}embed.html${fragment ? `#${fragment}` : ''}`);
    await waitForGrids(opened.page);
    assert.equal(await opened.page.getByTestId('link-notice').count(), 0);
    assert.equal(await opened.page.evaluate(() => location.hash), fragment ? `#${fragment}` : '');
    await settled(opened, `embed.html#${fragment}`);
    assert.deepEqual(opened.navigations, ['embed.html', 'index.html']);
    await opened.context.close();
  }
});
