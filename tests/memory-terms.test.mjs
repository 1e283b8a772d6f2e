// The memory terms a student switches on beside the model (issue 52). The runtime terms
// (SPEC §24), as a student switches them: on the lesson's 64-card
// grid the "runtime memory" select, reached by keys, adds the CUDA context, the gather buffer
// and the allocator's reserve to every total; every figure (the three terms, the total, each
// card's bytes and fit) equals `parallel-lab eval` of the same plan, with the grid's TP moved
// over its range by arrows while they are on, then by stage, then switched off again, when
// every figure is the formulas' own once more. On an MoE plan with uneven routing, the card
// of the hottest expert reserves more than a cold one. Uneven sequences (SPEC §25): on the
// 8-card grid (DP 8) the longest micro-batch, chosen by keys, lands on the first replica's
// card alone; every card's bytes equal the CLI's at each option.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, pageTest, visibleText } from './harness.mjs';
import { SELECTS, START, agree, choose, cli, keyboardTo, sliderOf } from './drive.mjs';

const lab = labForFile();

const RUNTIME = SELECTS.find((s) => s.field === 'runtime_memory');
const ACCOUNTING = SELECTS.find((s) => s.field === 'accounting');
const SEQUENCES = SELECTS.find((s) => s.field === 'sequence_skew');

pageTest('the runtime terms switch on and off, every figure the CLI\'s', lab, async ({ page }) => {
  const section = page.getByTestId('section-64');
  const config = { ...START[64] };
  await section.scrollIntoViewIfNeeded();
  await section.getByTestId('grid-64').getByTestId('card-0').click();
  await agree(section, config, 0, 'the lesson\'s start');
  assert.equal(await section.getByTestId('mem-runtime').count(), 0, 'off by default: no runtime line');

  await choose(section, RUNTIME, 'true', 'keys', async (value) => {
    Object.assign(config, RUNTIME.options[value]);
    await agree(section, config, 0, `runtime ${value} by keys`);
  });
  const report = cli(['eval'], config).ok;
  assert.ok(report.memory.runtime.total > 0.78e9, JSON.stringify(report.memory.runtime));
  const split = await visibleText(section.getByTestId('mem-runtime-split'));
  assert.match(split, /H200/, 'the measured terms name their card');
  // Its explanation: the formula with the plan's values, ending in the figure shown.
  const explained = cli(['eval', '--explain'], config).ok.explain.find((e) => e.figure === 'mem-runtime');
  await section.getByTestId('explain-mem-runtime').click();
  const panel = await visibleText(section.getByTestId('explanation'));
  assert.ok(panel.includes(explained.substituted), `"${panel}" lacks "${explained.substituted}"`);
  assert.ok(panel.includes(explained.source), `"${panel}" lacks its source`);
  await section.getByTestId('explain-mem-runtime').click();

  const tp = sliderOf('tp', 64);
  const onTp = async (position) => {
    config.tp = tp.valueAt(position);
    if (cli(['eval'], config).ok) await agree(section, config, 0, `runtime on, TP ${config.tp}`);
  };
  await keyboardTo(section, tp, tp.min, 'arrows', onTp);
  await keyboardTo(section, tp, tp.max, 'arrows', onTp);

  await choose(section, ACCOUNTING, 'stages', 'keys', async (value) => {
    Object.assign(config, ACCOUNTING.options[value]);
    await agree(section, config, 0, `runtime on, accounting ${value}`);
  });

  await choose(section, RUNTIME, 'false', 'keys', async (value) => {
    Object.assign(config, RUNTIME.options[value]);
    await agree(section, config, 0, `runtime ${value} by keys`);
  });
  assert.equal(await section.getByTestId('mem-runtime').count(), 0, 'off again: no runtime line');
});

test('the hottest expert\'s card reserves more than a cold one', () => {
  const config = {
    model: 'mixtral-8x7b', gpus: 64, tp: 2, pp: 4, ep: 8, routing_skew: 1.937, runtime_memory: true,
  };
  const r = cli(['eval', '--card', '0'], config).ok;
  const cards = r.cards_memory;
  assert.ok(Array.isArray(cards) && cards.length === 64, 'every card listed under uneven routing');
  const hot = cards.reduce((a, b) => (b.total > a.total ? b : a));
  const cold = cards.reduce((a, b) => (b.total < a.total ? b : a));
  assert.ok(hot.runtime > cold.runtime, `${hot.runtime} > ${cold.runtime}`);
  // The hot card's extra is its excess activations and the reserve on them (SPEC §24).
  const extra = hot.total - cold.total;
  const reserve = hot.runtime - cold.runtime;
  assert.ok(Math.abs(reserve - 0.052929799328152 * (extra - reserve)) < 1, `${reserve} on ${extra - reserve}`);
});

pageTest('the longest micro-batch lands on the first replica\'s cards, every card the CLI\'s', lab, async ({ page }) => {
  const section = page.getByTestId('section-8');
  const config = { ...START[8] };
  await section.scrollIntoViewIfNeeded();
  await section.getByTestId('grid-8').getByTestId('card-0').click();
  await agree(section, config, 0, 'the lesson\'s start');
  const bytes = async (card) => Number(await section.getByTestId('grid-8').getByTestId(`card-${card}`).getAttribute('data-bytes'));
  const even = [await bytes(0), await bytes(5)];
  assert.equal(even[0], even[1], 'packed to s: every card alike');
  for (const value of ['x1.5', 'x2', 'x4', 'packed']) {
    await choose(section, SEQUENCES, value, 'keys', async (v) => {
      Object.assign(config, SEQUENCES.options[v]);
      await agree(section, config, 0, `longest micro-batch ${v} by keys`);
      const [first, other] = [await bytes(0), await bytes(5)];
      if (config.sequence_skew > 1) assert.ok(first > other, `${v}: card 0 (replica 0) ${first} > card 5 ${other}`);
      assert.equal(other, even[1], `${v}: another replica's card keeps its bytes`);
    });
  }
  // A σ no option spells, from a link: the select says so and the figures are the CLI's.
  await page.goto(`${page.url().split('#')[0]}#g8=z3.sq3`);
  await section.scrollIntoViewIfNeeded();
  await section.getByTestId('grid-8').getByTestId('card-0').click();
  await agree(section, { ...START[8], sequence_skew: 3 }, 0, 'σ 3 from a link');
  assert.equal(await section.getByTestId('select-seqskew').inputValue(), 'other');
});
