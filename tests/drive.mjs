// Drives a grid's controls the way a student does (keyboard on a focused slider, a pointer
// dragging its thumb, a choice in a select, a click on a card) and reads back everything the
// grid shows, so tests can compare it with `parallel-lab` on the same plan.
//
// Not a test file itself: `node --test` only picks up `*.test.mjs`.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import assert from 'node:assert/strict';
import { readSection } from './in-page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * The native CLI: `cargo build -p parallel-cli` puts it in `$CARGO_TARGET_DIR/debug` (a
 * relative one read from the workspace's root; `target/` when unset; scripts/test.sh builds
 * it); PARALLEL_LAB overrides.
 */
export const CLI = process.env.PARALLEL_LAB ??
  path.join(path.resolve(path.join(HERE, '..'), process.env.CARGO_TARGET_DIR ?? 'target'), 'debug', 'parallel-lab');

/**
 * Runs `parallel-lab ARGS` with `config` as JSON on stdin. Resolves to `{ ok: json }` or, for
 * a rejected plan (exit 2), `{ error: "field: reason" }`; anything else throws. A command that
 * reads no stdin (`--url`, `--megatron`) takes no `config`: the CLI may exit before a write to
 * its stdin, which then fails with EPIPE whenever the CLI is quick enough.
 */
export function cli(args, config) {
  // The same plan is asked about again and again (every value a control passes through): the
  // CLI is deterministic, so each question is asked once. Callers get their own copy.
  const key = JSON.stringify([args, config]);
  if (!CLI_ANSWERS.has(key)) CLI_ANSWERS.set(key, runCli(args, config));
  return structuredClone(CLI_ANSWERS.get(key));
}

const CLI_ANSWERS = new Map();

function runCli(args, config) {
  const run = spawnSync(CLI, args, { input: JSON.stringify(config), encoding: 'utf8' });
  if (run.error) throw new Error(`cannot run ${CLI}: ${run.error.message} (cargo build -p parallel-cli)`);
  if (run.status === 0) return { ok: JSON.parse(run.stdout) };
  if (run.status === 2) return { error: run.stderr.trim().replace(/^parallel-lab: error: /, '') };
  throw new Error(`parallel-lab ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
}

/** The page's starting plans (SPEC §2, "The page's starting plans"): where the lesson starts each grid. */
export const START = {
  8: { gpus: 8, zero: 3 },
  64: { gpus: 64, tp: 8, pp: 8 },
};

let asked;
/**
 * `parallel-lab defaults`, asked once: `{ config, presets, hardware, sliders }`, the plan an empty input stands
 * for (every field, the core's defaults, SPEC §2) and the model presets `[{ id, name }]` in
 * the order the page's picker lists them.
 */
export function coreDefaults() {
  asked ??= cli(['defaults']).ok;
  return asked;
}

/** A plan with every field written out: `config` over the core's defaults. */
export function fullConfig(config) {
  return { ...coreDefaults().config, ...config };
}

/** Each slider's test id on the page, by the config field it sets. */
const SLIDER_IDS = {
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
  if ((await element.isChecked()) === want) return;
  await reveal(element);
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

/** "131,072": the page's thousands separators. */
export const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

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
  await reveal(input);
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
  await reveal(input);
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
 * Opens the "more controls" disclosure around `element`, if it sits in a closed one, as a
 * person does before reaching for a control in it: a click on its summary. Resolves once the
 * control is visible.
 */
export async function reveal(element) {
  const details = element.locator('xpath=ancestor::details[1]');
  if ((await details.count()) === 0 || (await details.evaluate((d) => d.open))) return;
  await details.locator(':scope > summary').click();
  await element.waitFor({ state: 'visible' });
}

/**
 * Picks an option of a select as a person does: arrow keys on the focused select (passing
 * through the options between), or choosing it from the list.
 */
export async function choose(section, select, value, how = 'pick', onStep = noStep) {
  const element = section.getByTestId(select.testId);
  const want = String(value);
  if ((await element.inputValue()) === want) return;
  await reveal(element);
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
 * Everything the grid shows for its plan: DP, memory (bytes and text), traffic rows, bubble,
 * and every card's groups.
 */
export async function shown(section) {
  // One read of the whole section, so the figures are seen together, as drawn.
  return section.evaluate(readSection);
}

/**
 * `x` with `digits` decimals as Rust's `{:.N}` writes it: like `toFixed`, except that an exact
 * tie (2516.25 to one decimal) goes to the even digit, where `toFixed` rounds it up.
 */
export function fixed(x, digits) {
  // `toFixed` rounds the double's exact value; a tie is exact only when that value's digits
  // after the last kept one are 5 and then zeros (read from its exact expansion, not from a
  // rounded x·10^digits, which would call 1.95 = 1.9499999… a tie).
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const point = exact.indexOf('.');
  const rest = exact.slice(point + 1 + digits);
  if (/^50*$/.test(rest)) {
    const kept = exact.slice(0, point + 1 + digits);
    const last = Number(kept[kept.length - 1] === '.' ? kept[kept.length - 2] : kept[kept.length - 1]);
    if (last % 2 === 0) return (x < 0 ? '-' : '') + (digits === 0 ? kept.replace('.', '') : kept);
  }
  return x.toFixed(digits);
}

/** "55.6 GB": the core's Bytes display, one decimal in GB. */
export const gb = (bytes) => `${fixed(bytes / 1e9, 1)} GB`;

/** "18.47 s", "67.1 ms" or "14.0 µs" (under a tenth of a millisecond): the core's Seconds display. */
export const secondsText = (s) => {
  if (s >= 1) return `${fixed(s, 2)} s`;
  if (s > 0 && s < 1e-4) return `${fixed(s * 1e6, 1)} µs`;
  return `${fixed(s * 1e3, 1)} ms`;
};

/**
 * What the grid should show for `config` with `card` selected, from the CLI: `eval --card`
 * and `groups --card`. Each card's groups are the selected card's groups it belongs to.
 */
/**
 * The derived DP the controls show for `c`: N ÷ (TP·PP·CP), or null ("—") when that is not a
 * whole number. It is the controls' own, so it follows a rejected plan too.
 */
export function derivedDp(c) {
  const d = c.gpus / (c.tp * c.pp * c.cp);
  return Number.isInteger(d) && d >= 1 ? d : null;
}

export function expected(config, card) {
  const report = cli(['eval', '--card', String(card)], config).ok;
  const groups = cli(['groups', '--card', String(card)], config).ok;
  // Each dimension's time in the estimate: the results of `eval --explain`'s estimate-<dim>.
  const explained = cli(['eval', '--explain'], config).ok.explain;
  const dims = explained
    .filter((e) => /^estimate-(tp|cp|ep|pp|dp|edp|offload)$/.test(e.figure))
    .map((e) => [e.figure.slice('estimate-'.length), e.result]);
  const roles = {};
  for (const dim of ['tp', 'cp', 'pp', 'dp', 'ep', 'edp']) {
    if (!groups[dim] || groups[dim].length < 2) continue;
    for (const member of groups[dim]) roles[member] = [...(roles[member] ?? []), dim];
  }
  const cardGroups = {};
  for (const [member, dims] of Object.entries(roles)) cardGroups[member] = dims.sort().join(' ');
  return { report, groups: cardGroups, dims };
}

/** The report's `rollout` fields the page shows, each compared as it is. */
const ROLLOUT_KEYS = [
  'engines', 'gpus_per_engine', 'cards', 'colocated', 'sequences', 'sequences_per_engine',
  'tokens_per_sequence', 'weights', 'kv_cache', 'total', 'fits', 'peak', 'peak_phase',
];

/**
 * Compares what the grid shows with the CLI's figures for the same plan; returns a list of
 * differences (empty when everything agrees).
 */
export function differences(got, want) {
  const out = [];
  const same = (what, a, b) => {
    if (a !== b) out.push(`${what}: page ${JSON.stringify(a)}, CLI ${JSON.stringify(b)}`);
  };
  const r = want.report;
  same('dp', got.dp, r.dp);
  for (const key of ['model_states', 'activations', 'total']) {
    same(`memory.${key} bytes`, got.memory[key].bytes, r.memory[key]);
    if (!got.memory[key].text.startsWith(gb(r.memory[key]))) {
      out.push(`memory.${key} text: page "${got.memory[key].text}", CLI ${gb(r.memory[key])}`);
    }
  }
  same('memory.fits', got.memory.fits, r.memory.fits);
  // The host's figure exactly when the CLI reports one (the optimizer on the host).
  same('memory.host shown', Boolean(got.memory.host), Boolean(r.memory.host));
  if (got.memory.host && r.memory.host) {
    for (const key of ['per_gpu', 'per_node', 'capacity', 'fits']) {
      same(`memory.host.${key}`, got.memory.host[key], r.memory.host[key]);
    }
    if (!got.memory.host.text.startsWith(gb(r.memory.host.per_gpu))) {
      out.push(`memory.host text: page "${got.memory.host.text}", CLI ${gb(r.memory.host.per_gpu)}`);
    }
    if (!got.memory.host.node_text.startsWith(`${gb(r.memory.host.per_node)} / ${gb(r.memory.host.capacity)}`)) {
      out.push(`memory.host node text: page "${got.memory.host.node_text}", CLI ${gb(r.memory.host.per_node)}`);
    }
  }
  same('memory.tight', got.memory.tight, r.memory.tight);
  // The rollout figures exactly when the CLI reports rollout engines (SPEC §15), each equal.
  same('rollout shown', Boolean(got.rollout), Boolean(r.rollout));
  if (got.rollout && r.rollout) {
    for (const key of ROLLOUT_KEYS) same(`rollout.${key}`, got.rollout[key], r.rollout[key]);
    for (const [i, key] of ['weights', 'kv_cache', 'total', 'peak'].entries()) {
      if (!got.rollout.text[i].startsWith(gb(r.rollout[key]))) {
        out.push(`rollout.${key} text: page "${got.rollout.text[i]}", CLI ${gb(r.rollout[key])}`);
      }
    }
  }
  same('traffic dims', got.traffic.map((t) => t.dim).join(','), r.comm.map((t) => t.dim).join(','));
  for (const t of r.comm) {
    const row = got.traffic.find((g) => g.dim === t.dim);
    if (!row) continue;
    same(`traffic.${t.dim} bytes`, row.bytes, t.bytes);
    same(`traffic.${t.dim} link`, row.link, t.link);
    same(`traffic.${t.dim} group size`, row.group_size, t.group_size);
    same(`traffic.${t.dim} collective`, row.collective, t.collective);
    if (!row.cells.includes(String(t.group_size))) out.push(`traffic.${t.dim}: no cell shows ${t.group_size}`);
    if (!row.cells.includes(gb(t.bytes))) out.push(`traffic.${t.dim}: no cell shows ${gb(t.bytes)}`);
  }
  // The step-time estimate: every term, and each shown in the text.
  same('estimate dims', JSON.stringify(got.estimate.dims), JSON.stringify(want.dims));
  if (!got.estimate.text[3].includes(secondsText(r.estimate.latency_s))) out.push(`estimate latency: "${got.estimate.text[3]}" lacks ${secondsText(r.estimate.latency_s)}`);
  for (const key of ['step_s', 'compute_s', 'bubble_s', 'exposed_comm_s', 'tokens_per_s_per_gpu', 'tokens_per_step', 'latency_s', 'roofline_factor', 'mfu']) {
    same(`estimate.${key}`, got.estimate[key], r.estimate[key]);
  }
  if (got.estimate.text[0] !== secondsText(r.estimate.step_s)) out.push(`estimate step text: page "${got.estimate.text[0]}", CLI ${secondsText(r.estimate.step_s)}`);
  for (const key of ['compute_s', 'bubble_s', 'exposed_comm_s']) {
    if (!got.estimate.text[1].includes(secondsText(r.estimate[key]))) out.push(`estimate ${key}: "${got.estimate.text[1]}" lacks ${secondsText(r.estimate[key])}`);
  }
  for (const count of [Math.round(r.estimate.tokens_per_s_per_gpu), r.estimate.tokens_per_step]) {
    if (!got.estimate.text[2].includes(thousands(count))) out.push(`estimate throughput: "${got.estimate.text[2]}" lacks ${thousands(count)}`);
  }
  // Compute by kind of kernel and the optimizer step exactly on a card with measured tables
  // (SPEC §18), each term equal and shown in its line.
  same('estimate.kernels shown', Boolean(got.estimate.kernels), Boolean(r.estimate.kernels));
  if (got.estimate.kernels && r.estimate.kernels) {
    for (const key of ['gemm_s', 'attention_s', 'memory_bound_s', 'optimizer_s', 'borrowed']) {
      same(`estimate.kernels.${key}`, got.estimate.kernels[key], r.estimate.kernels[key]);
    }
    for (const key of ['gemm_s', 'attention_s', 'memory_bound_s', 'optimizer_s']) {
      const want = secondsText(r.estimate.kernels[key]);
      if (!got.estimate.kernels.text.includes(want)) out.push(`estimate.kernels.${key}: "${got.estimate.kernels.text}" lacks ${want}`);
    }
  }
  same('bubble.ratio', got.bubble.ratio, r.bubble.ratio);
  same('bubble.share', got.bubble.share, r.bubble.share);
  same('card groups', JSON.stringify(got.groups), JSON.stringify(want.groups));
  // Each card's own memory: its stage's entry with "stages", the headline with "even"; every
  // stage holds N/p cards.
  const stages = r.memory.by_stage;
  const perStage = got.cards.length / stages.length;
  for (const [index, stage] of stages.entries()) {
    const count = got.cards.filter((c) => c.stage === index).length;
    if (count !== perStage) out.push(`stage ${index}: ${count} cards, expected ${perStage}`);
  }
  for (const [card, c] of got.cards.entries()) {
    const own = r.memory.busiest_stage === undefined ? r.memory : stages[c.stage];
    if (c.bytes !== own?.total) out.push(`card ${card} (stage ${c.stage}) data-bytes: page ${c.bytes}, CLI ${own?.total}`);
    if (c.tight !== own?.tight) out.push(`card ${card} (stage ${c.stage}) data-tight: page ${c.tight}, CLI ${own?.tight}`);
    if (c.tightClass !== Boolean(own?.tight)) out.push(`card ${card}: class tight ${c.tightClass}, CLI tight ${own?.tight}`);
  }
  return out;
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
