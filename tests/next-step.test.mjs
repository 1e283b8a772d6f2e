// The next step is on screen. At the size a student starts the lesson at (1,400 × 900), each
// part's "Try three things" stands right above its grid: the first step's buttons and the
// grid's TP slider are less than a screen apart. Step ① first sets up the start and reads its
// total back (the CLI's, for the lesson's opening plan), then sets up the change and reads the
// new total (the CLI's again), each time with the grid brought into view. A step keeps the
// room of its readings while they do not show, however they wrap, so a slider moved on or off
// the step's plan never changes the step's height or shifts the controls below it: every step
// of both grids, at the student's window and on a phone, in both languages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, STUDENT, labForFile, openPage, pageTest, settleAndCheck } from './harness.mjs';
import { START, cli, fullConfig, gb } from './drive.mjs';

const lab = labForFile();

pageTest('each part\'s steps stand within a screen of its grid\'s controls', lab, { options: STUDENT, fragment: 'lang=en' }, async ({ page }) => {
  for (const gpus of [8, 64]) {
    const section = page.getByTestId(`section-${gpus}`);
    const firstStep = section.locator('.tasks').first().locator('button').first();
    const slider = section.getByTestId('slider-tp');
    const [step, tp] = [await firstStep.boundingBox(), await slider.boundingBox()];
    assert.ok(step && tp, `grid-${gpus}: both drawn`);
    assert.ok(step.y < tp.y, `grid-${gpus}: the steps come before the grid (${step.y} vs ${tp.y})`);
    assert.ok(tp.y - step.y < STUDENT.viewport.height, `grid-${gpus}: ${tp.y - step.y} px from the first step to the TP slider`);
  }
});

pageTest('step ① reads the start first, then the change, each the CLI\'s total', lab, { options: STUDENT, fragment: 'lang=en' }, async ({ page }) => {
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
});

// Every step of both grids, in the student's window and on a phone, in both languages: a
// reading that wraps to two lines on a narrow screen must not move what is below it either.
for (const [name, options] of [['student', STUDENT], ['phone', PHONE]]) {
  for (const lang of ['zh', 'en']) {
    test(`a step's reading coming and going keeps the step's height and the controls' place (${name}, ${lang})`, async () => {
      const { page, context, problems } = await openPage(lab, options, { fragment: `lang=${lang}` });
      // Where a box stands on the page (not in the viewport: the browser's scroll anchoring
      // would hide a shift there by scrolling along with it).
      const pageTop = (locator) => locator.evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
      for (const gpus of [8, 64]) {
        const section = page.getByTestId(`section-${gpus}`);
        const steps = section.locator('.task');
        const count = await steps.count();
        assert.ok(count > 0, `grid-${gpus}: steps drawn`);
        for (let i = 0; i < count; i += 1) {
          const step = steps.nth(i);
          const label = `grid-${gpus}, step ${i + 1} (${name}, ${lang})`;
          await step.locator('[data-testid$="-set"]').click();
          await step.locator('.task-observation').waitFor();
          const slider = section.getByTestId('slider-m');
          // The step keeps its height, so nothing below it moves for the reading (the plan's own
          // change may still move the grid: an m the plan rejects brings the control's message).
          const height = () => step.evaluate((e) => e.getBoundingClientRect().height);
          const stepHeight = await height();
          const sliderAt = await pageTop(slider);
          // Off the step's plan with the keyboard, as a student does: the reading goes.
          const atMax = await slider.evaluate((e) => e.value === e.max);
          const [off, back] = atMax ? ['ArrowLeft', 'ArrowRight'] : ['ArrowRight', 'ArrowLeft'];
          await slider.focus();
          await slider.press(off);
          await step.locator('.task-observation').waitFor({ state: 'detached' });
          assert.equal(await height(), stepHeight, `${label}: the step kept its height`);
          assert.equal(await pageTop(slider), sliderAt, `${label}: the m slider stayed where it was`);
          // And back onto it: the reading returns in the same place.
          await slider.press(back);
          await step.locator('.task-observation').waitFor();
          assert.equal(await height(), stepHeight, `${label}: the step kept its height, reading back`);
          assert.equal(await pageTop(slider), sliderAt, `${label}: the m slider stayed where it was, reading back`);
        }
      }
      await settleAndCheck(page, problems, assert);
      await context.close();
    });
  }
}
