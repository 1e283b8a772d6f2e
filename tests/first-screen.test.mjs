// The first screen before the wasm (issue 53, item 1). Each page's HTML holds its first screen,
// rendered at build time by the same components the wasm draws with (scripts/first-screen.mjs,
// web/src/bin/prerender.rs):
// - with JavaScript off it reads: the title, both grids, their controls and every figure, the
//   CLI's for the page's starting plans;
// - with the wasm held back, the figures on screen are already the CLI's, in the link's
//   language, and a link no screen was drawn for shows the loading line instead;
// - when the wasm arrives it takes over without a jump: every element with a test id in the
//   first viewport stays where it was, to the half pixel;
// - what a student did before that (a card clicked, a slider moved by keys, the focus) is kept,
//   shown as waiting, and done once the wasm is there;
// - the embed's grid widgets are there before their wasm too, compact, and take over alike.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, labForFile, settleAndCheck, visibleText, waitForApp, watchProblems } from './harness.mjs';
import { START, agree, differences, expected, shown, sliderOf } from './drive.mjs';

const lab = labForFile();

/**
 * A page at `address` whose wasm is held back until `release()` (the JS and HTML arrive as
 * usual), with every CSP violation recorded in `window.__violations`.
 */
async function heldPage(address, options = DESKTOP) {
  const context = await lab.browser.newContext(options);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective}: ${e.sample || e.blockedURI}`));
  });
  let release;
  const released = new Promise((resolve) => {
    release = resolve;
  });
  await page.route('**/*.wasm', async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`${lab.baseUrl}${address}`, { waitUntil: 'domcontentloaded' });
  return { page, context, problems, release };
}

/**
 * How a grid at its starting plan differs from the CLI's figures for it: every figure, and no
 * group lit (no card is selected at the start).
 */
async function atStart(section, gpus) {
  return differences(await shown(section), { ...expected(START[gpus], 0), groups: {} });
}

/** A locator's text, white space collapsed (without waiting for frames: page scripts may be off). */
const textOf = async (locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();

/** The first screen shown, as a locator (exactly one may be). */
async function shownScreen(page) {
  const screens = page.locator('.first-screen');
  const visible = [];
  for (let i = 0; i < (await screens.count()); i++) {
    if (await screens.nth(i).evaluate((e) => [...e.children].some((c) => c.getClientRects().length > 0))) visible.push(i);
  }
  assert.equal(visible.length, 1, `one first screen is shown (shown: ${visible})`);
  return screens.nth(visible[0]);
}

/** Each test id's boxes (document coordinates) among the elements of `root` in the first viewport. */
function boxes(root) {
  return root.evaluate((scope) => {
    const out = {};
    for (const e of scope.querySelectorAll('[data-testid]')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.bottom < 0 || r.top > innerHeight) continue;
      const key = e.dataset.testid;
      // The height only of what ends in the viewport: below it, the parts drawn after the
      // first frame (charts, later sections) grow their sections by design.
      const height = r.bottom <= innerHeight ? r.height : null;
      (out[key] ??= []).push([r.x + scrollX, r.y + scrollY, r.width, height].map((v) => (v === null ? null : Math.round(v * 2) / 2)));
    }
    return out;
  });
}

/**
 * Each field's state under `root` by its id (else its test id), the first of each: value,
 * checked, and each details' open.
 */
function fields(root) {
  return root.evaluate((scope) => {
    const out = {};
    for (const e of scope.querySelectorAll('input, select, textarea, details')) {
      // A copy's own ids (scripts/first-screen.mjs) are the app's with a suffix.
      const id = e.id.replace(/--screen-\d+$/, '') || e.dataset.testid || e.tagName;
      if (id in out) continue;
      if (e.tagName === 'DETAILS') out[id] = `open ${e.open}`;
      else if (e.type === 'checkbox' || e.type === 'radio') out[id] = `checked ${e.checked}`;
      else out[id] = JSON.stringify(e.value);
    }
    return out;
  });
}

/**
 * How the ids of the document and the references of `root`'s copy stand: ids repeated in the
 * document, references (`for`, `aria-labelledby`, …) that resolve outside `root` or nowhere
 * (but a closed panel's), and form fields with no accessible name from a label.
 */
function names(root) {
  return root.evaluate((scope) => {
    const seen = new Map();
    for (const e of document.querySelectorAll('[id]')) seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
    const repeated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    const elsewhere = [];
    const references = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls'];
    for (const e of scope.querySelectorAll(references.map((name) => `[${name}]`).join(', '))) {
      for (const name of references) {
        for (const id of (e.getAttribute(name) ?? '').split(/\s+/).filter(Boolean)) {
          const target = document.getElementById(id);
          // A closed explanation's panel is drawn once opened (aria-expanded="false").
          const closed = name === 'aria-controls' && e.getAttribute('aria-expanded') === 'false';
          if (target ? !scope.contains(target) : !closed) elsewhere.push(`${name}=${id}`);
        }
      }
    }
    const unnamed = [...scope.querySelectorAll('input, select, textarea')]
      .filter((e) => e.type !== 'hidden' && e.labels?.length === 0 && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))
      .map((e) => e.dataset.testid ?? e.id);
    return { repeated, elsewhere, unnamed };
  });
}

/**
 * Asserts the app, once mounted, draws each of `before`'s boxes where the first screen did,
 * and holds each field as it held it (`fieldsBefore`, the first screen's `fields`).
 */
async function sameBoxes(page, before, what, fieldsBefore) {
  const now = await fields(page.locator('body'));
  const fieldsAfter = Object.fromEntries(Object.keys(fieldsBefore).map((id) => [id, now[id]]));
  assert.deepEqual(fieldsAfter, fieldsBefore, `${what}: every control holds what the first screen showed`);
  const after = await boxes(page.locator('body'));
  const moved = [];
  for (const [id, list] of Object.entries(before)) {
    const now = after[id] ?? [];
    list.forEach((box, i) => {
      const b = now[i];
      if (!b || box.some((v, k) => v !== null && Math.abs(v - b[k]) > 0.5)) moved.push(`${id}[${i}]: ${JSON.stringify(box)} → ${JSON.stringify(b ?? null)}`);
    });
  }
  assert.ok(Object.keys(before).length >= 10, `${what}: the first viewport holds figures (${Object.keys(before).join(', ')})`);
  assert.deepEqual(moved, [], `${what}: nothing moves when the wasm takes over`);
}

for (const [entry, title] of [
  ['', '并行实验室：给锚点配一套并行方案'],
  ['rl.html', null],
  ['plan.html', '并行实验室：规划器'],
]) {
  test(`${entry || 'index.html'} with JavaScript off: the first screen reads, its grids at the CLI's figures`, async () => {
    // Tall enough for both grids at once: a section far below is rendered only near the
    // viewport (content-visibility), and without page scripts nothing scrolls it there.
    const context = await lab.browser.newContext({ viewport: { width: 1280, height: 8000 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${lab.baseUrl}${entry}`, { waitUntil: 'load' });
    const screen = await shownScreen(page);
    const h1 = await textOf(screen.locator('h1'));
    if (title) assert.equal(h1, title);
    else assert.match(h1, /^并行实验室：/);
    assert.ok(await page.locator('noscript').count() === 1);
    // The lesson's 64-card grid is below its first screen: its part's text is in the HTML,
    // the grid itself is drawn by the wasm after its first frame. The other pages show both.
    const grids = entry === '' ? [8] : [8, 64];
    if (entry === '') {
      const part = screen.getByTestId('section-64');
      assert.ok(await part.locator('h2').isVisible(), 'the 64-card part\'s heading reads');
      assert.equal(await part.getByTestId('grid-64').count(), 0, 'the 64-card grid is not in the lesson\'s HTML');
    }
    for (const gpus of grids) {
      const section = screen.getByTestId(`section-${gpus}`);
      assert.equal(await section.getByTestId(`grid-${gpus}`).locator('[data-testid^="card-"]').count(), gpus, `${gpus} cards drawn`);
      for (const field of ['tp', 'pp', 'micro_batches']) {
        assert.ok(await section.getByTestId(sliderOf(field, gpus).testId).isVisible(), `${gpus}-card grid: the ${field} slider is there`);
      }
      assert.deepEqual(await atStart(section, gpus), [], `${gpus}-card grid: the first screen's figures are the CLI's`);
    }
    await context.close();
  });
}

test('before the wasm: the link\'s language, the loading line for a link with a plan, no CSP violation', async () => {
  const english = await heldPage('#lang=en');
  const screen = await shownScreen(english.page);
  assert.equal(await visibleText(screen.locator('h1')), 'Parallel Lab: a parallel plan for the anchor model');
  assert.deepEqual(await atStart(screen.getByTestId('section-8'), 8), [], 'the English first screen\'s figures');
  assert.equal(await english.page.getByTestId('first-screen-loading').isVisible(), false);
  assert.deepEqual(await english.page.evaluate(() => window.__violations), [], 'the first screen\'s styles are allowed by the page\'s policy');
  assert.deepEqual(await names(screen), { repeated: [], elsewhere: [], unnamed: [] }, 'each label and ARIA reference of the English copy names its own element');
  english.release();
  await waitForApp(english.page);
  await english.context.close();

  const planned = await heldPage('#g8=tp2');
  await planned.page.getByTestId('first-screen-loading').waitFor({ state: 'visible' });
  assert.equal(await visibleText(planned.page.getByTestId('first-screen-loading')), '设备网格正在载入……');
  for (let i = 0; i < (await planned.page.locator('.first-screen').count()); i++) {
    assert.equal(await planned.page.locator('.first-screen').nth(i).evaluate((e) => [...e.children].some((c) => c.getClientRects().length > 0)), false, 'no first screen is shown for a plan it was not drawn at');
  }
  planned.release();
  await waitForApp(planned.page);
  assert.equal(await planned.page.getByTestId('first-screen-loading').count(), 0, 'the loading line goes with the first screen');
  await settleAndCheck(planned.page, planned.problems, assert);
  await planned.context.close();
});

test('the wasm takes over the lesson without a jump, and does what was clicked and keyed before', async () => {
  const { page, context, problems, release } = await heldPage('');
  const screen = await shownScreen(page);
  const before = await boxes(screen);
  assert.equal(await page.getByTestId('first-screen-wait').isVisible(), false, 'no waiting note before anything is done');

  // A student clicks card 3 and moves TP one step by keys before the wasm is there.
  const section = screen.getByTestId('section-8');
  await section.getByTestId('grid-8').getByTestId('card-3').click();
  const tp = section.getByTestId(sliderOf('tp', 8).testId);
  await tp.focus();
  const from = Number(await tp.inputValue());
  await page.keyboard.press('ArrowRight');
  assert.equal(Number(await tp.inputValue()), from + 1, 'the first screen\'s TP slider moved one step natively (TP 1 → 2)');
  await page.getByTestId('first-screen-wait').waitFor({ state: 'visible' });
  assert.match(await visibleText(page.getByTestId('first-screen-wait')), /已记下/);
  // The figures have not moved yet: the first screen computes nothing.
  assert.deepEqual((await atStart(section, 8)).filter((d) => !/^card groups/.test(d)), [], 'the first screen still shows the starting plan');

  release();
  await waitForApp(page);
  const app = page.getByTestId('section-8');
  // Then: TP 2 with card 3 selected, the focus back on the TP slider, the note gone.
  await agree(app, { ...START[8], tp: 2 }, 3, 'what was done before the wasm, done once it is there');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), sliderOf('tp', 8).testId, 'the focus is where the student left it');
  assert.equal(await page.getByTestId('first-screen-wait').count(), 0, 'the waiting note is gone');
  await settleAndCheck(page, problems, assert);
  await context.close();

  // Untouched, every figure of the first viewport stays where it was drawn.
  const quiet = await heldPage('');
  const quietScreen = await shownScreen(quiet.page);
  const first = await boxes(quietScreen);
  const held = await fields(quietScreen);
  quiet.release();
  await waitForApp(quiet.page);
  await sameBoxes(quiet.page, first, 'the lesson', held);
  assert.deepEqual(Object.keys(first).sort(), Object.keys(before).sort(), 'the same first viewport each time');
  await settleAndCheck(quiet.page, quiet.problems, assert);
  await quiet.context.close();
});

for (const entry of ['rl.html', 'plan.html']) {
  test(`${entry}: the wasm takes over without a jump`, async () => {
    const { page, context, problems, release } = await heldPage(entry);
    const screen = await shownScreen(page);
    const first = await boxes(screen);
    const held = await fields(screen);
    release();
    await waitForApp(page);
    await sameBoxes(page, first, entry, held);
    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}

for (const [widget, lang] of [['grid-8', 'zh'], ['grid-64', 'en']]) {
  test(`embed.html#embed=${widget} (${lang}): the widget is there before its wasm, compact, and taken over in place`, async () => {
    const fragment = `embed=${widget}${lang === 'en' ? '&lang=en' : ''}`;
    const { page, context, problems, release } = await heldPage(`embed.html#${fragment}`, { viewport: { width: 800, height: 900 } });
    const screen = await shownScreen(page);
    const gpus = widget === 'grid-8' ? 8 : 64;
    assert.ok(await page.evaluate(() => document.documentElement.classList.contains('embedded-page')), 'drawn as an embedded widget from the start');
    // The widget draws the grid and its figures: each the CLI's.
    const report = expected(START[gpus], 0).report;
    const figures = screen.getByTestId(`section-${gpus}`);
    assert.equal(Number(await figures.getByTestId('mem-total').getAttribute('data-bytes')), report.memory.total, 'the memory total before the wasm');
    assert.equal(await textOf(figures.getByTestId('derived-dp')), String(report.dp), 'DP before the wasm');
    assert.equal(await figures.getByTestId(`grid-${gpus}`).locator('[data-card]').count(), gpus);
    const grid = screen.getByTestId(`grid-${gpus}`);
    assert.ok(await grid.evaluate((e) => e.closest('.compact') !== null || e.querySelector('.compact') !== null), 'drawn compact, as an embedded grid is');
    assert.deepEqual(await names(screen), { repeated: [], elsewhere: [], unnamed: [] }, 'each label and ARIA reference names its own copy\'s element');
    const first = await boxes(screen);
    const held = await fields(screen);
    release();
    await waitForApp(page);
    await sameBoxes(page, first, `the ${widget} widget`, held);
    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}
