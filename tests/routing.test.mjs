// Uneven expert routing (issue 52, SPEC §20) on the planner's 64-card grid: Mixtral 8x7B at
// TP 2 × PP 4 × EP 8, selective recompute, set by the controls as a person does. Every measured
// load and every capacity factor the page offers (the CLI's `defaults` lists them), chosen by
// keys: the routing figure's tokens, activations, dispatch buffers, all-to-all, excess, wait and
// drops, every figure of the grid, and which cards carry the hot mark with its load, equal
// `parallel-lab eval --card`'s on the same plan. Back to a dense model the controls go and the
// routing fields return to even. Then random MoE plans (SEED=… replays them): model, TP, PP,
// EP, skew and capacity each set by its control, a random card selected, and the routing
// figure, the grid and the hot cards again equal the CLI's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, settleAndCheck } from './harness.mjs';
import { SELECTS, SLIDERS, choose, cli, differences, expected, keyboardTo, rng, selectCard, shown, sliderOf } from './drive.mjs';
import { coreDefaults } from './expect.mjs';

const lab = labForFile();
const SEED = Number(process.env.SEED ?? Math.floor(Math.random() * 2 ** 32));
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

/**
 * The grid (`card` selected), the routing figure and the hot cards equal the CLI's for
 * `config`; `zero` are EP rank 0's cards, which hold the hottest expert.
 */
async function routingAgrees(section, config, card, zero, what) {
  const want = cli(['eval', '--card', String(card)], config).ok;
  assert.deepEqual(differences(await shown(section), expected(config, card)), [], what);
  const got = await routingShown(section);
  for (const key of Object.keys(got).filter((k) => k !== 'hot')) {
    assert.equal(got[key], want.routing[key], `${what}: ${key}`);
  }
  // The mark: on EP rank 0's cards exactly when that rank receives more than an even one.
  const load = want.routing.tokens_hot / want.routing.tokens_even;
  if (load > 1) {
    assert.deepEqual(got.hot.map(([c]) => c), zero, `${what}: the hot cards`);
    for (const [c, shownLoad, mark] of got.hot) {
      assert.ok(mark, `${what}: card ${c} carries the mark`);
      assert.ok(Math.abs(Number(shownLoad) - load) < 1e-9 * load + 5e-4, `${what}: card ${c}: ${shownLoad} vs ${load}`);
    }
  } else {
    assert.deepEqual(got.hot, [], `${what}: no rank above even, no card marked`);
  }
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
      await routingAgrees(section, config, 9, zero, `${s}, ${c}`);
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

test("random MoE plans: the hot expert's figures and cards equal the CLI (SEED replays)", async (t) => {
  t.diagnostic(`SEED=${SEED} (replay: SEED=${SEED} node --test routing.test.mjs)`);
  console.log(`routing.test.mjs: SEED=${SEED}`);
  const r = rng(SEED);
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const section = page.getByTestId('section-64');
  const [skew, capacity] = routingSelects();
  // The MoE presets: those whose report has a routing block.
  const moe = coreDefaults().presets.map((p) => p.id).filter((id) => cli(['eval'], { model: id, gpus: 64 }).ok?.routing);
  assert.ok(moe.length >= 2, `the MoE presets: ${moe}`);
  for (let n = 0; n < 4; n++) {
    // A plan the core takes: drawn until the CLI accepts it.
    let config;
    for (let draw = 0; ; draw++) {
      const candidate = {
        model: r.pick(moe), gpus: 64, recompute: 'selective',
        tp: r.pick([1, 2, 4, 8]), pp: r.pick([1, 2, 4]), ep: r.pick([2, 4, 8, 16]),
      };
      if (cli(['eval'], candidate).ok) {
        config = candidate;
        break;
      }
      assert.ok(draw < 200, 'no valid MoE plan drawn');
    }
    const s = r.pick(Object.keys(skew.options));
    const c = r.pick(Object.keys(capacity.options));
    const what = `SEED=${SEED} plan ${n}: ${JSON.stringify(config)} ${s} ${c}`;
    await choose(section, SELECTS.find((x) => x.field === 'model'), config.model, 'pick');
    await choose(section, SELECTS.find((x) => x.field === 'recompute'), 'selective', 'keys');
    await keyboardTo(section, slider('tp'), config.tp, 'arrows');
    await keyboardTo(section, slider('pp'), config.pp, 'arrows');
    await keyboardTo(section, EP, Math.log2(config.ep), 'arrows');
    await choose(section, capacity, c, 'keys');
    await choose(section, skew, s, 'keys');
    const full = { ...config, ...skew.options[s], ...capacity.options[c] };
    const card = r.int(0, 63);
    await selectCard(section, 64, card);
    await routingAgrees(section, full, card, epRankZero(full), what);
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});
