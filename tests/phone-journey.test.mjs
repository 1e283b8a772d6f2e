// Part one of the lesson as a student walks it on a 390 × 844 phone (issue 37), in Chinese
// (the page's first language) and then in English: every action is a tap, a finger dragged
// along a slider, or typing, and every figure read is the CLI's for the same plan.
//
// 1. The opening prediction: type a guess, tap "check"; the verdict and the computed figure
//    show inside the screen, and the figure is the CLI's model states at the start.
// 2. Step ①: "set up the start first" brings the grid into view and reads the start's total,
//    then "set it up" reads the changed total, each the CLI's.
// 3. Help opened by a tap beside "model states" sits inside the screen and closes with its
//    button.
// 4. A card tapped lights its groups; TP dragged with a finger over its whole range, the
//    whole grid (DP, memory, traffic, bubble, every card's groups) equals the CLI's at each
//    value, and a value that does not divide shows the CLI's reason at the slider.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, labForFile, openPage, settleAndCheck } from './harness.mjs';
import { START, agree, cli, controlError, fullConfig, gb, sliderOf } from './drive.mjs';

const lab = labForFile();

const frames = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Asserts that `locator`'s rectangle lies inside the phone's screen. */
async function onScreen(locator, what) {
  const box = await locator.boundingBox();
  const { width, height } = PHONE.viewport;
  assert.ok(box, `${what}: drawn`);
  assert.ok(
    box.x >= -1 && box.y >= -1 && box.x + box.width <= width + 1 && box.y + box.height <= height + 1,
    `${what}: ${JSON.stringify(box)} inside the ${width} × ${height} screen`,
  );
}

/**
 * Drags a slider with one finger as a person does: puts the finger on the thumb, slides it a
 * few pixels at a time towards `target` (a position) until the slider reads it, and lifts it.
 * `onStep` sees every position the slider passes.
 */
async function fingerTo(page, cdp, section, slider, target, onStep) {
  const input = section.getByTestId(slider.testId);
  await input.scrollIntoViewIfNeeded();
  await frames(page);
  const box = await input.boundingBox();
  const span = slider.max - slider.min;
  const position = async () => Number(await input.inputValue());
  const y = box.y + box.height / 2;
  // The thumb's centre at the current position (the thumb is inset about 8 px at each end).
  let x = box.x + 8 + ((await position()) - slider.min) / span * (box.width - 16);
  const touch = (type) => cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
  });
  await touch('touchStart');
  let last = await position();
  for (let i = 0; i < 400; i++) {
    const now = await position();
    if (now !== last) await onStep(now);
    last = now;
    if (now === target) break;
    x = Math.min(box.x + box.width - 1, Math.max(box.x + 1, x + (target > now ? 3 : -3)));
    await touch('touchMove');
  }
  await touch('touchEnd');
  assert.equal(await position(), target, `a finger moved ${slider.testId} to ${target}`);
}

for (const lang of ['zh', 'en']) {
  test(`part one on a phone (${lang}): predict, set up, open help, tap a card, drag TP`, async () => {
    const { page, context, problems } = await openPage(lab, PHONE, lang === 'en' ? { fragment: 'lang=en' } : {});
    const cdp = await context.newCDPSession(page);
    const section = page.getByTestId('section-8');
    const start = fullConfig(START[8]);
    const report = (config) => cli(['eval'], fullConfig(config)).ok;

    // 1. The prediction: a guess typed on the phone's keyboard, checked with a tap.
    const predict = section.getByTestId('predict-8');
    const input = predict.getByTestId('predict-8-input');
    await input.scrollIntoViewIfNeeded();
    await input.tap();
    const floor = report(start).memory.model_states;
    await page.keyboard.type((floor / 1e9).toFixed(0));
    await predict.getByTestId('predict-8-check').tap();
    const answer = predict.getByTestId('predict-8-answer');
    await answer.waitFor();
    assert.equal(Number(await answer.getAttribute('data-bytes')), floor, 'the computed figure is the CLI\'s model states');
    assert.equal(await answer.innerText(), gb(floor));
    assert.equal(await predict.locator('.prediction-result.right').count(), 1, 'a guess within 5% is right');
    await predict.locator('.prediction-result').scrollIntoViewIfNeeded();
    await onScreen(predict.locator('.prediction-result'), 'the verdict');

    // 2. Step ①: the start first, then the change; each tap brings the grid into view.
    const step = section.getByTestId('task-8-selective');
    const gridInView = () => page.waitForFunction(() => {
      const r = document.querySelector('[data-grid-view="8"]').getBoundingClientRect();
      return Math.abs(r.top) < 2;
    });
    await step.getByTestId('task-8-selective-start').tap();
    await gridInView();
    await step.locator('.task-observation').waitFor();
    const startTotal = report(start).memory.total;
    assert.ok((await step.locator('.task-observation').innerText()).includes(gb(startTotal)), 'the start\'s total');
    await step.getByTestId('task-8-selective-set').tap();
    await gridInView();
    const changed = { ...START[8], recompute: 'selective' };
    const changedTotal = report(changed).memory.total;
    await page.waitForFunction(
      (bytes) => Number(document.querySelector('[data-testid="section-8"] [data-testid="mem-total"]').getAttribute('data-bytes')) === bytes,
      changedTotal,
    );
    assert.ok((await step.locator('.task-observation').innerText()).includes(gb(changedTotal)), 'the change\'s total');

    // 3. Help beside "model states": a tap opens it inside the screen, its button closes it.
    const help = section.getByTestId('explain-mem-states');
    await help.scrollIntoViewIfNeeded();
    await help.tap();
    const panel = section.getByTestId('explanation');
    await panel.waitFor({ state: 'visible' });
    await onScreen(panel, 'the help panel');
    assert.equal(Number(await panel.getAttribute('data-result')), report(changed).memory.model_states);
    await panel.locator('button[data-close]').tap();
    await panel.waitFor({ state: 'detached' });

    // 4. A card tapped, then TP dragged by a finger over its whole range and back to 1.
    const card = 3;
    const cardEl = section.getByTestId('grid-8').getByTestId(`card-${card}`);
    await cardEl.scrollIntoViewIfNeeded();
    await cardEl.tap();
    await page.waitForFunction((c) => document.querySelector(`[data-testid="section-8"] [data-testid="card-${c}"]`)?.getAttribute('data-selected') === 'true', card);
    await agree(section, fullConfig(changed), card, 'after the tap');
    const tp = sliderOf('tp', 8);
    let plan = changed;
    const visited = [];
    const onStep = async (position) => {
      plan = { ...plan, tp: tp.valueAt(position) };
      visited.push(plan.tp);
      const refused = cli(['eval'], fullConfig(plan)).error;
      if (!refused) {
        await agree(section, fullConfig(plan), card, `TP ${plan.tp}`);
        return;
      }
      // A TP that does not divide 8 cards: the CLI's reason under the slider, the figures
      // marked as the last valid plan's, and no stale DP.
      const message = await controlError(section, tp.testId);
      if (lang === 'en') assert.equal(message, refused, `TP ${plan.tp}: the CLI's reason at the slider`);
      else assert.ok(message && /tp/i.test(message) && message.includes(String(plan.tp)), `TP ${plan.tp}: the reason at the slider ("${message}"; CLI: ${refused})`);
      assert.equal(await section.locator('.stale-note').count(), 1, `TP ${plan.tp}: the figures say they are the last valid plan's`);
      assert.equal((await section.getByTestId('derived-dp').innerText()).trim(), '—', `TP ${plan.tp}: no stale DP`);
    };
    await fingerTo(page, cdp, section, tp, tp.max, onStep);
    await fingerTo(page, cdp, section, tp, tp.min, onStep);
    for (let position = tp.min; position <= tp.max; position++) {
      assert.ok(visited.includes(tp.valueAt(position)), `the finger passed TP ${tp.valueAt(position)} (${visited})`);
    }

    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}
