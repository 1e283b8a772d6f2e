// The next step is on screen. At the size a student starts the lesson at (1,400 × 900), each
// part's "Try three things" stands right above its grid: the first step's buttons and the
// grid's TP slider are less than a screen apart. Step ① first sets up the start and reads its
// total back (the CLI's, for the lesson's opening plan), then sets up the change and reads the
// new total (the CLI's again), each time with the grid brought into view. A step's reading
// keeps its line while it does not show, so a slider moved on or off the step's plan never
// shifts the controls or the grid.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { STUDENT, openPage, settleAndCheck, startLab } from './harness.mjs';
import { START, cli, fullConfig, gb } from './drive.mjs';

let lab;
before(async () => {
  lab = await startLab();
});
after(async () => {
  await lab?.close();
});

test('each part\'s steps stand within a screen of its grid\'s controls', async () => {
  const { page, context, problems } = await openPage(lab, STUDENT, { fragment: 'lang=en' });
  for (const gpus of [8, 64]) {
    const section = page.getByTestId(`section-${gpus}`);
    const firstStep = section.locator('.tasks').first().locator('button').first();
    const slider = section.getByTestId('slider-tp');
    const [step, tp] = [await firstStep.boundingBox(), await slider.boundingBox()];
    assert.ok(step && tp, `grid-${gpus}: both drawn`);
    assert.ok(step.y < tp.y, `grid-${gpus}: the steps come before the grid (${step.y} vs ${tp.y})`);
    assert.ok(tp.y - step.y < STUDENT.viewport.height, `grid-${gpus}: ${tp.y - step.y} px from the first step to the TP slider`);
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('step ① reads the start first, then the change, each the CLI\'s total', async () => {
  const { page, context, problems } = await openPage(lab, STUDENT, { fragment: 'lang=en' });
  const section = page.getByTestId('section-8');
  const step = section.getByTestId('task-8-selective');
  const total = (config) => cli(['eval'], fullConfig(config)).ok.memory.total;
  const inView = () => page.waitForFunction(() => {
    const r = document.querySelector('[data-grid-view="8"]').getBoundingClientRect();
    return Math.abs(r.top) < 2;
  });
  const start = START[8];
  // Away from the start first (the page keeps a student's plan), so that the button has work.
  await section.getByTestId('task-8-tp8').getByRole('button').click();
  await step.getByTestId('task-8-selective-start').click();
  await inView();
  await step.locator('.task-observation').waitFor();
  const read = await step.locator('.task-observation').innerText();
  assert.ok(read.includes(gb(total(start))), `the start's total ${gb(total(start))} in "${read}"`);
  assert.equal(Number(await section.getByTestId('mem-total').getAttribute('data-bytes')), total(start));
  await step.getByTestId('task-8-selective-set').click();
  await inView();
  const changed = { ...start, recompute: 'selective' };
  await page.waitForFunction(
    (bytes) => Number(document.querySelector('[data-testid="section-8"] [data-testid="mem-total"]').getAttribute('data-bytes')) === bytes,
    total(changed),
  );
  const after = await step.locator('.task-observation').innerText();
  assert.ok(after.includes(gb(total(changed))), `the change's total ${gb(total(changed))} in "${after}"`);
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('a step\'s reading coming and going never moves the controls or the grid below it', async () => {
  const { page, context, problems } = await openPage(lab, STUDENT, { fragment: 'lang=en' });
  const section = page.getByTestId('section-8');
  const step = section.getByTestId('task-8-selective');
  // Where a box stands on the page (not in the viewport: the browser's scroll anchoring would
  // hide a shift there by scrolling along with it).
  const pageTop = (locator) => locator.evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
  await step.getByTestId('task-8-selective-set').click();
  await step.locator('.task-observation').waitFor();
  const slider = section.getByTestId('slider-m');
  const grid = section.locator('[data-grid-view="8"]');
  const [sliderAt, gridAt] = [await pageTop(slider), await pageTop(grid)];
  // Off the step's plan with the keyboard, as a student does: the reading goes.
  await slider.focus();
  await slider.press('ArrowRight');
  await step.locator('.task-observation').waitFor({ state: 'detached' });
  assert.equal(await pageTop(slider), sliderAt, 'the m slider stayed where it was');
  assert.equal(await pageTop(grid), gridAt, 'the grid stayed where it was');
  // And back onto it: the reading returns in the same line.
  await slider.press('ArrowLeft');
  await step.locator('.task-observation').waitFor();
  assert.equal(await pageTop(slider), sliderAt, 'the m slider stayed where it was, reading back');
  assert.equal(await pageTop(grid), gridAt, 'the grid stayed where it was, reading back');
  await settleAndCheck(page, problems, assert);
  await context.close();
});
