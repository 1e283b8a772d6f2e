// The rollout engines of an RL step (issue 26, item 2, SPEC §15) on both grids, driven as a
// student drives them: the switch by Space, the engine's slider by arrow keys over its whole
// range, each count typed in (select all, type) with values the core takes and values it
// refuses, the KV cache's bytes and the pool by arrow keys over every option, a separate
// pool's cards typed in, and the log-probability chunk by keys over its range with memory by
// stage. At every state every figure on screen (the rollout card's weights, KV cache, total and
// peak, its engines and sequences included) equals `parallel-lab eval --card` on the same
// plan; a refused value shows the CLI's reason under its input (in English exactly, in
// Chinese with its numbers), while the figures keep the last valid plan.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, scrollToElement, settleAndCheck } from './harness.mjs';
import {
  SELECTS, START, agree, choose, cli, controlError, controlOf, fullConfig, gb, keyboardTo, sliderState,
  sliderOf, thousands,
} from './drive.mjs';

const lab = labForFile();

const accounting = SELECTS.find((s) => s.field === 'accounting');
/** The KV cache's select: option → kv_bytes, in the select's order. */
const KV = { testId: 'select-kv', options: { bf16: 2, fp8: 1, fp32: 4 } };
/** Where the engines run: option → rollout_gpus (a separate pool starts at the grid's N). */
const POOL = { testId: 'select-pool', options: { colocated: 0, separate: 'N' } };
/** The log-probability chunk: position 7 is the whole micro-batch (0), then 2^8 … 2^17. */
const CHUNK = sliderOf('log_probs_chunk');
const chunkAt = CHUNK.valueAt;
/** A Chinese character (no `g` flag: `test` and `match` keep no state). */
const HAN = /[\u4e00-\u9fff]/;

/** Waits, frame by frame, until the message under `testId` (null: none) passes `check`. */
async function messageIs(page, section, testId, check, what) {
  let message;
  for (let frame = 0; frame < 600; frame++) {
    message = await controlError(section, testId);
    if (check(message)) return message;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  assert.fail(`${what}: the message under ${testId} is ${JSON.stringify(message)}`);
}

/** Types `value` into an input as a person replaces a field's text: click, select all, type. */
async function typeInto(section, testId, value) {
  const input = section.getByTestId(testId);
  await input.click();
  await input.press('Control+A');
  await input.pressSequentially(String(value));
}

/** Presses `key` on the focused slider; reports the new position if it moved. */
async function press(section, slider, key, onStep) {
  const input = section.getByTestId(slider.testId);
  const before = Number(await input.inputValue());
  await input.page().keyboard.press(key);
  const after = Number(await input.inputValue());
  if (after !== before) await onStep(after);
  return after;
}

/** The whole range by keys: Home, every ArrowRight to the top, End, every ArrowLeft down. */
async function sweep(section, slider, onStep) {
  await section.getByTestId(slider.testId).focus();
  let position = await press(section, slider, 'Home', onStep);
  assert.equal(position, slider.min, `${slider.testId}: Home`);
  while (position < slider.max) position = await press(section, slider, 'ArrowRight', onStep);
  assert.equal(await press(section, slider, 'End', onStep), slider.max, `${slider.testId}: End`);
  while (position > slider.min) position = await press(section, slider, 'ArrowLeft', onStep);
}

for (const [id, card, lang] of [[8, 3, 'zh'], [64, 19, 'en']]) {
  test(`grid-${id} (${lang}): rollout engines by keys and typing, every figure against eval`, async () => {
    const { page, context, problems } = await openPage(lab, undefined, { entry: 'rl.html' });
    if (lang === 'en') await page.getByTestId('lang-toggle').click();
    const section = page.getByTestId(`section-${id}`);
    await scrollToElement(section);
    await section.getByTestId(`grid-${id}`).getByTestId(`card-${card}`).click();
    const panel = section.getByTestId('rollout-panel');
    const toggle = panel.getByTestId('toggle-rollout');
    // The plan the test has set: the grid's start, other fields, and the engines (or none).
    let fields = {};
    let rollout = null;
    const config = () => fullConfig({ ...START[id], ...fields, rollout });
    const check = (what) => agree(section, config(), card, what);

    assert.equal(await toggle.isChecked(), false, 'rollout starts off (the lesson trains only)');
    assert.equal(await toggle.getAttribute('role'), 'switch');
    await check('the start');
    assert.equal(await section.getByTestId('rollout-weights').count(), 0, 'no rollout figures while off');
    assert.equal(await panel.getByTestId('slider-engine').count(), 0, 'no engine controls while off');

    // On by the keyboard: seed 000's default engines.
    await toggle.focus();
    await page.keyboard.press('Space');
    assert.equal(await toggle.isChecked(), true, 'Space turns rollout on');
    rollout = {};
    const start = await check('rollout on by Space');
    assert.equal(start.rollout.gpus_per_engine, 8, 'the default engine spans 8 cards');

    // The engine's size over its whole range: E = 1 … N.
    const engine = sliderOf('rollout.gpus_per_engine', id);
    const sizes = [];
    const setEngine = async (position) => {
      rollout = { ...rollout, gpus_per_engine: 2 ** position };
      sizes.push(2 ** position);
      const report = await check(`E = ${2 ** position}`);
      const state = await sliderState(section, engine);
      assert.equal(state.valuetext, thousands(2 ** position), 'aria-valuetext is E');
      assert.equal(state.label, thousands(2 ** position), 'the label is E');
      assert.equal(await controlError(section, engine.testId), null, `E = ${2 ** position} splits ${id} cards`);
      assert.equal(report.rollout.engines, id / 2 ** position);
    };
    await sweep(section, engine, setEngine);
    const powers = [...Array(engine.max + 1).keys()].map((p) => 2 ** p);
    assert.deepEqual(sizes, [...powers, ...powers.slice(0, -1).reverse()], 'Home to 1, every size up to N and down');
    await keyboardTo(section, engine, 2, 'arrows', setEngine);

    // The counts typed in: a value the core takes, then ones it refuses (its reason under the
    // input, naming the field; the figures keep the last valid plan), then a good one again.
    const counts = [
      ['input-prompts', 'prompts', [16, 0, 4]],
      ['input-samples', 'samples_per_prompt', [0, 16]],
      ['input-prompt-len', 'prompt_len', [4096, 2 ** 26, 1024]],
      ['input-response-len', 'response_len', [2 ** 26, 32768]],
    ];
    // Each key typed sets the count typed so far: the page keeps the last one the core took.
    const refusal = (engines) => cli(['eval'], fullConfig({ ...START[id], ...fields, rollout: engines })).error;
    const typeCount = async (testId, field, value) => {
      await typeInto(section, testId, value);
      for (let end = 1; end <= String(value).length; end++) {
        const tried = { ...rollout, [field]: Number(String(value).slice(0, end)) };
        if (!refusal(tried)) rollout = tried;
      }
      return refusal({ ...rollout, [field]: value });
    };
    for (const [testId, field, values] of counts) {
      for (const value of values) {
        const refused = await typeCount(testId, field, value);
        if (!refused) {
          await check(`${field} ${value}`);
          await messageIs(page, section, testId, (m) => m === null, `${field} ${value} is taken`);
          continue;
        }
        assert.match(refused, new RegExp(`^rollout\\.`), `the CLI names a rollout field for ${field} ${value}`);
        const message = await messageIs(page, section, testId, (m) => m !== null, `${field} ${value}`);
        if (lang === 'en') {
          assert.equal(message, refused, `${field} ${value}: the CLI's reason`);
        } else {
          assert.match(message, HAN, `${field} ${value}: in Chinese`);
          assert.ok(message.includes(thousands(value)), `${field} ${value}: "${message}" has the number`);
        }
        await check(`${field} ${value} refused: the last valid plan`);
      }
    }
    // Text that is not a count is named by the field's label; the plan stays.
    await typeInto(section, 'input-prompts', 'abc');
    const label = await controlOf(section, 'input-prompts').locator('.control-name').innerText();
    const typo = await messageIs(page, section, 'input-prompts', (m) => m !== null, 'abc');
    assert.ok(typo.startsWith(label.trim()), `"${typo}" names ${label}`);
    await check('abc: the last valid plan');
    await typeInto(section, 'input-prompts', rollout.prompts);
    await messageIs(page, section, 'input-prompts', (m) => m === null, 'prompts again');

    // The KV cache's bytes by keys, every option, and back.
    const kv = [];
    const setKv = async (value) => {
      kv.push(value);
      rollout = { ...rollout, kv_bytes: KV.options[value] };
      await check(`kv ${value}`);
    };
    for (const value of ['fp32', 'bf16']) await choose(section, KV, value, 'keys', setKv);
    assert.deepEqual(kv, ['fp8', 'fp32', 'fp8', 'bf16'], 'every KV option by arrow keys');

    // A separate pool by keys; its cards typed in (a pool E does not divide is refused).
    const setPool = async (value) => {
      rollout = { ...rollout, rollout_gpus: value === 'separate' ? id : 0 };
      await check(`pool ${value}`);
    };
    await choose(section, POOL, 'separate', 'keys', setPool);
    const gpusPerEngine = rollout.gpus_per_engine;
    for (const value of [gpusPerEngine * 3 + 2, gpusPerEngine * 6]) {
      const refused = await typeCount('input-rollout-gpus', 'rollout_gpus', value);
      if (refused) {
        const message = await messageIs(page, section, 'input-rollout-gpus', (m) => m !== null, `R = ${value}`);
        if (lang === 'en') assert.equal(message, refused, `R = ${value}: the CLI's reason`);
        else assert.ok(message.includes(thousands(value)) && HAN.test(message), `R = ${value}: "${message}"`);
        await check(`R = ${value} refused: the last valid plan`);
      } else {
        const report = await check(`R = ${value}`);
        assert.equal(report.rollout.cards, id + value, 'N + R cards in all');
        assert.equal(report.rollout.colocated, false);
      }
    }
    assert.equal(rollout.rollout_gpus, gpusPerEngine * 6, 'the divisible pool was taken, the other refused');
    await choose(section, POOL, 'colocated', 'keys', setPool);
    assert.equal(await section.getByTestId('input-rollout-gpus').count(), 0, 'no pool input when colocated');

    // The log-probability chunk by keys over its range, with memory by stage: the last
    // stage's logits shrink to a chunk.
    await choose(section, accounting, 'stages', 'keys', async (value) => {
      fields = { ...fields, ...accounting.options[value] };
      await check(`accounting ${value}`);
    });
    const lastStage = new Map();
    await sweep(section, CHUNK, async (position) => {
      fields = { ...fields, log_probs_chunk: chunkAt(position) };
      const report = await check(`chunk ${chunkAt(position)}`);
      lastStage.set(chunkAt(position), report.memory.by_stage.at(-1).total);
      const state = await sliderState(section, CHUNK);
      if (position !== CHUNK.min) assert.equal(state.valuetext, thousands(chunkAt(position)));
    });
    assert.equal(lastStage.size, CHUNK.max - CHUNK.min + 1, 'every chunk visited');
    assert.ok(lastStage.get(256) < lastStage.get(0), `chunks of 256 hold less than the whole micro-batch (${gb(lastStage.get(256))} < ${gb(lastStage.get(0))})`);
    assert.notEqual((await sliderState(section, CHUNK)).valuetext, '0', 'the first position is named, not 0');

    // Off by a click: the figures go, the plan trains only again.
    await toggle.click();
    rollout = null;
    await check('rollout off');
    assert.equal(await section.getByTestId('rollout-total').count(), 0, 'the figures go with it');
    console.log(`grid-${id}: default engines ${gb(start.rollout.weights)} weights + ${gb(start.rollout.kv_cache)} KV = ${gb(start.rollout.total)}, peak ${gb(start.rollout.peak)} (${start.rollout.peak_phase}); last stage ${gb(lastStage.get(0))} → ${gb(lastStage.get(256))} with 256-token chunks`);
    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}
