// Usable without a mouse or eyesight: axe-core (from npm) on the built page reports no
// violation, in Chinese and in English, with a card selected on each grid and a rejected
// combination on screen, "check on a GPU" open (on the planner a measured file compared and a
// foreign one refused), CPU Adam and rollout engines on, the 64-card grid on a real card (its estimate's
// kernel terms), and the published runs, measured figures and their chart drawn (the states
// with the most dynamic text).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { labForFile, openPage, settleAndCheck } from './harness.mjs';
import { SLIDERS, keyboardTo } from './drive.mjs';

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
/** A measured file (tests/fixtures/check/) for the "check on a GPU" panel. */
const MEASURED = new URL('./fixtures/check/synthetic.measured.json', import.meta.url);

const lab = labForFile();

/** Runs axe-core on the whole page; resolves to its violations, shortened for a message. */
async function violations(page) {
  // Evaluated through the DevTools protocol, so the page's CSP (no inline script) allows it.
  await page.evaluate(`${AXE}\n;0`);
  const result = await page.evaluate(() =>
    // eslint-disable-next-line no-undef
    axe.run(document, { resultTypes: ['violations'] }),
  );
  return result.violations.map((v) => ({
    rule: v.id,
    help: v.help,
    count: v.nodes.length,
    nodes: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1, 2).join(' ').trim()}`),
  }));
}

/** axe-core in Chinese, then in English, on `page` as it stands. */
async function noViolationInEitherLanguage(page, where) {
  for (const lang of ['zh', 'en']) {
    if (lang === 'en') await page.getByTestId('lang-toggle').click();
    const found = await violations(page);
    assert.deepEqual(found, [], `axe-core violations on ${where} in ${lang}:\n${JSON.stringify(found, null, 2)}`);
  }
}

test('axe-core on the lesson: cards selected, an error shown, "more controls" open on one grid', async () => {
  const { page, context, problems } = await openPage(lab);
  for (const id of ['8', '64']) {
    await page.getByTestId(`grid-${id}`).getByTestId('card-3').click();
  }
  const tp = SLIDERS.find((s) => s.field === 'tp');
  await keyboardTo(page.getByTestId('section-8'), tp, 3);
  await page.getByTestId('section-64').getByTestId('more-controls-toggle').click();
  await page.getByTestId('section-64').getByTestId('select-hardware').waitFor();
  // "Check on a GPU" open on both grids: the 8-card one with its plan refused, the 64-card one
  // with its workload, its command and the link to the planner.
  for (const id of ['8', '64']) await page.getByTestId(`section-${id}`).getByTestId('gpu-check').locator(':scope > summary').click();
  await page.getByTestId('section-8').getByTestId('gpu-check-plan-error').waitFor();
  await page.getByTestId('section-64').getByTestId('gpu-check-planner').waitFor();
  await noViolationInEitherLanguage(page, 'the lesson');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('axe-core on the RL page: CPU Adam and rollout engines on (one grid in the rollout phase), an error shown', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'rl.html' });
  for (const id of ['8', '64']) {
    await page.getByTestId(`grid-${id}`).getByTestId('card-3').click();
  }
  // Rollout engines on both grids (the panel's controls and the rollout figure; before TP 3
  // refuses the 8-card plan), a separate pool on the 64-card one (its cards' input too).
  for (const id of ['8', '64']) {
    const section = page.getByTestId(`section-${id}`);
    await section.getByTestId('toggle-rollout').check();
    await section.getByTestId('rollout-total').waitFor();
  }
  // The 8-card grid in the rollout phase: its cards carry their engines, card 3's lit.
  await page.getByTestId('section-8').getByTestId('select-phase').selectOption('rollout');
  await page.getByTestId('grid-8').locator('[data-engine][data-groups="engine"]').first().waitFor();
  await page.getByTestId('section-64').getByTestId('select-pool').selectOption('separate');
  await page.getByTestId('section-64').getByTestId('input-rollout-gpus').waitFor();
  const tp = SLIDERS.find((s) => s.field === 'tp');
  await keyboardTo(page.getByTestId('section-8'), tp, 3);
  // The optimizer on the host on the 64-card grid: its switch, host figure and PCIe row too.
  await page.getByTestId('section-64').getByTestId('toggle-offload').check();
  await page.getByTestId('section-64').getByTestId('mem-host').waitFor();
  // "Run it" open under the 8-card grid: the engine picker, the command, its notes, the box.
  await page.getByTestId('section-8').getByTestId('run-it').locator('summary').click();
  await page.getByTestId('section-8').getByTestId('command').waitFor();
  await page.getByTestId('table-recipes').waitFor({ state: 'attached' });
  await noViolationInEitherLanguage(page, 'the RL page');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('axe-core on the planner: a real card\'s kernel terms, the search, the runs, measured and their chart', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  await page.getByTestId('grid-64').getByTestId('card-3').click();
  // A real card on the 64-card grid: the estimate's kernel terms and their buttons (SPEC §18).
  await page.getByTestId('section-64').getByTestId('select-hardware').selectOption('h200');
  await page.getByTestId('section-64').getByTestId('estimate-kernels').waitFor();
  for (const id of ['search-panel', 'runs-table', 'measured-table', 'chart-ratios']) await page.getByTestId(id).waitFor({ state: 'attached' });
  await page.getByTestId('section-64').getByTestId('run-it').locator('summary').click();
  await page.getByTestId('section-64').getByTestId('command').waitFor();
  // "Check on a GPU" open under both grids: a foreign file refused under the 8-card one (its
  // alert), a measured file beside the lab under the 64-card one (its table, notes and plot).
  const check = page.getByTestId('section-8').getByTestId('gpu-check');
  await check.locator(':scope > summary').click();
  await check.getByTestId('gpu-check-paste').fill('{}');
  await check.getByTestId('gpu-check-compare').click();
  await check.getByTestId('gpu-check-error').waitFor();
  const check64 = page.getByTestId('section-64').getByTestId('gpu-check');
  await check64.locator(':scope > summary').click();
  await check64.getByTestId('gpu-check-paste').fill(await readFile(MEASURED, 'utf8'));
  await check64.getByTestId('gpu-check-compare').click();
  await check64.getByTestId('gpu-check-plot').waitFor({ state: 'attached' });
  await noViolationInEitherLanguage(page, 'the planner');
  await settleAndCheck(page, problems, assert);
  await context.close();
});
