// Seed 003's questions, answered live (issues 13 and 52). Each question, as a student takes it:
// writes a prediction, follows the question's link, which puts its plan on its grid (every
// figure then equals `parallel-lab eval` of that plan) and puts the focus on the control that
// checks it; reads the answer, quoted from the grid's figures and citing the one on screen,
// beside the prediction said again; then moves that control over its whole range by keys, the
// grid agreeing with the CLI at every value it passes (or, where the core refuses the plan,
// showing why and keeping the last plan it held). The same links, opened in a fresh page,
// land on the same plan with the answer showing. What the lab cannot compute is said in a line.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, settleAndCheck, visibleText } from './harness.mjs';
import { SELECTS, SLIDER_IDS, agree, choose, cli, derivedDp, differences, expected, keyboardTo, shown, sliderOf } from './drive.mjs';

/**
 * Seed 003's questions in its order, by the ids the page gives them: twelve answered since
 * issue 13, seven more since issue 52 (TP 4 on a 7B model, TP's traffic against its saving,
 * 3D balance, expert parallelism, what unbalances memory, DP with ZeRO 0 to 3, and why the
 * largest models use every dimension).
 */
const QUESTIONS = [
  'dp-memory', 'tp-weights', 'tp4-7b', 'pp-splits', '1f1b-gpipe', 'sequence-parallel',
  'tp-traffic', 'pp-stages', '3d-balance', 'expert-parallel', 'imbalance', 'still-tight',
  'micro-batches', 'zero3-tp', 'bubble-memory', 'dp-zero', 'choose-degrees', 'largest-models',
  'inference-memory',
];

/** A slider's config field by its test id (the sliders a question may focus). */
const SLIDER_FIELDS = Object.fromEntries(Object.entries(SLIDER_IDS).map(([field, testId]) => [testId, field]));

const lab = labForFile();

/** The figure a text quotes first: "55.6 GB", "37.5%". */
const firstFigure = (text) => text.match(/[\d,.]+ (GB|%)|[\d.]+%/)?.[0];

/**
 * Waits until the section shows a control's message for a plan the core refuses, DP derived
 * from the controls as they stand (`dp`, null: "—"), and every other figure still the last
 * plan it held (`held`).
 */
async function refused(section, held, dp, what) {
  const page = section.page();
  const want = expected(held, 0);
  let left = [];
  for (let frame = 0; frame < 600; frame++) {
    const said = await section.locator('.control-error').count();
    const got = await shown(section);
    left = differences(got, want).filter((d) => !d.startsWith('dp:'));
    if (said && got.dp === dp && left.length === 0) return;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  assert.fail(`${what}: the core refuses the plan; the page should say so, show DP ${dp ?? '—'} and keep the last plan: ${left}`);
}

/**
 * Moves the control `testId` of `section` over its whole range by keys, from where the
 * question left it: a slider to its top (arrow keys, or PageUp over a long range, then End)
 * and back to its bottom (then Home); a select through every option (arrow keys). At each
 * value the grid agrees with the CLI on `demo` with that value, card 0 selected; where the
 * core refuses, the page says so and keeps the last plan it held.
 */
async function walk(section, testId, demo, what) {
  let held = demo;
  const check = async (change) => {
    const config = { ...demo, ...change };
    const verdict = cli(['eval'], config);
    if (verdict.ok) {
      await agree(section, config, 0, `${what}: ${JSON.stringify(change)}`);
      held = config;
    } else {
      await refused(section, held, derivedDp(config), `${what}: ${JSON.stringify(change)} (${verdict.error})`);
    }
  };
  const field = SLIDER_FIELDS[testId];
  if (field) {
    const slider = sliderOf(field, demo.gpus);
    const how = slider.max - slider.min > 10 ? 'page' : 'arrows';
    const onStep = (position) => check({ [field]: slider.valueAt(position) });
    if (slider.max - 1 > slider.min) {
      await keyboardTo(section, slider, slider.max - 1, how, onStep);
      await keyboardTo(section, slider, slider.max, how, onStep);
      await keyboardTo(section, slider, slider.min + 1, how, onStep);
    }
    await keyboardTo(section, slider, slider.min, how, onStep);
    return;
  }
  const select = SELECTS.find((s) => s.testId === testId);
  assert.ok(select, `${what}: no driver for ${testId}`);
  for (const value of Object.keys(select.options)) {
    await choose(section, select, value, 'keys', (v) => check(select.options[v]));
  }
}

test('every question: predict, follow its link, read the answer, move its control', async () => {
  const { page, context, problems } = await openPage(lab);
  const questions = page.getByTestId('question');
  const ids = await questions.evaluateAll((all) => all.map((q) => q.dataset.question));
  assert.deepEqual(ids, QUESTIONS, 'the questions, in order');
  for (let i = 0; i < ids.length; i++) {
    const question = questions.nth(i);
    const id = ids[i];
    const grid = await question.getAttribute('data-grid');
    const control = await question.getAttribute('data-control');
    const config = JSON.parse(await question.getAttribute('data-plan'));
    await question.scrollIntoViewIfNeeded();
    const guess = `我猜 ${i + 1}0 GB`;
    await question.getByTestId('question-prediction').fill(guess);
    assert.equal(await question.getByTestId('question-check').count(), 0, `${id}: nothing to check before the plan`);
    await question.getByTestId('question-setup').click();
    const answer = question.getByTestId('question-answer');
    assert.equal(await answer.getAttribute('data-in-grid'), 'true', id);
    const section = page.getByTestId(`section-${grid}`);
    await page.waitForFunction((g) => Math.abs(document.querySelector(`[data-testid="section-${g}"]`).getBoundingClientRect().top) < 2, grid);
    // The focus is on the control that checks the answer, in that grid.
    if (control) {
      await page.waitForFunction(
        ([g, c]) => document.activeElement?.dataset.testid === c && document.activeElement.closest(`[data-testid="section-${g}"]`) !== null,
        [grid, control],
      );
    }
    // The prediction, said again beside the answer.
    assert.ok((await visibleText(question.getByTestId('question-check'))).includes(guess), id);
    await section.getByTestId(`grid-${grid}`).getByTestId('card-0').click();
    assert.deepEqual(differences(await shown(section), expected(config, 0)), [], id);
    // The answer cites the figure on screen, as the grid shows it.
    const cited = await visibleText(section.getByTestId(await answer.getAttribute('data-cites')));
    const figure = firstFigure(cited);
    assert.ok(figure, `${id}: no figure in "${cited}"`);
    const text = await visibleText(answer);
    assert.ok(text.includes(figure), `${id}: answer "${text}" does not cite ${figure}`);
    assert.equal(await question.getByTestId('question-prediction').inputValue(), guess);
    if (control) await walk(section, control, config, id);
  }
  // Moving the grid away: the answer waits for the plan again.
  const first = questions.first();
  await first.getByTestId('question-setup').click();
  await page.getByTestId('section-8').getByTestId('slider-tp').press('End');
  assert.equal(await first.getByTestId('question-answer').getAttribute('data-in-grid'), 'false');
  assert.match(await visibleText(first.getByTestId('question-answer')), /按上面的按钮/);
  assert.equal(await first.getByTestId('question-check').count(), 0);
  assert.equal(await page.getByTestId('questions-beyond').locator('li').count(), 1);
  await page.getByTestId('lang-toggle').click();
  const english = await visibleText(page.getByTestId('questions'));
  assert.ok(!/[\u4e00-\u9fff]/.test(english.replace(/我猜 \d+ GB/g, '')), english.slice(0, 200));
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('each question\'s link lands on its plan, with the answer showing, in both languages', async () => {
  const { page, context } = await openPage(lab);
  const links = await page.getByTestId('question').evaluateAll((all) =>
    all.map((q) => ({ id: q.dataset.question, grid: q.dataset.grid, plan: q.dataset.plan, href: q.querySelector('[data-testid="question-setup"]').getAttribute('href') })));
  await context.close();
  assert.equal(links.length, QUESTIONS.length);
  for (const [i, { id, grid, plan, href }] of links.entries()) {
    assert.match(href, /^#/, `${id}: a link within the page`);
    // Every other question in English: the language travels with the link.
    const english = i % 2 === 1;
    const fragment = english ? `${href.slice(1)}&lang=en` : href.slice(1);
    const { page: landed, context: own, problems } = await openPage(lab, undefined, { fragment });
    const config = JSON.parse(plan);
    const section = landed.getByTestId(`section-${grid}`);
    // A plan with rollout engines is the RL page's (the core's landing rule, SPEC §15): the link
    // opens that page with the plan on the same grid. Every other link stays on the lesson,
    // opened at the grid's part with the answer showing.
    const entry = new URL(landed.url()).pathname.split('/').pop();
    if (config.rollout) {
      assert.equal(entry, 'rl.html', `${id}: a rollout plan lands on the RL page`);
      await section.scrollIntoViewIfNeeded();
    } else {
      assert.ok(entry === '' || entry === 'index.html', `${id}: landed on ${entry}`);
      await landed
        .waitForFunction((g) => Math.abs(document.querySelector(`[data-testid="section-${g}"]`).getBoundingClientRect().top) < 2, grid)
        .catch((e) => assert.fail(`${id}: not opened at section-${grid}: ${e.message}`));
      // The questions are drawn after the grids: wait for this one's answer to be there.
      await landed.waitForFunction((q) => document.querySelector(`[data-question="${q}"] [data-testid="question-answer"]`)?.dataset.inGrid === 'true', id);
      const answer = await visibleText(landed.locator(`[data-question="${id}"]`).getByTestId('question-answer'));
      assert.equal(/[\u4e00-\u9fff]/.test(answer), !english, `${id}: the answer in the link's language: ${answer.slice(0, 80)}`);
    }
    await section.getByTestId(`grid-${grid}`).getByTestId('card-0').click();
    assert.deepEqual(differences(await shown(section), expected(config, 0)), [], `${id}: landed`);
    // A link that leaves the lesson for the RL page cuts off what the lesson still loaded (its
    // icon, whether it did depends on the machine's speed): those aborts are the redirect.
    await landed.waitForLoadState('networkidle');
    const real = config.rollout ? problems.filter((p) => !/^request failed: .* \(net::ERR_ABORTED\)$/.test(p)) : problems;
    assert.deepEqual(real, [], `${id}: console errors, page errors or failed requests`);
    await own.close();
  }
});

test('a question\'s link opened with a modifier goes to a new tab and leaves this grid alone', async () => {
  const { page, context, problems } = await openPage(lab);
  const question = page.getByTestId('question').first();
  await question.scrollIntoViewIfNeeded();
  const link = question.getByTestId('question-setup');
  const href = await link.getAttribute('href');
  const answer = question.getByTestId('question-answer');
  assert.equal(await answer.getAttribute('data-in-grid'), 'false');
  const [opened] = await Promise.all([context.waitForEvent('page'), link.click({ modifiers: ['ControlOrMeta'] })]);
  await opened.waitForLoadState('domcontentloaded');
  assert.equal(new URL(opened.url()).hash, href, 'the new tab opens the question\'s address');
  assert.equal(await answer.getAttribute('data-in-grid'), 'false', 'this page keeps its plan');
  await opened.close();
  // A plain click still puts the plan on the grid here.
  await link.click();
  assert.equal(await answer.getAttribute('data-in-grid'), 'true');
  await settleAndCheck(page, problems, assert);
  await context.close();
});
