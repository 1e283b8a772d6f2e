// Every control of both grids, driven as a student drives it (arrow keys, Home/End,
// PageUp/PageDown and the pointer on sliders; keyboard and choice on selects; clicks on
// cards), compared with `parallel-lab eval --card` / `groups --card` on the same plan.
//
// 1. Each slider over its whole range, both ways: the position, aria-valuetext and the label
//    agree at every step, and the figures follow (or the core's reason shows under it).
// 2. A property test: random plans (SEED=… replays one), each value set by driving the
//    controls, a random card clicked, every figure and every card's groups checked.
// 3. The reasons a student can reach, in Chinese and in English.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CJK, labForFile, openPage, settleAndCheck, visibleText } from './harness.mjs';
import {
  SELECTS, SLIDERS, START, SWITCHES, flip, cardFields, choose, cli, controlError, coreDefaults, derivedDp, differences, expected, fullConfig,
  keyboardTo, pageStep, pointerTo, presetIds, reveal, rng, shown, sliderState, thousands,
} from './drive.mjs';

const PLANS_PER_GRID = Number(process.env.PLANS ?? 50);
const SEED = Number(process.env.SEED ?? Math.floor(Math.random() * 2 ** 32));

const lab = labForFile();

/** A grid under test: its section, the config its controls should hold, the last valid one. */
function gridUnderTest(page, id) {
  return {
    id,
    section: page.getByTestId(`section-${id}`),
    config: fullConfig({ ...START[id] }),
    lastValid: fullConfig({ ...START[id] }),
    card: null,
  };
}

/**
 * After a control moved `field` to make `grid.config`: the core's verdict on the plan and the
 * page's message under the control must agree (a message exactly when the CLI rejects it).
 */
async function checkVerdict(grid, testId, context) {
  const verdict = cli(['eval'], grid.config);
  const message = await controlError(grid.section, testId);
  if (verdict.error) {
    assert.ok(message, `${context}: the CLI rejects it (${verdict.error}) but no message under ${testId}`);
  } else {
    assert.equal(message, null, `${context}: the CLI accepts it but ${testId} says "${message}"`);
    grid.lastValid = { ...grid.config };
  }
  return verdict;
}

/** The slider's three views of its value agree with each other and with the config. */
async function checkSlider(grid, slider, context) {
  const state = await sliderState(grid.section, slider);
  const value = slider.valueAt(state.position);
  assert.equal(state.valuetext, thousands(value), `${context}: aria-valuetext at position ${state.position}`);
  assert.equal(state.label, thousands(value), `${context}: label at position ${state.position}`);
  assert.equal(grid.config[slider.field], value, `${context}: the slider shows ${value}, the test set ${grid.config[slider.field]}`);
  return value;
}

/** Every figure of the grid equals the CLI's for the last valid plan and the selected card. */
async function checkFigures(grid, context) {
  const want = expected(grid.lastValid, grid.card);
  // The derived DP is the controls' own, N ÷ (TP·PP·CP), none when that is not whole: never
  // the last valid plan's.
  want.report = { ...want.report, dp: derivedDp(grid.config) };
  const diffs = differences(await shown(grid.section), want);
  assert.deepEqual(diffs, [], `${context}: page and CLI differ on ${JSON.stringify(grid.lastValid)} card ${grid.card}`);
}

/** Follows a slider as it moves: the config takes each position, the page must agree. */
const sliderStep = (grid, slider, context) => async (position) => {
  grid.config[slider.field] = slider.valueAt(position);
  await checkSlider(grid, slider, `${context} at ${position}`);
  await checkVerdict(grid, slider.testId, `${context} at ${position}`);
};

/** Follows a select through each option it passes. */
const selectStep = (grid, select, context) => async (value) => {
  Object.assign(grid.config, select.options[value]);
  assert.equal(await grid.section.getByTestId(select.testId).inputValue(), String(value), context);
  await checkVerdict(grid, select.testId, `${context} at ${value}`);
};

async function clickCard(grid, card) {
  await grid.section.getByTestId(`grid-${grid.id}`).getByTestId(`card-${card}`).click();
  grid.card = card;
}

test('every slider, by keys and pointer, over its whole range on both grids', async () => {
  const { page, context, problems } = await openPage(lab);
  for (const id of [8, 64]) {
    const grid = gridUnderTest(page, id);
    await clickCard(grid, id - 1);
    await checkFigures(grid, `grid ${id} at the start`);
    for (const slider of SLIDERS) {
      const where = `grid ${id} ${slider.testId}`;
      const start = slider.positionOf(grid.config[slider.field]);
      assert.equal((await sliderState(grid.section, slider)).position, start, `${where} starts at the lesson's value`);
      const at = async (position, how) => {
        grid.config[slider.field] = slider.valueAt(position);
        await checkSlider(grid, slider, `${where} ${how}`);
        await checkVerdict(grid, slider.testId, `${where} ${how}`);
      };

      // Home, then one arrow at a time to the top, then End and back down.
      await keyboardTo(grid.section, slider, slider.min, 'ends', sliderStep(grid, slider, `${where} Home`));
      await at(slider.min, 'Home');
      await checkFigures(grid, `${where} Home`);
      for (let p = slider.min + 1; p <= slider.max; p++) {
        await grid.section.page().keyboard.press('ArrowRight');
        await at(p, `ArrowRight to ${p}`);
        if (slider.field === 'seq_len' || p === slider.max) await checkFigures(grid, `${where} ${p}`);
      }
      await grid.section.page().keyboard.press('End');
      await at(slider.max, 'End');
      for (let p = slider.max - 1; p >= slider.min; p--) {
        await grid.section.page().keyboard.press('ArrowLeft');
        await at(p, `ArrowLeft to ${p}`);
      }
      // PageUp all the way, PageDown all the way: over whole numbers each press lands on
      // the next power of two (m from 1: 2, 4, 8, 16, 32, 64); over powers of two wherever
      // Chromium lands, the views agree.
      let last = slider.min;
      for (let i = 0; i < 20; i++) {
        await grid.section.page().keyboard.press('PageUp');
        const position = (await sliderState(grid.section, slider)).position;
        if (!slider.log2) assert.equal(position, pageStep(slider, last, true), `${where}: PageUp from ${last}`);
        assert.ok(position >= last, `${where}: PageUp went down`);
        await at(position, `PageUp to ${position}`);
        last = position;
      }
      assert.equal(last, slider.max, `${where}: PageUp reaches the top`);
      for (let i = 0; i < 20; i++) {
        await grid.section.page().keyboard.press('PageDown');
        const position = (await sliderState(grid.section, slider)).position;
        if (!slider.log2) assert.equal(position, pageStep(slider, last, false), `${where}: PageDown from ${last}`);
        last = position;
      }
      await at(slider.min, 'PageDown to the bottom');
      // The pointer: drag to each end, then to the middle.
      for (const target of [slider.max, slider.min, Math.round((slider.min + slider.max) / 2)]) {
        await pointerTo(grid.section, slider, target, sliderStep(grid, slider, `${where} pointer`));
        await at(target, `pointer to ${target}`);
      }
      await checkFigures(grid, `${where} after the pointer`);
      // Back to the lesson's value for the next slider.
      await keyboardTo(grid.section, slider, start, 'arrows', sliderStep(grid, slider, `${where} back`));
      await at(start, 'back to the start');
    }
    // Every option of every select, by keyboard and by choosing it.
    for (const select of SELECTS) {
      const values = Object.keys(select.options);
      // The page lists exactly these, in this order (the model's: the CLI's presets), once
      // the student can see the select (behind "more controls", opened).
      await reveal(grid.section, grid.section.getByTestId(select.testId));
      const listed = await grid.section.getByTestId(select.testId).locator('option').evaluateAll((all) => all.map((o) => o.value));
      assert.deepEqual(listed, [...values, ...(select.others ?? [])], `grid ${id} ${select.testId}: its options`);
      const initial = String(grid.config[select.field] ?? select.absent);
      for (const how of ['keys', 'pick']) {
        for (const value of [...values, initial]) {
          await choose(grid.section, select, value, how, selectStep(grid, select, `grid ${id} ${select.testId} (${how})`));
          assert.equal(await grid.section.getByTestId(select.testId).inputValue(), value);
          await checkFigures(grid, `grid ${id} ${select.testId} = ${value} (${how})`);
        }
      }
    }
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});

/** The rollout switch: seed 000's default engines, or none. */
const ROLLOUT = SWITCHES.find((s) => s.field === 'rollout');

/** A random target plan for a grid: mostly valid ones (drawn until the CLI accepts one). */
function randomPlan(r, id) {
  // Degrees: powers of two most of the time (they divide the grid), any value otherwise.
  const degree = () => (r.next() < 0.8 ? r.pick([1, 2, 4, 8]) : r.int(1, 8));
  const draw = () => ({
    tp: degree(),
    pp: degree(),
    cp: degree(),
    micro_batches: r.int(1, 64),
    seq_len: 2 ** r.int(10, 17),
    zero: r.int(0, 3),
    recompute: r.pick(['full', 'selective', 'none']),
    schedule: r.pick(['1f1b', 'gpipe', 'interleaved']),
    accounting: r.pick(['even', 'stages']),
    precision: r.pick(['bf16-grads', 'fp32-grads']),
    optimizer_offload: r.pick(['none', 'cpu']),
    sequence_parallel: r.pick([true, false]),
    runtime_memory: r.pick([false, true]),
    rollout: r.pick([ROLLOUT.off, ROLLOUT.on]),
    // The lesson's anchor (the default model) most of the time, any preset otherwise.
    model: r.next() < 0.6 ? coreDefaults().config.model : r.pick(presetIds()),
    // The lesson's card half the time, any card preset otherwise.
    hardware: r.next() < 0.5 ? 'lesson' : r.pick(coreDefaults().hardware.map((h) => h.id)),
  });
  const keepInvalid = r.next() < 0.15;
  for (let i = 0; i < 500; i++) {
    const plan = draw();
    if (keepInvalid) return plan;
    const card = cardFields(coreDefaults().hardware.find((h) => h.id === plan.hardware).config);
    const config = fullConfig({ gpus: id, ...plan, ...card, virtual_stages: plan.schedule === 'interleaved' ? 2 : 1 });
    if (cli(['eval'], config).ok) return plan;
  }
  return draw();
}

test(`property: ${PLANS_PER_GRID} random plans per grid through the controls agree with the CLI`, async (t) => {
  t.diagnostic(`SEED=${SEED} (replay: SEED=${SEED} node --test controls.test.mjs)`);
  console.log(`controls.test.mjs: SEED=${SEED}`);
  const r = rng(SEED);
  // The RL page: the only one with every control (the lesson's, the card and the model,
  // CPU Adam and the rollout engines).
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'rl.html' });
  for (const id of [8, 64]) {
    const grid = gridUnderTest(page, id);
    for (let n = 0; n < PLANS_PER_GRID; n++) {
      const plan = randomPlan(r, id);
      const where = `SEED=${SEED} grid ${id} plan ${n} ${JSON.stringify(plan)}`;
      // Controls in a random order, each by a random route.
      const steps = [
        ...SLIDERS.map((s) => ['slider', s]),
        ...SELECTS.map((s) => ['select', s]),
        ...SWITCHES.map((s) => ['switch', s]),
      ];
      for (let i = steps.length - 1; i > 0; i--) {
        const j = r.int(0, i);
        [steps[i], steps[j]] = [steps[j], steps[i]];
      }
      for (const [kind, control] of steps) {
        // A control already at its target is left alone, as a student would: the message
        // (if any) stays under the control moved last. A field the config does not write
        // stands at its control's `absent` option (runtime memory: off).
        const at = (config) => String(config[control.field] ?? control.absent);
        if (at(grid.config) === at(plan)) continue;
        if (kind === 'slider') {
          const target = control.positionOf(plan[control.field]);
          const how = r.pick(['arrows', 'page', 'ends', 'pointer']);
          const step = sliderStep(grid, control, `${where} ${control.testId} by ${how}`);
          if (how === 'pointer') await pointerTo(grid.section, control, target, step);
          else await keyboardTo(grid.section, control, target, how, step);
          assert.equal(grid.config[control.field], plan[control.field], `${where} ${control.testId} reached`);
        } else if (kind === 'switch') {
          const how = r.pick(['space', 'pointer']);
          await flip(grid.section, control, plan[control.field], how);
          grid.config[control.field] = plan[control.field];
        } else {
          const how = r.pick(['keys', 'pick']);
          const step = selectStep(grid, control, `${where} ${control.testId} by ${how}`);
          await choose(grid.section, control, plan[control.field], how, step);
        }
        const verdict = await checkVerdict(grid, control.testId, `${where} ${control.testId}`);
        if (verdict.error) {
          const stale = grid.section.locator('.stale-note');
          assert.equal(await stale.count(), 1, `${where}: a rejected plan marks the figures as the last valid ones`);
          const dp = derivedDp(grid.config);
          assert.equal(await visibleText(grid.section.getByTestId('derived-dp')), dp === null ? '—' : String(dp), `${where}: no stale DP`);
        }
      }
      const selected = grid.card;
      let card = r.int(0, id - 1);
      if (card === selected) card = (card + 1) % id;
      await clickCard(grid, card);
      await checkFigures(grid, where);
    }
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});

/** Words of English prose (not the lab's technical terms) that must not reach Chinese text. */
const ENGLISH = /\b(?!interleaved\b|micro\b|batch\b)[a-z]{3,}\b/i;

test('the reasons a student can reach read in Chinese, then in English', async () => {
  const { page, context, problems } = await openPage(lab);
  const section = page.getByTestId('section-8');
  const slider = (field) => SLIDERS.find((s) => s.field === field);
  const select = (field) => SELECTS.find((s) => s.field === field);
  // Each case: how to get there from the 8-card start, the control that shows it, the plan it
  // makes (in English the message is the CLI's reason for it, exactly) and what the Chinese
  // message must name.
  const cases = [
    {
      name: 'TP 3 on 8 cards',
      go: async () => keyboardTo(section, slider('tp'), 3),
      undo: async () => keyboardTo(section, slider('tp'), 1),
      testId: 'slider-tp',
      zh: ['8 张卡', 'TP·PP·CP = 3·1·1 = 3', '整除'],
      plan: { tp: 3 },
    },
    {
      name: 'CP 5 × PP 2 on 8 cards',
      go: async () => { await keyboardTo(section, slider('pp'), 2); await keyboardTo(section, slider('cp'), 5, 'page'); },
      undo: async () => { await keyboardTo(section, slider('cp'), 1, 'ends'); await keyboardTo(section, slider('pp'), 1); },
      testId: 'slider-cp',
      zh: ['8 张卡', '1·2·5 = 10'],
      plan: { pp: 2, cp: 5 },
    },
    {
      name: 'interleaved without a pipeline',
      go: async () => choose(section, select('schedule'), 'interleaved', 'keys'),
      undo: async () => choose(section, select('schedule'), '1f1b'),
      testId: 'select-schedule',
      zh: ['interleaved', 'PP 要大于 1'],
      plan: { schedule: 'interleaved', virtual_stages: 2 },
    },
    {
      name: 'interleaved with m not a multiple of PP',
      go: async () => {
        await keyboardTo(section, slider('pp'), 4);
        await choose(section, select('schedule'), 'interleaved');
        await keyboardTo(section, slider('micro_batches'), 6);
      },
      undo: async () => {
        await keyboardTo(section, slider('micro_batches'), 8);
        await choose(section, select('schedule'), '1f1b');
        await keyboardTo(section, slider('pp'), 1, 'ends');
      },
      testId: 'slider-m',
      zh: ['6 不是 4 的倍数'],
      plan: { pp: 4, schedule: 'interleaved', virtual_stages: 2, micro_batches: 6 },
    },
  ];
  for (const lang of ['zh', 'en']) {
    if (lang === 'en') await page.getByTestId('lang-toggle').click();
    for (const c of cases) {
      await c.go();
      const message = await controlError(section, c.testId);
      assert.ok(message, `${c.name} (${lang}): a message under ${c.testId}`);
      if (lang === 'zh') {
        for (const part of c.zh) assert.ok(message.includes(part), `${c.name} (zh): "${message}" lacks "${part}"`);
        assert.ok(message.match(CJK), `${c.name}: Chinese text in Chinese mode: "${message}"`);
        assert.ok(!ENGLISH.test(message.replace(/\b(TP|PP|CP|m)\b/g, '')), `${c.name}: English prose in Chinese mode: "${message}"`);
      } else {
        const reason = cli(['eval'], fullConfig({ ...START[8], ...c.plan })).error;
        assert.ok(reason, `${c.name}: the CLI rejects ${JSON.stringify(c.plan)}`);
        assert.equal(message, reason, `${c.name} (en): the CLI's reason`);
      }
      await c.undo();
      assert.equal(await controlError(section, c.testId), null, `${c.name} (${lang}): undone`);
    }
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});
