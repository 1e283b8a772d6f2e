// The rollout phase on the grid (issue 26, item 2, SPEC §15): with the engines on, the phase
// picker (`select-phase`, by arrow keys) switches the grid from training to rollout. There,
// each card carries its engine (`data-engine`) and a rollout card's memory, a clicked card
// lights its engine like any other group (`data-groups` "engine", the legend's row), and all of
// it equals `parallel-lab groups --phase rollout` and `eval` on the same plan, over the engine
// slider's whole range (keys on the 8-card grid, the pointer on the 64-card one). A separate
// pool cannot be shown on the grid: the rollout option is off and the grid shows training.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, scrollToElement, settleAndCheck, visibleText } from './harness.mjs';
import { START, SWITCHES, choose, cli, expected, flip, fullConfig, gb, keyboardTo, pointerTo, sliderOf } from './drive.mjs';

const lab = labForFile();

const PHASE = { testId: 'select-phase', options: { training: 'training', rollout: 'rollout' } };
const POOL = { testId: 'select-pool', options: { colocated: 0, separate: 'N' } };
const ROLLOUT = SWITCHES.find((s) => s.field === 'rollout');

/** Every card as the grid shows it: engine, stage, groups, memory. */
function readCards(grid) {
  return grid.evaluate((svg) =>
    [...svg.querySelectorAll('[data-card]')].map((card) => ({
      card: Number(card.dataset.card),
      engine: card.getAttribute('data-engine'),
      stage: card.getAttribute('data-stage'),
      groups: (card.getAttribute('data-groups') ?? '').split(/\s+/).filter(Boolean).sort().join(' '),
      bytes: Number(card.getAttribute('data-bytes')),
      fits: card.getAttribute('data-fits') === 'true',
      coords: card.querySelector('.card-coords').textContent,
    })),
  );
}

/**
 * What the CLI says the grid should show in the rollout phase for `config`, `selected` clicked:
 * each card's engine group (`groups --phase rollout`), numbered in the order of their first
 * cards; the selected card's engine lit; every card a rollout card's total.
 */
function rolloutWanted(config, selected) {
  const report = cli(['eval'], config).ok;
  const engineOf = [];
  const groups = [];
  for (let card = 0; card < config.gpus; card++) {
    const { engine } = cli(['groups', '--card', String(card), '--phase', 'rollout'], config).ok;
    let index = groups.findIndex((g) => g.join() === engine.join());
    if (index < 0) index = groups.push(engine) - 1;
    engineOf.push(index);
  }
  const lit = cli(['groups', '--card', String(selected), '--phase', 'rollout'], config).ok.engine;
  return [...Array(config.gpus).keys()].map((card) => ({
    card,
    engine: String(engineOf[card]),
    stage: null,
    groups: lit.length > 1 && lit.includes(card) ? 'engine' : '',
    bytes: report.rollout.total,
    fits: report.rollout.fits,
    coords: `r${engineOf[card]}`,
  }));
}

/** Waits, frame by frame, until the grid's cards equal `want`; fails with the first misfits. */
async function cardsAre(page, grid, want, what) {
  let got = [];
  for (let frame = 0; frame < 600; frame++) {
    got = await readCards(grid);
    if (JSON.stringify(got) === JSON.stringify(want)) return;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  const misfits = got.filter((card, i) => JSON.stringify(card) !== JSON.stringify(want[i])).slice(0, 3);
  assert.fail(`${what}: ${JSON.stringify(misfits)} vs ${JSON.stringify(misfits.map((c) => want[c.card]))}`);
}

/** The training phase: every card's groups are the CLI's for the selected card, no engine. */
async function trainingShown(page, grid, config, selected, what) {
  const want = expected(config, selected).groups;
  let got;
  for (let frame = 0; frame < 600; frame++) {
    got = await readCards(grid);
    const groups = Object.fromEntries(got.filter((c) => c.groups).map((c) => [c.card, c.groups]));
    if (JSON.stringify(groups) === JSON.stringify(want) && got.every((c) => c.engine === null && c.stage !== null)) return;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  assert.fail(`${what}: training groups ${JSON.stringify(got.slice(0, 4))}, CLI ${JSON.stringify(want)}`);
}

for (const [id, selected, lang, how] of [[8, 5, 'zh', 'keys'], [64, 19, 'en', 'pointer']]) {
  test(`grid-${id} (${lang}): the rollout phase lights engines as the CLI groups them (engine by ${how})`, async () => {
    const { page, context, problems } = await openPage(lab, undefined, { entry: 'rl.html' });
    if (lang === 'en') await page.getByTestId('lang-toggle').click();
    const section = page.getByTestId(`section-${id}`);
    await scrollToElement(section);
    const grid = section.getByTestId(`grid-${id}`);
    assert.equal(await section.getByTestId('select-phase').count(), 0, 'no phase picker while training only');
    await flip(section, ROLLOUT, ROLLOUT.on, 'space');
    let rollout = {};
    const config = () => fullConfig({ ...START[id], rollout });

    // Training first: the picker starts there, and the grid is the training grid.
    assert.equal(await section.getByTestId('select-phase').inputValue(), 'training');
    await grid.getByTestId(`card-${selected}`).click();
    await trainingShown(page, grid, config(), selected, 'rollout on, training shown');

    // The rollout phase, by arrow keys.
    const phases = [];
    await choose(section, PHASE, 'rollout', 'keys', async (value) => phases.push(value));
    assert.deepEqual(phases, ['rollout']);
    await cardsAre(page, grid, rolloutWanted(config(), selected), 'rollout phase, E = 8');
    assert.equal(await section.getByTestId('legend-engine').count(), 1, 'the legend names the engine');
    assert.equal(await section.getByTestId('legend-tp').count(), 0, 'and no training group');

    // The engine's size over its whole range: every card's engine and the lit engine follow.
    const engine = sliderOf('rollout.gpus_per_engine', id);
    const seen = [];
    const atE = async (position) => {
      rollout = { ...rollout, gpus_per_engine: 2 ** position };
      seen.push(2 ** position);
      await cardsAre(page, grid, rolloutWanted(config(), selected), `E = ${2 ** position}`);
    };
    if (how === 'keys') {
      await keyboardTo(section, engine, engine.min, 'ends', atE);
      for (let p = engine.min + 1; p <= engine.max; p++) await keyboardTo(section, engine, p, 'arrows', atE);
    } else {
      for (const target of [engine.min, engine.max, 2, 4, 1, 3, 5]) await pointerTo(section, engine, target, atE);
    }
    for (let p = engine.min; p <= engine.max; p++) assert.ok(seen.includes(2 ** p), `E = ${2 ** p} visited: ${seen}`);

    // The read-out of the card holding the focus (as a keyboard user reaches it; a hovered
    // card would lose the pointer as the read-out scrolls into view) says its engine and its
    // rollout memory.
    const report = cli(['eval'], config()).ok.rollout;
    await grid.getByTestId('card-1').focus();
    const detail = await visibleText(section.getByTestId('card-memory-detail'));
    for (const part of [gb(report.weights), gb(report.kv_cache), gb(report.total)]) {
      assert.ok(detail.includes(part), `"${detail}" has ${part}`);
    }
    assert.match(detail, lang === 'zh' ? /推理引擎/ : /rollout engine/);

    // A separate pool is not on this grid: the rollout option is off, the grid trains.
    await choose(section, POOL, 'separate', 'keys');
    rollout = { ...rollout, rollout_gpus: id };
    assert.equal(await section.locator('[data-testid="select-phase"] option[value="rollout"]').isDisabled(), true);
    await trainingShown(page, grid, config(), selected, 'separate pool');
    assert.equal(await section.getByTestId('select-phase').inputValue(), 'training');
    // Colocated again: the student's pick comes back.
    await choose(section, POOL, 'colocated', 'keys');
    rollout = { ...rollout, rollout_gpus: 0 };
    await cardsAre(page, grid, rolloutWanted(config(), selected), 'colocated again');

    // Training by keys, then rollout off: the training grid as the CLI groups it.
    await choose(section, PHASE, 'training', 'keys');
    await trainingShown(page, grid, config(), selected, 'training by keys');
    await choose(section, PHASE, 'rollout', 'keys');
    await flip(section, ROLLOUT, ROLLOUT.off, 'pointer');
    rollout = null;
    await trainingShown(page, grid, config(), selected, 'rollout off');
    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}
