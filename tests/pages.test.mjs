// The three pages (issue 36): the lesson shows the lesson's controls and keeps the rest behind
// "more controls"; the RL page and the planner show their own parts and not the others'; the
// links between them carry the grids' plans, and every page's figures equal the CLI's for the
// plan it landed with.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, STUDENT, labForFile, openPage, settleAndCheck, waitForGrids } from './harness.mjs';
import { SLIDERS, START, differences, expected, fullConfig, keyboardTo, shown } from './drive.mjs';

const lab = labForFile();

/** The lesson's controls, in view on the lesson's grids. */
const LESSON_CONTROLS = ['slider-tp', 'slider-pp', 'slider-cp', 'slider-m', 'slider-seq', 'select-zero', 'select-recompute'];
/** The controls behind "more controls" on the lesson. */
const MORE_CONTROLS = ['select-model', 'select-hardware', 'select-precision', 'select-schedule', 'select-accounting'];
/** What each page shows beyond the lesson's grid, and where it must not appear. */
const OWN = {
  lesson: ['section-decisions', 'section-real'],
  rl: ['toggle-offload', 'toggle-rollout', 'table-recipes'],
  plan: ['search-panel', 'runs-table', 'model-config'],
};

test('the lesson shows the lesson\'s controls; the rest waits behind "more controls", closed', async () => {
  const { page, context, problems } = await openPage(lab);
  for (const id of [8, 64]) {
    const section = page.getByTestId(`section-${id}`);
    for (const control of LESSON_CONTROLS) {
      assert.equal(await section.getByTestId(control).isVisible(), true, `grid ${id}: ${control} in view`);
    }
    const more = section.getByTestId('more-controls');
    assert.equal(await more.evaluate((d) => d.open), false, `grid ${id}: closed at the start`);
    for (const control of MORE_CONTROLS) {
      assert.equal(await section.getByTestId(control).isVisible(), false, `grid ${id}: ${control} hidden`);
    }
    // Opened by a click on its summary, as a person does; closed the same way.
    await section.getByTestId('more-controls-toggle').click();
    for (const control of MORE_CONTROLS) await section.getByTestId(control).waitFor({ state: 'visible' });
    await section.getByTestId('more-controls-toggle').click();
    await section.getByTestId('select-model').waitFor({ state: 'hidden' });
  }
  for (const id of [...OWN.rl, ...OWN.plan]) {
    assert.equal(await page.getByTestId(id).count(), 0, `the lesson has no ${id}`);
  }
  // The exports for course authors are the planner's: the lesson's wasm leaves them out.
  assert.equal(await page.evaluate(() => typeof window.wasmBindings?.search), 'undefined');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('a guided step that sets a field behind "more controls" opens it', async () => {
  const { page, context, problems } = await openPage(lab);
  const section = page.getByTestId('section-64');
  // Part two's stage steps set memory by stage, a field behind the disclosure.
  const step = page.getByTestId('task-64-stages').locator('button');
  await step.scrollIntoViewIfNeeded();
  await step.click();
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="section-64"] [data-testid="more-controls"]').open);
  assert.equal(await section.getByTestId('select-accounting').inputValue(), 'stages');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

// A button far from its grid (a guided step's setup, a row of the lesson's table) brings the
// grid it changed into view, at the top of the viewport, on the desktop and on a phone.
test('a step\'s button and a table row\'s "load" bring the grid they change into view', async () => {
  for (const options of [DESKTOP, PHONE]) {
    const { page, context, problems } = await openPage(lab, options);
    const inView = (gpus) => page.waitForFunction((g) => {
      const r = document.querySelector(`[data-grid-view="${g}"]`).getBoundingClientRect();
      return Math.abs(r.top) < 2 && r.bottom > 0;
    }, gpus);
    const buttons = [
      [64, page.getByTestId('task-64-stages').locator('button')],
      [8, page.getByTestId('section-8').locator('[data-testid^="task-"] button').first()],
      [8, page.locator('[data-testid^="row-"] button').first()],
    ];
    for (const [gpus, button] of buttons) {
      await button.scrollIntoViewIfNeeded();
      // Where the student clicks, the grid is out of sight (or not at the top).
      assert.equal(await page.evaluate((g) => Math.abs(document.querySelector(`[data-grid-view="${g}"]`).getBoundingClientRect().top) < 2, gpus), false);
      await button.click();
      await inView(gpus);
    }
    await settleAndCheck(page, problems, assert);
    await context.close();
  }
});

for (const [entry, name] of [['rl.html', 'rl'], ['plan.html', 'plan']]) {
  test(`${entry} shows its own parts, every control in view, and not the other pages' parts`, async () => {
    const { page, context, problems } = await openPage(lab, undefined, { entry });
    assert.equal(await page.locator('html').getAttribute('data-entry'), name);
    for (const id of OWN[name]) {
      assert.ok((await page.getByTestId(id).count()) > 0, `${entry} has ${id}`);
    }
    for (const [other, ids] of Object.entries(OWN)) {
      if (other === name) continue;
      for (const id of ids) {
        if (name === 'rl' && id === 'model-config') continue; // one's own model is on both
        assert.equal(await page.getByTestId(id).count(), 0, `${entry} has no ${id}`);
      }
    }
    for (const id of [8, 64]) {
      const section = page.getByTestId(`section-${id}`);
      assert.equal(await section.getByTestId('more-controls').count(), 0, 'no disclosure');
      for (const control of [...LESSON_CONTROLS, ...MORE_CONTROLS]) {
        assert.equal(await section.getByTestId(control).isVisible(), true, `${entry} grid ${id}: ${control}`);
      }
    }
    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}

test('"open this plan in the planner", then the RL page, then "back to the lesson" carry the plan', async () => {
  const { page, context, problems } = await openPage(lab);
  const tp = SLIDERS.find((s) => s.field === 'tp');
  await keyboardTo(page.getByTestId('section-8'), tp, 2);
  await page.getByTestId('grid-8').getByTestId('card-5').click();
  const config = fullConfig({ ...START[8], tp: 2 });
  const check = async (where) => {
    const section = page.getByTestId('section-8');
    await section.getByTestId('grid-8').locator('[data-card="5"][data-selected]').waitFor();
    assert.deepEqual(differences(await shown(section), expected(config, 5)), [], where);
  };
  await page.waitForFunction(() => /g8=[^&]*tp2/.test(location.hash));
  for (const [link, to] of [['to-plan', 'plan'], ['to-rl', 'rl'], ['to-lesson', 'lesson']]) {
    await page.getByTestId(link).click();
    await page.waitForFunction((want) => document.documentElement.dataset.entry === want, to);
    await waitForGrids(page);
    assert.equal(await page.getByTestId('link-notice').count(), 0, `${to}: nothing ignored`);
    await check(`on ${to}`);
  }
  // The RL page's CPU Adam stays there: the way back to the lesson leaves it behind.
  await page.getByTestId('to-rl').click();
  await page.waitForFunction(() => document.documentElement.dataset.entry === 'rl');
  await waitForGrids(page);
  await page.getByTestId('section-8').getByTestId('toggle-offload').check();
  await page.waitForFunction(() => /g8=[^&]*cpuadam/.test(location.hash));
  await page.getByTestId('to-lesson').click();
  await page.waitForFunction(() => document.documentElement.dataset.entry === 'lesson');
  await waitForGrids(page);
  assert.ok(!(await page.evaluate(() => location.hash)).includes('cpuadam'));
  await check('back on the lesson');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('at 1,400 × 900 the first lab\'s prediction box is on the first screen, in both languages', async () => {
  const { page, context, problems } = await openPage(lab, STUDENT);
  for (const lang of ['zh', 'en']) {
    if (lang === 'en') await page.getByTestId('lang-toggle').click();
    await page.waitForFunction((l) => document.documentElement.lang.startsWith(l), lang);
    const box = await page.evaluate(() => {
      const rect = document.querySelector('[data-testid="predict-8"]').getBoundingClientRect();
      return { top: rect.top + scrollY, bottom: rect.bottom + scrollY };
    });
    assert.ok(box.bottom <= 900, `${lang}: the prediction box ends at ${box.bottom} px, below the first screen`);
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});
