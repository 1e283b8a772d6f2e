// Drives a grid's controls the way a student does (keyboard on a focused slider, a pointer
// dragging its thumb, a choice in a select, a click on a card) and reads back everything the
// grid shows, so tests can compare it with `parallel-lab` on the same plan.
//
// Not a test file itself: `node --test` only picks up `*.test.mjs`. What the page should show
// (the CLI, the number formats, `differences`) is in expect.mjs, re-exported here.

import assert from 'node:assert/strict';
import { coreDefaults, differences, expected } from './expect.mjs';
import { readSection } from './in-page.mjs';

export * from './expect.mjs';

/** Each slider's test id on the page, by the config field it sets. */
export const SLIDER_IDS = {
  tp: 'slider-tp',
  pp: 'slider-pp',
  cp: 'slider-cp',
  micro_batches: 'slider-m',
  seq_len: 'slider-seq',
  ep: 'slider-ep',
  'rollout.gpus_per_engine': 'slider-engine',
  log_probs_chunk: 'slider-logprob-chunk',
};

/**
 * A slider of the grid of `gpus` cards as the tests drive it, from the values the core says it
 * offers (`parallel-lab defaults`' `sliders`, which the page's sliders are built from):
 * config field, test id, positions `min`…`max`, and value ⇄ position. A slider over powers
 * of two has log2 positions; one with `zero` has 0 one position before its smallest value.
 */
export function sliderOf(field, gpus = 8) {
  const range = coreDefaults().sliders[gpus]?.find((s) => s.field === field);
  if (!range) throw new Error(`the CLI lists no ${field} slider for ${gpus} cards`);
  const log2 = range.powers_of_two;
  const toPosition = (value) => (log2 ? Math.log2(value) : value);
  const first = toPosition(range.min);
  const min = range.zero ? first - 1 : first;
  return {
    field,
    testId: SLIDER_IDS[field],
    min,
    max: toPosition(range.max),
    log2,
    valueAt: (position) => (range.zero && position === min ? 0 : log2 ? 2 ** position : position),
    positionOf: (value) => (range.zero && value === 0 ? min : toPosition(value)),
  };
}

/** The five sliders of a grid, in page order (the same on both grids). */
export const SLIDERS = ['tp', 'pp', 'cp', 'micro_batches', 'seq_len'].map((field) => sliderOf(field));

/** The model presets' ids, in the picker's order (the CLI's `defaults`). */
export const presetIds = () => coreDefaults().presets.map((p) => p.id);

/**
 * The selects of a grid: config field, test id, options (value → config fields, in the
 * select's order) and the values it lists after them that are not driven here (`others`).
 * The model's options are the presets; after them, "your own model" (a pasted config.json).
 */
export const SELECTS = [
  {
    field: 'model', testId: 'select-model',
    get options() {
      return Object.fromEntries(presetIds().map((id) => [id, { model: id }]));
    },
    others: ['custom'],
  },
  {
    // The card: each preset sets the card's fields (the CLI's `defaults` lists them).
    field: 'hardware', testId: 'select-hardware',
    get options() {
      return Object.fromEntries(coreDefaults().hardware.map((h) => [h.id, cardFields(h.config)]));
    },
  },
  {
    field: 'zero', testId: 'select-zero',
    options: { 0: { zero: 0 }, 1: { zero: 1 }, 2: { zero: 2 }, 3: { zero: 3 } },
  },
  {
    // The ledger: the lesson's 16 bytes per parameter, or seed 000's 18 (FP32 gradients).
    field: 'precision', testId: 'select-precision',
    options: { 'bf16-grads': { precision: 'bf16-grads' }, 'fp32-grads': { precision: 'fp32-grads' } },
  },
  {
    field: 'recompute', testId: 'select-recompute',
    options: { full: { recompute: 'full' }, selective: { recompute: 'selective' }, none: { recompute: 'none' } },
  },
  {
    field: 'schedule', testId: 'select-schedule',
    options: {
      '1f1b': { schedule: '1f1b', virtual_stages: 1 },
      gpipe: { schedule: 'gpipe', virtual_stages: 1 },
      interleaved: { schedule: 'interleaved', virtual_stages: 2 },
    },
  },
  {
    field: 'accounting', testId: 'select-accounting',
    options: { even: { accounting: 'even' }, stages: { accounting: 'stages' } },
  },
  {
    // Sequence parallelism: acts at TP > 1; an MoE model there needs it on (SPEC §22).
    field: 'sequence_parallel', testId: 'select-sp',
    options: { true: { sequence_parallel: true }, false: { sequence_parallel: false } },
  },
  {
    // The runtime terms (SPEC §24): off by default, and then not written in a config
    // (`absent`: the option a config without the field stands for).
    field: 'runtime_memory', testId: 'select-runtime', absent: 'false',
    options: { false: { runtime_memory: false }, true: { runtime_memory: true } },
  },
  {
    // The longest micro-batch over s (SPEC §25): 1 by default, and then not written; "other"
    // stands for a σ from a link, chosen by the plan alone.
    field: 'sequence_skew', testId: 'select-seqskew', absent: 'packed', others: ['other'],
    options: {
      packed: { sequence_skew: 1 }, 'x1.5': { sequence_skew: 1.5 }, x2: { sequence_skew: 2 }, x4: { sequence_skew: 4 },
    },
  },
];

/**
 * The switches of a grid: config field, test id, and the field's value when on and off. The
 * rollout switch turns on seed 000's default engines (`{}`: every field the core's default).
 */
export const SWITCHES = [
  { field: 'optimizer_offload', testId: 'toggle-offload', on: 'cpu', off: 'none' },
  { field: 'rollout', testId: 'toggle-rollout', on: {}, off: null },
];

/**
 * Sets a switch to `value` (its `on` or `off`) as a person does: Space on the focused switch,
 * or a click. Resolves once the switch shows it.
 */
export async function flip(section, sw, value, how = 'pointer') {
  const element = section.getByTestId(sw.testId);
  const want = value === sw.on;
  await reveal(section, element);
  if ((await element.isChecked()) === want) return;
  if (how === 'space') {
    await element.focus();
    await element.page().keyboard.press('Space');
  } else {
    await element.click();
  }
  if ((await element.isChecked()) !== want) throw new Error(`${sw.testId} did not turn ${want ? 'on' : 'off'}`);
}

/** The fields a card preset sets (`PlanConfig::use_card`), read off its default plan. */
export const CARD_FIELDS = [
  'hardware', 'gpu_memory_gb', 'nvlink_gbps', 'ib_gbps', 'hbm_tbps', 'peak_tflops', 'gpu_tflops',
  'nvlink_latency_us', 'ib_latency_us',
];
export const cardFields = (config) => Object.fromEntries(CARD_FIELDS.map((k) => [k, config[k]]));

/** A small seeded PRNG (mulberry32): the same seed replays the same run. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}

/** The control block (label, input, message) around a control's test id. */
export const controlOf = (section, testId) =>
  section.locator('.control').filter({ has: section.page().getByTestId(testId) });

/** What a slider shows: its position, aria-valuetext and the label's value (one read). */
export async function sliderState(section, slider) {
  return controlOf(section, slider.testId).evaluate((control, testId) => {
    const input = control.querySelector(`[data-testid="${testId}"]`);
    return {
      position: Number(input.value),
      valuetext: input.getAttribute('aria-valuetext'),
      label: control.querySelector('.control-value').innerText.trim(),
    };
  }, slider.testId);
}

/**
 * Each value a control passes through changes the page's plan (the page keeps the last valid
 * one), so the drivers below report every new position to `onStep(position)` as it happens.
 */
const noStep = async () => {};

/** Presses `key`, then reports the slider's position if it moved. */
async function pressAndReport(input, key, onStep) {
  const before = await input.inputValue();
  await input.page().keyboard.press(key);
  const after = await input.inputValue();
  if (after !== before) await onStep(Number(after));
}

/**
 * Where PageUp (`up`) or PageDown takes a slider over whole numbers from `value`, as the page
 * promises (issue 37: m from 8 to 32 in two presses): the next power of two above, or the one
 * below, held to the slider's range.
 */
export function pageStep(slider, value, up) {
  let next = 1;
  if (up) while (next <= value) next *= 2;
  else while (next * 2 < value) next *= 2;
  return Math.min(slider.max, Math.max(slider.min, next));
}

/**
 * Moves a slider to `target` (a position) by keyboard: Home/End for the ends, PageUp/PageDown
 * to get near when far (over whole numbers the page jumps between powers of two, `pageStep`;
 * over powers of two Chromium moves a tenth of the range, at least one step), then the
 * arrow keys. `how` picks among equivalent routes ("arrows", "page", "ends").
 */
export async function keyboardTo(section, slider, target, how = 'arrows', onStep = noStep) {
  const input = section.getByTestId(slider.testId);
  await reveal(section, input);
  await input.focus();
  const position = async () => Number(await input.inputValue());
  if (how === 'ends' || target === slider.min || target === slider.max) {
    const key = target - slider.min <= slider.max - target ? 'Home' : 'End';
    await pressAndReport(input, key, onStep);
  }
  if (how === 'page' && !slider.log2) {
    // The page's own PageUp/PageDown on a slider over whole numbers: to the next power of
    // two above, or the one below (pageStep); taken while it does not pass the target.
    for (let i = 0; i < 20; i++) {
      const now = await position();
      const up = target > now;
      const next = pageStep(slider, now, up);
      if (now === target || (up ? next > target : next < target)) break;
      await pressAndReport(input, up ? 'PageUp' : 'PageDown', onStep);
    }
  } else if (how === 'page') {
    const page10 = Math.max(1, Math.round((slider.max - slider.min) / 10));
    for (let i = 0; i < 20; i++) {
      const now = await position();
      if (Math.abs(target - now) < page10) break;
      await pressAndReport(input, target > now ? 'PageUp' : 'PageDown', onStep);
    }
  }
  for (let i = 0; i < 200; i++) {
    const now = await position();
    if (now === target) return;
    await pressAndReport(input, target > now ? 'ArrowRight' : 'ArrowLeft', onStep);
  }
  throw new Error(`keys could not move ${slider.testId} to ${target}`);
}

/**
 * Moves a slider to `target` with the pointer: presses on the track where that position
 * should be, then drags (a pixel at a time) until the input says it is there, and lets go.
 */
export async function pointerTo(section, slider, target, onStep = noStep) {
  const page = section.page();
  const input = section.getByTestId(slider.testId);
  const span = slider.max - slider.min;
  await reveal(section, input);
  // Look before pressing, as a person does: the page may still be settling (sections near
  // the viewport take their real height as they are drawn), so wait until the point about
  // to be pressed is the slider itself.
  let box;
  let x;
  let y;
  for (let look = 0; ; look++) {
    await input.scrollIntoViewIfNeeded();
    box = await input.boundingBox();
    y = box.y + box.height / 2;
    x = box.x + 8 + ((target - slider.min) / span) * (box.width - 16);
    const onSlider = await input.evaluate((element, [px, py]) => document.elementFromPoint(px, py) === element, [x, y]);
    if (onSlider) break;
    if (look === 20) throw new Error(`${slider.testId} is not under the pointer at (${x}, ${y})`);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }
  let last = Number(await input.inputValue());
  const report = async () => {
    const now = Number(await input.inputValue());
    if (now !== last) await onStep(now);
    last = now;
    return now;
  };
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 0; i < 200; i++) {
    const now = await report();
    if (now === target) break;
    x = Math.min(box.x + box.width - 1, Math.max(box.x + 1, x + (target > now ? 1 : -1)));
    await page.mouse.move(x, y);
  }
  await page.mouse.up();
  const reached = await report();
  if (reached !== target) throw new Error(`pointer could not drag ${slider.testId} to ${target} (at ${reached})`);
}

/**
 * Opens the "more controls" disclosure `element` sits behind in `section`, if it is closed, as
 * a person does before reaching for a control in it: a click on its summary. The controls
 * behind a disclosure are drawn once it is first opened (their code comes from a split
 * module), so a control not there yet is looked for behind the section's disclosure. Resolves
 * once the control is visible (at once for one in view).
 */
export async function reveal(section, element) {
  const there = (await element.count()) > 0;
  const details = there ? element.locator('xpath=ancestor::details[1]') : section.getByTestId('more-controls');
  const closed = (await details.count()) > 0 && !(await details.evaluate((d) => d.open));
  if (closed) await details.locator(':scope > summary').click();
  if (closed || !there) await element.waitFor({ state: 'visible' });
}

/**
 * Picks an option of a select as a person does: arrow keys on the focused select (passing
 * through the options between), or choosing it from the list.
 */
export async function choose(section, select, value, how = 'pick', onStep = noStep) {
  const element = section.getByTestId(select.testId);
  const want = String(value);
  await reveal(section, element);
  if ((await element.inputValue()) === want) return;
  if (how === 'keys') {
    const values = Object.keys(select.options);
    await element.focus();
    for (let i = 0; i < values.length + 1; i++) {
      const now = await element.inputValue();
      if (now === want) return;
      await element.page().keyboard.press(values.indexOf(want) > values.indexOf(now) ? 'ArrowDown' : 'ArrowUp');
      const after = await element.inputValue();
      if (after !== now) await onStep(after);
    }
    throw new Error(`keys could not reach ${want} on ${select.testId}`);
  }
  await element.selectOption(want);
  await onStep(want);
}

/** The message under a control, or null. */
export async function controlError(section, testId) {
  // Read as a student reads it: on screen. A section far from the viewport is not drawn
  // (CSS content-visibility), and its placeholder size can make a first scroll aim at a stale
  // position, so scroll (to the section, then to the message) until the message is drawn.
  return controlOf(section, testId).evaluate(async (control) => {
    const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (let look = 0; ; look++) {
      const message = control.querySelector('.control-error');
      if (!message) return null;
      const text = message.innerText.trim();
      if (text || !message.textContent.trim() || look === 40) return text;
      const target = look % 2 === 0 ? message.closest('section') ?? message : message;
      target.scrollIntoView({ block: look % 2 === 0 ? 'start' : 'nearest', behavior: 'instant' });
      await frames();
    }
  });
}

/**
 * Selects card `card` of the grid `gpus` in `section` by a click, unless it is selected already:
 * a click on the selected card clears it (a card drawn twice in a row stays selected).
 */
export async function selectCard(section, gpus, card) {
  const target = section.getByTestId(`grid-${gpus}`).getByTestId(`card-${card}`);
  if ((await target.getAttribute('aria-pressed')) !== 'true') await target.click();
}

/**
 * Everything the grid shows for its plan: DP, memory (bytes and text), traffic rows, bubble,
 * and every card's groups.
 */
export async function shown(section) {
  // One read of the whole section, so the figures are seen together, as drawn.
  return section.evaluate(readSection);
}


/**
 * Waits, frame by frame, until `section` shows the CLI's figures for `config` with `card`
 * selected (the page redraws on the frame after an input); fails with the differences left.
 * Resolves to the CLI's report.
 */
export async function agree(section, config, card, what) {
  const page = section.page();
  const want = expected(config, card);
  let diffs = [];
  for (let frame = 0; frame < 600; frame++) {
    diffs = differences(await shown(section), want);
    if (diffs.length === 0) return want.report;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  assert.deepEqual(diffs, [], `${what}: page and CLI differ on ${JSON.stringify(config)} card ${card}`);
  return want.report;
}
