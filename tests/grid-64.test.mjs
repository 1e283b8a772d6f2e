// Part two, the 64-card cluster: TP 8 × PP 2 (DP 4), ZeRO-1, full recompute. Clicking card 0
// lights its TP group (its own machine, cards 0–7, NVLink), its pipeline partner (card 8, a
// machine away, InfiniBand) and its DP group (cards 0, 16, 32, 48, InfiniBand); the bubble
// (p − 1)/m goes from 1/8 to 1/32 when m goes from 8 to 32.

import assert from 'node:assert/strict';
import { cardGroups, labForFile, pageTest, setRange, visibleText } from './harness.mjs';
import { cli } from './drive.mjs';

/** "0–7", "0, 16, 32": the members as the legend writes them (runs of three or more as a range). */
function cardsText(ranks) {
  const parts = [];
  for (let i = 0; i < ranks.length; ) {
    let end = i;
    while (end + 1 < ranks.length && ranks[end + 1] === ranks[end] + 1) end += 1;
    if (end - i >= 2) {
      parts.push(`${ranks[i]}–${ranks[end]}`);
      i = end + 1;
    } else {
      parts.push(String(ranks[i]));
      i += 1;
    }
  }
  return parts.join(', ');
}

/**
 * The hops drawn and the legend for the lit `card` are the CLI's groups: per group of n > 1
 * cards, one hop between neighbours (a ring closes when n > 2, a pipeline does not), each on
 * InfiniBand exactly when it leaves its machine of 8; the legend names each group's members.
 */
async function checkLit(section, card, config) {
  const groups = cli(['groups', '--card', String(card)], config).ok;
  const drawn = await section.getByTestId('grid-64').locator('path.hop').evaluateAll((all) =>
    all.map((p) => ({ dim: p.getAttribute('class').match(/hop-(tp|cp|pp|dp)\b/)[1], from: Number(p.dataset.from), to: Number(p.dataset.to), link: p.dataset.link })));
  const want = [];
  for (const dim of ['tp', 'cp', 'pp', 'dp']) {
    const m = groups[dim];
    if (m.length < 2) continue;
    for (let i = 0; i + 1 < m.length; i++) want.push({ dim, from: m[i], to: m[i + 1] });
    if (dim !== 'pp' && m.length > 2) want.push({ dim, from: m[m.length - 1], to: m[0] });
  }
  const key = (h) => `${h.dim} ${h.from}-${h.to}`;
  assert.deepEqual(drawn.map(key).sort(), want.map(key).sort(), `card ${card}, PP ${config.pp}: the hops`);
  for (const h of drawn) {
    const across = Math.floor(h.from / 8) !== Math.floor(h.to / 8);
    assert.equal(h.link, across ? 'ib' : 'nvlink', `hop ${key(h)}`);
  }
  for (const dim of ['tp', 'cp', 'pp', 'dp']) {
    const text = await section.getByTestId(`legend-${dim}`).locator('.legend-members').innerText();
    if (groups[dim].length > 1) assert.ok(text.startsWith(`${cardsText(groups[dim])} · `), `legend ${dim}: ${text}`);
    else assert.match(text, /只有自己/, `legend ${dim}`);
  }
}

const lab = labForFile();

pageTest('64 cards, TP 8 × PP 2 × DP 4: card 0 lights its TP, pipeline and DP groups', lab, async ({ page }) => {
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
});

pageTest('64 cards, PP 2: moving m from 8 to 32 takes the bubble from 1/8 to 1/32', lab, async ({ page }) => {
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
});

pageTest('64 cards by keyboard: Home, End and arrows move the focus, Enter lights the groups the CLI names, Escape clears', lab, async ({ page }) => {
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
  // With card 9 lit, its hops and legend are the CLI's groups; PP moved by keys (2 → 4 → 2)
  // redraws both for the new groups.
  await checkLit(section, 9, config);
  const pp = section.getByTestId('slider-pp');
  await pp.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await checkLit(section, 9, { ...config, pp: 4 });
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await checkLit(section, 9, config);
  await grid.getByTestId('card-9').focus();
  await page.keyboard.press('Escape');
  assert.deepEqual(await cardGroups(grid), { groups: {}, selected: [] }, 'Escape clears');
  assert.equal(await grid.locator('path.hop').count(), 0, 'no hops without a selection');
});
