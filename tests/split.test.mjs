// Split modules (issue 53, item 2). Each page's wasm is cut at its split points
// (web/src/state/split.rs, scripts/split.mjs): the module a page waits for holds its first
// screen; each part drawn after the first frame (the lesson's sections below its grids, every
// grid's charts and "check on a GPU") comes from a split module the page fetches when it draws
// that part.
// - the build: every page names its loader and its split modules, all there; the page
//   preloads the loader (its module imports it) and no split module;
// - with every split module held back, each page mounts and its grid answers a slider with the
//   CLI's figures; released, every part is drawn, from the modules the page names; the embed's
//   chart and table widgets too;
// - "more controls" come from their module when opened (on an embedded grid, where its link
//   names one of them);
// - the lesson's first-screen sentences are in its HTML and a split module, not in the module
//   the page waits for, and the page draws them from its HTML;
// - a panel opened and closed before its module came does not hold back `data-drawn`;
// - a split module that does not arrive leaves a note and a button, and the button draws the
//   part once the network is back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DESKTOP, DIST, labForFile, settleAndCheck, waitForApp, watchProblems } from './harness.mjs';
import { START, agree, keyboardTo, selectCard, sliderOf } from './drive.mjs';

const lab = labForFile();

/** Every entry point, and a link that draws parts from split modules on it. */
const PAGES = [
  { file: 'index.html', link: '', gpus: 8 },
  { file: 'rl.html', link: 'rl.html', gpus: 8 },
  { file: 'plan.html', link: 'plan.html', gpus: 8 },
  { file: 'embed.html', link: 'embed.html#embed=grid-64&parts=grid,figures,estimate,traffic,chart-memory,chart-bubble', gpus: 64 },
];

/** A built page's split loader and split modules, as its HTML names them. */
function splitOf(file) {
  const html = readFileSync(path.join(DIST, file), 'utf8');
  const loaders = [...html.matchAll(/<link rel="modulepreload" href="\.\/([^"]+)"[^>]*data-split-modules="([^"]*)"[^>]*>/g)];
  assert.equal(loaders.length, 1, `${file}: one split loader`);
  const [, loader, list] = loaders[0];
  const modules = list.split(' ').map((name) => name.replace(/^\.\//, ''));
  return { html, loader, modules };
}

test('every page names its split loader and modules; the loader is preloaded, no module is', () => {
  for (const { file } of PAGES) {
    const { html, loader, modules } = splitOf(file);
    assert.ok(modules.length > 0, `${file}: split modules`);
    const loaderText = readFileSync(path.join(DIST, loader), 'utf8');
    for (const name of modules) {
      const bytes = readFileSync(path.join(DIST, name));
      assert.deepEqual([...bytes.subarray(0, 4)], [0, 0x61, 0x73, 0x6d], `${name} is a wasm module`);
      assert.ok(loaderText.includes(`"./${name}"`), `${loader} fetches ${name}`);
      assert.ok(!html.includes(`href="./${name}"`), `${file} does not preload ${name}`);
    }
    const main = html.match(/<link rel="modulepreload" href="\.\/([^"]+\.js)"/)[1];
    assert.notEqual(main, loader, `${file}: the page's module is preloaded first`);
    assert.ok(readFileSync(path.join(DIST, main), 'utf8').includes(`from "./${loader}"`), `${main} imports ${loader}`);
  }
});

/**
 * A page at `link` whose split modules (those `file` names) are held back until `release()`;
 * `fail(url)` says which requests fail instead (the network down for them).
 */
async function withSplitHeld(file, link, fail = () => false) {
  const { modules } = splitOf(file);
  const context = await lab.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchProblems(page);
  const asked = [];
  let release;
  const released = new Promise((resolve) => {
    release = resolve;
  });
  const pattern = new RegExp(`/(${modules.map((m) => m.replace(/[.]/g, '\\.')).join('|')})$`);
  await page.route(pattern, async (route) => {
    const url = route.request().url();
    asked.push(url.slice(url.lastIndexOf('/') + 1));
    if (fail(url)) return route.abort('internetdisconnected');
    await released;
    return route.continue();
  });
  await page.goto(`${lab.baseUrl}${link}`, { waitUntil: 'domcontentloaded' });
  return { page, context, problems, modules, asked, release };
}

/** Waits until every later part is drawn (an embedded widget has no such signal: its charts). */
async function allDrawn(page, embedded) {
  if (embedded) {
    await page.locator('.grid-lab-charts canvas').first().waitFor({ state: 'attached', timeout: 30_000 });
  } else {
    await page.waitForFunction(() => document.documentElement.dataset.drawn === 'all', null, { timeout: 30_000 });
  }
}

for (const { file, link, gpus } of PAGES) {
  test(`${file}: answers with its split modules held back, then draws every part from them`, async () => {
    const { page, context, problems, modules, asked, release } = await withSplitHeld(file, link);
    const embedded = file === 'embed.html';
    await waitForApp(page);
    const section = embedded ? page.getByTestId('embed-root') : page.getByTestId(`section-${gpus}`);
    const tp = sliderOf('tp', gpus);
    const start = START[gpus];
    await selectCard(section, gpus, 1);
    await keyboardTo(section, tp, tp.positionOf(2));
    await agree(section, { ...start, tp: 2 }, 1, `${file}: TP 2 by keys, every split module held back`);
    assert.equal(await page.locator('.grid-lab-charts canvas').count(), 0, 'no chart before its module is there');
    if (!embedded) assert.notEqual(await page.evaluate(() => document.documentElement.dataset.drawn), 'all');

    release();
    await allDrawn(page, embedded);
    assert.ok(await page.locator('.grid-lab-charts canvas').count() > 0, 'the charts, from their module');
    if (file === 'index.html') {
      for (const id of ['section-real', 'section-decisions', 'table-8', 'table-64']) {
        assert.equal(await page.getByTestId(id).count(), 1, `${id}, from its module`);
      }
    }
    assert.ok(asked.length > 0 && asked.every((name) => modules.includes(name)), `${file} fetched ${asked.join(', ')}`);
    // "More controls": closed on the lesson, none of them named by the embed's link.
    assert.ok(!asked.some((name) => name.includes('split_more_controls')), `${file} fetched the controls' module: ${asked.join(', ')}`);
    // The figures still agree after the parts arrived (nothing reset the plan).
    await agree(section, { ...start, tp: 2 }, 1, `${file}: after the split modules`);
    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}

for (const widget of ['chart-memory-64', 'table-8']) {
  test(`embed.html#embed=${widget}: the widget is drawn from its split module`, async () => {
    const { page, context, problems, asked, release } = await withSplitHeld('embed.html', `embed.html#embed=${widget}`);
    await waitForApp(page);
    const drawn = page.getByTestId('embed-root').locator('canvas, table');
    assert.equal(await drawn.count(), 0, 'nothing drawn before its module is there');
    release();
    await drawn.first().waitFor({ state: 'attached', timeout: 30_000 });
    assert.ok(asked.length > 0, 'its module was fetched');
    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}

test('"more controls" come from their module when opened, or where an embed\'s link names one', async () => {
  const { page, context, problems, asked, release } = await withSplitHeld('index.html', '');
  await waitForApp(page);
  const section = page.getByTestId('section-8');
  await section.getByTestId('more-controls-toggle').click();
  assert.equal(await section.getByTestId('select-model').count(), 0, 'no control before its module is there');
  release();
  await section.getByTestId('select-model').waitFor({ state: 'visible' });
  assert.ok(asked.some((name) => name.includes('split_more_controls')), `fetched ${asked.join(', ')}`);
  await settleAndCheck(page, problems, assert);
  await context.close();

  const embedded = await withSplitHeld('embed.html', 'embed.html#embed=grid-8&controls=tp,model');
  await waitForApp(embedded.page);
  const root = embedded.page.getByTestId('embed-root');
  await root.getByTestId('slider-tp').waitFor();
  assert.equal(await root.getByTestId('select-model').count(), 0, 'no model picker before its module is there');
  embedded.release();
  await root.getByTestId('select-model').waitFor({ state: 'visible' });
  assert.ok(embedded.asked.some((name) => name.includes('split_more_controls')), `fetched ${embedded.asked.join(', ')}`);
  await settleAndCheck(embedded.page, embedded.problems, assert);
  await embedded.context.close();
});

test('the lesson\'s rollout card figure comes from its module, the first time a plan has engines', async () => {
  const { page, context, problems, asked, release } = await withSplitHeld('index.html', '');
  await waitForApp(page);
  const section = page.getByTestId('section-8');
  assert.equal(await section.getByTestId('rollout-figure').count(), 0, 'no rollout figure for a plan without engines');
  assert.ok(!asked.some((name) => name.includes('split_rollout_figure')), `fetched at the defaults: ${asked.join(', ')}`);
  // A link typed into the address bar of the open lesson: the page applies it where it is
  // (a link opened afresh with engines lands on the RL page, SPEC §15).
  const asking = page.waitForRequest((request) => request.url().includes('split_rollout_figure'));
  await page.evaluate(() => { window.location.hash = 'g8=rollout'; });
  await asking;
  assert.equal(await section.getByTestId('rollout-figure').count(), 0, 'no rollout figure before its module is there');
  release();
  await section.getByTestId('rollout-figure').waitFor({ state: 'visible', timeout: 30_000 });
  assert.ok(asked.some((name) => name.includes('split_rollout_figure')), `fetched ${asked.join(', ')}`);
  assert.ok(Number(await section.getByTestId('rollout-engines').getAttribute('data-count')) > 0, 'its engines');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

/** `text` as the HTML writes it, read back. */
const unescape = (text) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&#x27;/g, "'").replace(/&amp;/g, '&');

/** The sentences of `file`'s first screens (`<span data-prose>`, web/src/kit/prose.rs): key → { zh, en }. */
function proseOf(file) {
  const html = readFileSync(path.join(DIST, file), 'utf8');
  const sentences = {};
  for (const screen of html.split('class="first-screen"').slice(1)) {
    const lang = screen.match(/^[^>]*data-lang="([^"]+)"/)[1].startsWith('zh') ? 'zh' : 'en';
    for (const [, key, text] of screen.matchAll(/<span data-prose="([^"]+)">([^<]*)<\/span>/g)) {
      sentences[key] = { ...sentences[key], [lang]: unescape(text) };
    }
  }
  return sentences;
}

test('the lesson\'s sentences travel once: in its HTML, not in the module it waits for; drawn from the HTML', async () => {
  const sentences = proseOf('index.html');
  const keys = Object.keys(sentences);
  assert.ok(keys.length >= 20, `the first screen's sentences: ${keys.join(', ')}`);
  const { html, modules } = splitOf('index.html');
  const main = readFileSync(path.join(DIST, html.match(/href="\.\/([^"]+_bg\.wasm)"/)[1]));
  const split = Buffer.concat(modules.map((name) => readFileSync(path.join(DIST, name))));
  for (const key of keys) {
    for (const lang of ['zh', 'en']) {
      const text = sentences[key][lang];
      assert.ok(text, `${key}: in the ${lang} screen`);
      assert.equal(main.indexOf(Buffer.from(text)), -1, `${key} (${lang}) is in the module the page waits for`);
      assert.notEqual(split.indexOf(Buffer.from(text)), -1, `${key} (${lang}) is in no split module`);
    }
  }
  // The page, in each language, draws every sentence as its first screen held it, and never
  // fetches the sentences' module.
  for (const lang of ['zh', 'en']) {
    const { page, context, problems, asked, release } = await withSplitHeld('index.html', lang === 'en' ? '#lang=en' : '');
    release();
    await waitForApp(page);
    const drawn = await page.locator('[data-prose]').evaluateAll((spans) =>
      spans.map((span) => [span.getAttribute('data-prose'), span.textContent]));
    assert.deepEqual(new Set(drawn.map(([key]) => key)), new Set(keys), `${lang}: every sentence drawn`);
    for (const [key, text] of drawn) assert.equal(text, sentences[key][lang], `${lang}: ${key}`);
    await allDrawn(page, false);
    assert.ok(!asked.some((name) => name.includes('split_prose')), `${lang}: fetched ${asked.join(', ')}`);
    await settleAndCheck(page, problems, assert);
    await context.close();
  }
});

test('a panel opened and closed before its module came does not hold the page back', async () => {
  const { page, context, problems, release } = await withSplitHeld('index.html', '');
  await waitForApp(page);
  // "Why?" opens a panel whose code is a split module, held back: closed again before it came.
  const why = page.getByTestId('section-8').getByTestId('explain-mem-states');
  await why.click();
  assert.equal(await why.getAttribute('aria-expanded'), 'true');
  await why.click();
  assert.equal(await why.getAttribute('aria-expanded'), 'false');
  release();
  await allDrawn(page, false);
  assert.equal(await page.getByTestId('explanation').count(), 0, 'the closed panel stays closed');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('a split module that does not arrive leaves a note; "try again" draws its part', async () => {
  let down = true;
  const { page, context, problems, release } = await withSplitHeld('index.html', '', () => down);
  release();
  await waitForApp(page);
  const notes = page.locator('.later-failed');
  await notes.first().waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await notes.first().innerText(), /没有载入/);
  assert.equal(await page.getByTestId('section-decisions').count(), 0, 'no part drawn without its module');
  // The sliders still answer: only the parts below are missing.
  const section = page.getByTestId('section-8');
  const pp = sliderOf('pp', 8);
  await selectCard(section, 8, 0);
  await keyboardTo(section, pp, pp.positionOf(2));
  await agree(section, { ...START[8], pp: 2 }, 0, 'PP 2 with the split modules down');

  down = false;
  while ((await notes.count()) > 0) {
    await notes.first().getByRole('button').click();
  }
  await allDrawn(page, false);
  assert.equal(await page.getByTestId('section-decisions').count(), 1, 'part four, after trying again');
  assert.ok(await page.locator('.grid-lab-charts canvas').count() > 0, 'the charts, after trying again');
  // Only the failed fetches themselves were reported.
  const others = problems.filter((p) => !/internetdisconnected|ERR_INTERNET_DISCONNECTED|Failed to fetch|TypeError|NetworkError/.test(p));
  assert.deepEqual(others, []);
  await context.close();
});
