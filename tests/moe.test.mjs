// MoE on the grid: pick Mixtral 8x7B on the 64-card grid, move the EP slider (it appears for
// MoE models only) to 8 by keys, click a card: its EP and expert-DP groups light up with their
// own words in data-groups, and the traffic table's EP all-to-all and expert-DP rows, every
// figure and every card's groups equal `parallel-lab eval --card` / `groups --card`. EP 16
// does not divide Mixtral's 8 experts: the reason shows under the slider, in both languages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CJK, labForFile, openPage, settleAndCheck, visibleText } from './harness.mjs';
import { SELECTS, SLIDERS, choose, cli, controlError, differences, expected, gb, keyboardTo, pointerTo, shown, sliderState, sliderOf, thousands } from './drive.mjs';

const lab = labForFile();

const EP = sliderOf('ep', 64);

test('Mixtral on 64 cards, EP 8: EP and expert-DP groups and traffic agree with the CLI', async () => {
  const { page, context, problems } = await openPage(lab);
  const section = page.getByTestId('section-64');
  assert.equal(await section.getByTestId('slider-ep').count(), 0, 'no EP slider for the dense anchor');
  await choose(section, SELECTS.find((s) => s.field === 'model'), 'mixtral-8x7b', 'pick');
  assert.match(await visibleText(section.getByTestId('model-figures')), /46,702,792,704/);
  const slider = section.getByTestId('slider-ep');
  assert.equal(await slider.count(), 1, 'the EP slider appears for an MoE model');
  // Lesson start TP 8 × PP 8 leaves 1 card per stage and TP group: take PP 1 for room.
  await keyboardTo(section, SLIDERS.find((s) => s.field === 'pp'), 1, 'ends');
  await keyboardTo(section, EP, 3); // 2^3 = 8
  assert.equal(await slider.getAttribute('aria-valuetext'), '8');
  const config = { model: 'mixtral-8x7b', gpus: 64, tp: 8, pp: 1, ep: 8 };
  await section.getByTestId('grid-64').getByTestId('card-9').click();
  const want = expected(config, 9);
  const got = await shown(section);
  assert.deepEqual(differences(got, want), []);
  const words = new Set(Object.values(got.groups).flatMap((g) => g.split(' ')));
  assert.ok(words.has('ep') && words.has('edp'), `ep and edp among the cards' groups: ${[...words]}`);
  assert.ok(got.traffic.some((t) => t.dim === 'ep' && t.collective === 'all-to-all'));
  assert.ok(got.traffic.some((t) => t.dim === 'edp'));
  // The model states split into routed experts and the dense rest.
  const experts = Number(await section.getByTestId('mem-experts').getAttribute('data-bytes'));
  assert.ok(experts > 0 && experts < got.memory.model_states.bytes, `experts ${experts}`);
  // With PP 1 the one stage holds the whole model, so the even split's experts are stage 0's.
  assert.equal(experts, cli(['eval', '--card', '9'], config).ok.memory.by_stage[0].expert_states);
  // Stage by stage (chosen by keys): the split is the busiest stage's, as `eval` reports it,
  // and its two parts add up to that stage's model states shown above it.
  const accounting = SELECTS.find((s) => s.field === 'accounting');
  for (const pp of [1, 2]) {
    await keyboardTo(section, SLIDERS.find((s) => s.field === 'pp'), pp);
    await choose(section, accounting, 'stages', 'keys');
    const staged = cli(['eval', '--card', '9'], { ...config, pp, accounting: 'stages' }).ok.memory;
    const stage = staged.by_stage[staged.busiest_stage];
    const split = section.getByTestId('mem-experts');
    assert.equal(Number(await split.getAttribute('data-bytes')), stage.expert_states, `PP ${pp}, stages`);
    assert.equal(Number(await section.getByTestId('mem-states').getAttribute('data-bytes')), stage.model_states);
    const text = await visibleText(split);
    assert.ok(text.includes(gb(stage.expert_states)) && text.includes(gb(stage.model_states - stage.expert_states)), text);
    await choose(section, accounting, 'even', 'keys');
  }
  await keyboardTo(section, SLIDERS.find((s) => s.field === 'pp'), 1);

  // The whole range, by keys and by pointer: at every position the slider shows 2^position,
  // and the page's verdict and figures are the CLI's for that EP.
  const check = async (position, how) => {
    const ep = 2 ** position;
    const state = await sliderState(section, EP);
    assert.equal(state.position, position, how);
    assert.equal(state.valuetext, thousands(ep), how);
    assert.equal(state.label, thousands(ep), how);
    const verdict = cli(['eval', '--card', '9'], { ...config, ep });
    const message = await controlError(section, 'slider-ep');
    assert.equal(message !== null, Boolean(verdict.error), `${how}: EP ${ep}, CLI ${verdict.error ?? 'accepts'}, page ${message}`);
    if (verdict.ok) assert.deepEqual(differences(await shown(section), expected({ ...config, ep }, 9)), [], `${how}: EP ${ep}`);
  };
  await keyboardTo(section, EP, 0, 'ends');
  await check(0, 'Home');
  for (let position = 1; position <= 6; position++) {
    await slider.press('ArrowRight');
    await check(position, `ArrowRight to ${position}`);
  }
  await slider.press('Home');
  await check(0, 'Home again');
  await slider.press('End');
  await check(6, 'End');
  for (const target of [0, 6, 3]) {
    await pointerTo(section, EP, target);
    await check(target, `pointer to ${target}`);
  }

  // EP 16 does not divide the 8 experts.
  await keyboardTo(section, EP, 4);
  const zh = await controlError(section, 'slider-ep');
  assert.ok(zh && zh.includes('8 个专家') && zh.includes('16'), zh);
  await page.getByTestId('lang-toggle').click();
  const en = await controlError(section, 'slider-ep');
  assert.ok(en && !CJK.test(en), en);
  assert.equal(en, cli(['eval'], { ...config, ep: 16 }).error, 'in English, the CLI\'s reason');
  CJK.lastIndex = 0;
  await keyboardTo(section, EP, 3);
  assert.equal(await controlError(section, 'slider-ep'), null);

  // Back to a dense model: EP returns to 1 and its slider goes away.
  await choose(section, SELECTS.find((s) => s.field === 'model'), 'qwen3.8-27b', 'pick');
  assert.equal(await section.getByTestId('slider-ep').count(), 0);
  await settleAndCheck(page, problems, assert);
  await context.close();
});
