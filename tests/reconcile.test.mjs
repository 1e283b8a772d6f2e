// Figures that look contradictory are reconciled where they stand. A student moves the CP
// slider by arrow keys over its whole range on both grids: whenever the plan has CP > 1 and a
// DP row, the note under the traffic table reads DP × CP = group with the CLI's d, c and the
// DP row's group (`parallel-lab eval`), and it is gone at CP 1. The device grid's hint says
// what t, c, p and d on a card are, and the tint legend names the bar it describes. Beside the
// stage chart, a note says which accounting the total uses; picking "by stage" makes the total
// the CLI's busiest stage.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, pageTest, settleAndCheck } from './harness.mjs';
import { SELECTS, SLIDERS, START, choose, cli, fullConfig, keyboardTo, shown } from './drive.mjs';

const lab = labForFile();

const CP = SLIDERS.find((s) => s.field === 'cp');
const PP = SLIDERS.find((s) => s.field === 'pp');
/** Where CP moves on each grid: part two's TP 8 leaves CP room only once PP is 2. */
const BASE = { 8: START[8], 64: { ...START[64], pp: 2 } };

/** What the note must read for `config` (English), or null where the page shows none. */
function expectedNote(config) {
  const { ok } = cli(['eval'], fullConfig(config));
  if (!ok) return undefined; // refused: the page keeps its last valid plan; nothing to check
  const dp = ok.comm.find((c) => c.dim === 'dp');
  if (config.cp === 1 || !dp) return null;
  return `DP × CP = ${ok.dp} × ${config.cp} = ${dp.group_size} cards`;
}

for (const gpus of [8, 64]) {
  test(`grid-${gpus}: the DP row's group under CP is reconciled with the CLI at every CP`, async () => {
    const { page, context, problems } = await openPage(lab, undefined, { fragment: 'lang=en' });
    const section = page.getByTestId(`section-${gpus}`);
    const note = section.getByTestId('traffic-dp-group');
    await keyboardTo(section, PP, BASE[gpus].pp ?? 1);
    let checked = 0;
    for (let cp = CP.min; cp <= CP.max; cp++) {
      await keyboardTo(section, CP, cp);
      const want = expectedNote({ ...BASE[gpus], cp });
      if (want === undefined) continue;
      if (want === null) {
        await note.waitFor({ state: 'detached' });
      } else {
        await page.waitForFunction(
          ([id, text]) => document.querySelector(`[data-testid="${id}"] [data-testid="traffic-dp-group"]`)
            ?.textContent.includes(text),
          [`section-${gpus}`, want],
        );
        checked++;
      }
    }
    assert.ok(checked >= 1, `CP > 1 with a DP row was reached on ${gpus} cards`);
    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}

pageTest('the grid says what t, c, p, d are and which bar the tint legend describes', lab, { fragment: 'lang=en' }, async ({ page }) => {
  const section = page.getByTestId('section-8');
  const hint = await section.locator('.legend-hint').innerText();
  for (const words of ['t its rank in its TP group', 'p its pipeline stage', 'd the data-parallel replica']) {
    assert.ok(hint.includes(words), `${words} in ${hint}`);
  }
  const scale = await section.getByTestId('memory-scale').innerText();
  assert.ok(scale.includes("The bar along each card's top"), scale);
  // The bar it names is there: one tint bar on every card.
  const cards = await section.locator('[data-testid^="card-"] .card-tint').count();
  assert.equal(cards, 8);
});

pageTest('the stage chart says how its totals stand to the total beside it, in each accounting', lab, { fragment: 'lang=en' }, async ({ page }) => {
  const section = page.getByTestId('section-64');
  const note = section.getByTestId('stages-accounting');
  await note.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => document.querySelector('[data-testid="section-64"] [data-testid="stages-accounting"]')
      ?.textContent.includes("The total beside it uses the lesson's even split"),
  );
  const accounting = SELECTS.find((s) => s.field === 'accounting');
  await choose(section, accounting, 'stages');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="section-64"] [data-testid="stages-accounting"]')
      ?.textContent.includes('the total beside it is the busiest stage'),
  );
  const { ok } = cli(['eval'], fullConfig({ ...START[64], accounting: 'stages' }));
  const busiest = ok.memory.by_stage[ok.memory.busiest_stage];
  await page.waitForFunction(
    (bytes) => Number(document.querySelector('[data-testid="section-64"] [data-testid="mem-total"]')
      ?.getAttribute('data-bytes')) === bytes,
    busiest.total,
  );
  assert.equal((await shown(section)).memory.total.bytes, busiest.total);
});
