// Uneven expert routing (issue 52, SPEC §20) on the planner's 64-card grid: Mixtral 8x7B at
// TP 2 × PP 4 × EP 8, selective recompute, set by the controls as a person does. Every measured
// load and every capacity factor the page offers (the CLI's `defaults` lists them), chosen by
// keys: the routing figure's tokens, activations, dispatch buffers, all-to-all, excess, wait and
// drops, every figure of the grid, and which cards carry the hot mark with its load, equal
// `parallel-lab eval --card`'s on the same plan. Back to a dense model the controls go and the
// routing fields return to even.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, settleAndCheck } from './harness.mjs';
import { SELECTS, SLIDERS, choose, cli, differences, expected, keyboardTo, shown, sliderOf } from './drive.mjs';
import { coreDefaults } from './expect.mjs';

const lab = labForFile();
const EP = sliderOf('ep', 64);
const slider = (field) => SLIDERS.find((s) => s.field === field);

/** The page's routing choices, as selects the drivers know: option id → config fields. */
function routingSelects() {
  const { skews, capacity_factors: capacities } = coreDefaults().routing;
  return [
    {
      field: 'routing_skew', testId: 'select-skew',
      options: Object.fromEntries(skews.map((s) => [s.id, { routing_skew: s.skew }])),
    },
    {
      field: 'capacity_factor', testId: 'select-capacity',
      options: Object.fromEntries(capacities.map((c) => [c.id, c.factor === null ? {} : { capacity_factor: c.factor }])),
    },
  ];
}

/** What the routing figure and the cards show. */
async function routingShown(section) {
  return section.evaluate((root) => {
    const at = (id) => root.querySelector(`[data-testid="${id}"]`);
    const num = (id, name) => Number(at(id)?.getAttribute(name));
    const hot = [...root.querySelectorAll('[data-testid^="card-"][data-expert-load]')]
      .map((card) => [Number(card.dataset.card), card.dataset.expertLoad, Boolean(card.querySelector('.card-hot'))]);
    return {
      tokens_hot: num('routing-tokens', 'data-hot'),
      tokens_even: num('routing-tokens', 'data-even'),
      expert_activations_hot: num('routing-activations', 'data-hot'),
      expert_activations_even: num('routing-activations', 'data-even'),
      dispatch_hot: num('routing-dispatch', 'data-hot'),
      dispatch_even: num('routing-dispatch', 'data-even'),
      all_to_all_busiest: num('routing-all-to-all', 'data-hot'),
      all_to_all_even: num('routing-all-to-all', 'data-even'),
      excess: num('routing-excess', 'data-bytes'),
      added_s: num('routing-wait', 'data-seconds'),
      dropped_share: num('routing-dropped', 'data-share'),
      dropped_per_step: num('routing-dropped', 'data-slots'),
      hot,
    };
  });
}

/** The cards of EP rank 0: the first card of each EP group (`groups --card` of each card). */
function epRankZero(config) {
  const cards = [];
  for (let card = 0; card < config.gpus; card++) {
    const group = cli(['groups', '--card', String(card)], config).ok.ep;
    if (Math.min(...group) === card) cards.push(card);
  }
  return cards;
}

test('routing skew and capacity: figures, grid and hot cards equal the CLI over every choice', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const section = page.getByTestId('section-64');
  assert.equal(await section.getByTestId('select-skew').count(), 0, 'no routing controls for the dense anchor');
  await choose(section, SELECTS.find((s) => s.field === 'model'), 'mixtral-8x7b', 'pick');
  await keyboardTo(section, slider('tp'), 2, 'ends');
  await keyboardTo(section, slider('pp'), 4, 'ends');
  await keyboardTo(section, EP, 3); // 2^3 = 8
  await choose(section, SELECTS.find((s) => s.field === 'recompute'), 'selective', 'keys');
  const base = { model: 'mixtral-8x7b', gpus: 64, tp: 2, pp: 4, ep: 8, recompute: 'selective' };
  const zero = epRankZero(base);
  assert.equal(zero.length, 64 / 8, 'one card in eight holds the hottest expert');
  await section.getByTestId('grid-64').getByTestId('card-9').click();

  const [skew, capacity] = routingSelects();
  let checked = 0;
  for (const c of Object.keys(capacity.options)) {
    await choose(section, capacity, c, 'keys');
    for (const s of Object.keys(skew.options)) {
      await choose(section, skew, s, 'keys');
      const config = { ...base, ...skew.options[s], ...capacity.options[c] };
      const want = cli(['eval', '--card', '9'], config).ok;
      assert.deepEqual(differences(await shown(section), expected(config, 9)), [], `${s}, ${c}`);
      const got = await routingShown(section);
      for (const key of Object.keys(got).filter((k) => k !== 'hot')) {
        assert.equal(got[key], want.routing[key], `${s}, ${c}: ${key}`);
      }
      // The mark: on EP rank 0's cards exactly when that rank receives more than an even one.
      const load = want.routing.tokens_hot / want.routing.tokens_even;
      if (load > 1) {
        assert.deepEqual(got.hot.map(([card]) => card), zero, `${s}, ${c}: the hot cards`);
        for (const [card, shownLoad, mark] of got.hot) {
          assert.ok(mark, `card ${card} carries the mark`);
          assert.ok(Math.abs(Number(shownLoad) - load) < 1e-9 * load + 5e-4, `card ${card}: ${shownLoad} vs ${load}`);
        }
      } else {
        assert.deepEqual(got.hot, [], `${s}, ${c}: no rank above even, no card marked`);
      }
      checked++;
    }
  }
  assert.equal(checked, Object.keys(skew.options).length * Object.keys(capacity.options).length);

  // Back to a dense model: the routing controls go and the plan is even again.
  await choose(section, SELECTS.find((s) => s.field === 'model'), 'qwen3.8-27b', 'pick');
  assert.equal(await section.getByTestId('select-skew').count(), 0);
  assert.equal(await section.getByTestId('routing-figure').count(), 0);
  await settleAndCheck(page, problems, assert);
  await context.close();
});
