// Part two, the 64-card cluster: TP 8 × PP 2 (DP 4), ZeRO-1, full recompute. Clicking card 0
// lights its TP group (its own machine, cards 0–7, NVLink), its pipeline partner (card 8, a
// machine away, InfiniBand) and its DP group (cards 0, 16, 32, 48, InfiniBand); the bubble
// (p − 1)/m goes from 1/8 to 1/32 when m goes from 8 to 32.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cardGroups, openPage, setRange, settleAndCheck, startLab, visibleText } from './harness.mjs';
import { cli } from './drive.mjs';

let lab;
before(async () => {
  lab = await startLab();
});
after(async () => {
  await lab?.close();
});

test('64 cards, TP 8 × PP 2 × DP 4: card 0 lights its TP, pipeline and DP groups', async () => {
  const { page, context, problems } = await openPage(lab);
  const section = page.getByTestId('section-64');
  await setRange(section, 'slider-tp', 8);
  await setRange(section, 'slider-pp', 2);
  await setRange(section, 'slider-cp', 1);
  await section.getByTestId('select-zero').selectOption('1');
  await section.getByTestId('select-recompute').selectOption('full');
  assert.equal(await visibleText(section.getByTestId('derived-dp')), '4', 'DP = 64 ÷ (8 · 2 · 1)');

  const grid = section.getByTestId('grid-64');
  assert.deepEqual(await cardGroups(grid), { groups: {}, selected: [] }, 'nothing lit before a click');

  await grid.getByTestId('card-0').click();
  const expected = { 0: 'dp pp tp' };
  for (let card = 1; card <= 7; card++) expected[card] = 'tp';
  expected[8] = 'pp';
  for (const card of [16, 32, 48]) expected[card] = 'dp';
  assert.deepEqual(await cardGroups(grid), { groups: expected, selected: [0] });
  assert.equal(await grid.getByTestId('card-0').getAttribute('aria-pressed'), 'true');

  // Card 0's own traffic: TP inside its machine, pipeline and DP across machines.
  const links = {};
  for (const dim of ['tp', 'pp', 'dp']) {
    links[dim] = await section.getByTestId(`traffic-${dim}`).getAttribute('data-link');
  }
  assert.deepEqual(links, { tp: 'nvlink', pp: 'ib', dp: 'ib' });
  assert.equal(await section.getByTestId('traffic-cp').count(), 0, 'no CP row when CP = 1');

  // Clicking the selected card again clears the selection.
  await grid.getByTestId('card-0').click();
  assert.deepEqual(await cardGroups(grid), { groups: {}, selected: [] });

  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('64 cards, PP 2: moving m from 8 to 32 takes the bubble from 1/8 to 1/32', async () => {
  const { page, context, problems } = await openPage(lab);
  const section = page.getByTestId('section-64');
  await setRange(section, 'slider-tp', 8);
  await setRange(section, 'slider-pp', 2);
  await section.getByTestId('select-zero').selectOption('1');
  await section.getByTestId('select-recompute').selectOption('full');
  const bubble = section.getByTestId('bubble');

  await setRange(section, 'slider-m', 8);
  assert.equal(Number(await bubble.getAttribute('data-ratio')), 0.125);
  assert.equal(await visibleText(bubble), '12.5%');

  await setRange(section, 'slider-m', 32);
  assert.equal(Number(await bubble.getAttribute('data-ratio')), 0.03125);

  // The other grid did not move.
  assert.equal(Number(await page.getByTestId('section-8').getByTestId('bubble').getAttribute('data-ratio')), 0);

  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('64 cards by keyboard: Home, End and arrows move the focus, Enter lights the groups the CLI names, Escape clears', async () => {
  const { page, context, problems } = await openPage(lab);
  const section = page.getByTestId('section-64');
  await setRange(section, 'slider-tp', 4);
  await setRange(section, 'slider-pp', 2);
  const config = { gpus: 64, tp: 4, pp: 2 };
  const grid = section.getByTestId('grid-64');
  const focused = () => page.evaluate(() => Number(document.activeElement?.getAttribute('data-card')));
  await grid.getByTestId('card-0').focus();
  // Four cards a row, eight a machine: End, Home, then right, down, left and up.
  const moves = [['End', 63], ['Home', 0], ['ArrowRight', 1], ['ArrowRight', 2], ['ArrowDown', 6], ['ArrowDown', 10], ['ArrowLeft', 9], ['ArrowUp', 5]];
  for (const [key, card] of moves) {
    await page.keyboard.press(key);
    assert.equal(await focused(), card, `${key} leads to card ${card}`);
  }
  // At the edges the focus stays.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), 0, 'nothing left of card 0');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 63, 'nothing below card 63');

  // Enter on two cards in turn: each lights exactly the groups `groups --card` gives.
  for (const card of [63, 9]) {
    await grid.getByTestId(`card-${card}`).focus();
    await page.keyboard.press('Enter');
    const groups = cli(['groups', '--card', String(card)], config).ok;
    const expected = {};
    for (const dim of ['tp', 'cp', 'pp', 'dp']) {
      if (groups[dim].length < 2) continue;
      for (const member of groups[dim]) expected[member] = [...(expected[member] ?? []), dim];
    }
    for (const member of Object.keys(expected)) expected[member] = expected[member].sort().join(' ');
    assert.deepEqual(await cardGroups(grid), { groups: expected, selected: [card] }, `card ${card} selected by Enter`);
    assert.equal(await grid.getByTestId(`card-${card}`).getAttribute('aria-pressed'), 'true');
  }
  await page.keyboard.press('Escape');
  assert.deepEqual(await cardGroups(grid), { groups: {}, selected: [] }, 'Escape clears');
  await settleAndCheck(page, problems, assert);
  await context.close();
});
