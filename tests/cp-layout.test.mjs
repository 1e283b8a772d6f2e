// Context-parallel layouts drawn (issue 13): the tokens slider moved by keys over its whole
// range and the CP select by keys over every degree; at every position each token's rank, in
// both layouts, equals the layout rule computed here independently (contiguous: blocks of
// ⌈s/c⌉; zigzag: chunks of ⌈s/2c⌉, rank r holding chunks r and 2c−1−r), the causal mask has
// one row per token, and the pair counts are Σ (i + 1) over each rank's tokens; the lesson's
// cases read 10 : 26 against 18 : 18 and 10 : 26 : 42 : 58 against equal shares.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, settleAndCheck } from './harness.mjs';
import { pointerTo } from './drive.mjs';

const lab = labForFile();

function oracle(s, c, layout) {
  const ranks = [];
  for (let i = 0; i < s; i++) {
    if (layout === 'contiguous') ranks.push(Math.floor(i / Math.ceil(s / c)));
    else {
      const k = Math.floor(i / Math.ceil(s / (2 * c)));
      ranks.push(k < c ? k : 2 * c - 1 - k);
    }
  }
  const pairs = Array.from({ length: c }, () => 0);
  ranks.forEach((r, i) => { pairs[r] += i + 1; });
  return { ranks, pairs };
}

async function check(figure, tokens, cp, why) {
  for (const layout of ['contiguous', 'zigzag']) {
    const view = figure.locator(`[data-testid="cp-layout"][data-layout="${layout}"]`);
    const ranks = await view.locator('[data-token][data-rank]').evaluateAll((cells) =>
      cells.map((c) => [Number(c.dataset.token), Number(c.dataset.rank)]).sort((a, b) => a[0] - b[0]).map((x) => x[1]));
    const want = oracle(tokens, cp, layout);
    assert.deepEqual(ranks, want.ranks, `${why} ${layout}: ranks`);
    const rows = await view.locator('[data-mask-rank]').evaluateAll((paths) => paths.reduce((n, p) => n + (p.getAttribute('d').match(/M/g) ?? []).length, 0));
    assert.equal(rows, tokens, `${why} ${layout}: one mask row per token`);
    const counts = (await view.getByTestId('cp-pairs').getAttribute('data-counts')).split(',').map(Number);
    assert.deepEqual(counts, want.pairs, `${why} ${layout}: pairs`);
    const text = await view.getByTestId('cp-pairs').innerText();
    assert.ok(text.includes(want.pairs.map(String).map((n) => n.replace(/\B(?=(\d{3})+(?!\d))/g, ',')).join(' : ')), `${why}: "${text}"`);
  }
}

test('the CP layouts follow the tokens slider and the CP select, by keys at every position and by pointer', async () => {
  const { page, context, problems } = await openPage(lab);
  const figure = page.getByTestId('cp-layouts');
  await figure.scrollIntoViewIfNeeded();
  const slider = figure.getByTestId('cp-tokens');
  const select = figure.getByTestId('cp-degree');
  await select.focus();
  await page.keyboard.press('Home');
  for (const cp of [1, 2, 4, 8]) {
    if (cp > 1) {
      await select.focus();
      await page.keyboard.press('ArrowDown');
    }
    assert.equal(await select.inputValue(), String(cp));
    await slider.focus();
    await slider.press('Home');
    for (let tokens = 8; tokens <= 64; tokens += 8) {
      if (tokens > 8) await slider.press('ArrowRight');
      assert.equal(await slider.getAttribute('aria-valuetext'), String(tokens));
      await check(figure, tokens, cp, `CP ${cp}, ${tokens} tokens`);
    }
    await slider.press('End');
    await check(figure, 64, cp, `CP ${cp}, End`);
  }
  // The pointer drags the tokens slider to both ends and the middle (CP 8 still chosen).
  const TOKENS = { testId: 'cp-tokens', min: 8, max: 64 };
  for (const tokens of [8, 64, 32]) {
    await pointerTo(figure, TOKENS, tokens);
    assert.equal(await slider.getAttribute('aria-valuetext'), String(tokens));
    await check(figure, tokens, 8, `pointer to ${tokens} tokens`);
  }
  // The lesson's numbers.
  await select.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await slider.press('Home');
  const pairs = async (layout) => figure.locator(`[data-testid="cp-pairs"][data-layout="${layout}"]`).getAttribute('data-counts');
  assert.equal(await pairs('contiguous'), '10,26');
  assert.equal(await pairs('zigzag'), '18,18');
  await page.keyboard.press('Tab'); // leave the slider
  await select.focus();
  await page.keyboard.press('ArrowDown');
  await slider.press('Home');
  await slider.press('ArrowRight');
  assert.equal(await pairs('contiguous'), '10,26,42,58');
  assert.equal(await pairs('zigzag'), '34,34,34,34');
  await settleAndCheck(page, problems, assert);
  await context.close();
});
