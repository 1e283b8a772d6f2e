// The language switch: in English no Chinese character is left in the page's visible text
// (CJK ideographs U+4E00–9FFF, CJK punctuation U+3000–303F, fullwidth forms U+FF00–FFEF),
// except the toggle's own "中文" label; switching back restores the Chinese page exactly.
// Dynamic text is on screen too: a selected card in each grid (legend, per-card traffic) and a
// rejected combination (TP 3 on 8 cards: the error under the slider and the stale note).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CJK, labForFile, openPage, readingText, setRange, settleAndCheck } from './harness.mjs';

const lab = labForFile();

/** Each CJK character of `text` with a little context, for a readable failure. */
function cjkSpots(text) {
  return [...text.matchAll(CJK)].map((m) =>
    JSON.stringify(text.slice(Math.max(0, m.index - 15), m.index + 15)),
  );
}

test('English leaves no Chinese character but the toggle label; Chinese comes back intact', async () => {
  const { page, context, problems } = await openPage(lab);
  const toggle = page.getByTestId('lang-toggle');

  // Put dynamic text on screen.
  for (const id of ['8', '64']) {
    await page.getByTestId(`grid-${id}`).getByTestId('card-0').click();
  }
  const section8 = page.getByTestId('section-8');
  await setRange(section8, 'slider-tp', 3);
  assert.equal(await section8.getByRole('alert').count(), 1, 'TP 3 on 8 cards is rejected');

  const chinese = await readingText(page);
  assert.ok((chinese.match(CJK) ?? []).length > 200, 'the page starts in Chinese');

  await toggle.click();
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  assert.doesNotMatch(await page.title(), CJK, 'the title is English');
  assert.match(await toggle.innerText(), /中文/, 'the toggle still offers 中文');
  const english = await readingText(page);
  // Remove the toggle's label once; nothing Chinese may remain.
  const rest = english.replace('中文', '');
  assert.deepEqual(cjkSpots(rest), [], 'Chinese characters left in the English page');
  assert.equal(await section8.getByRole('alert').count(), 1, 'the error is still shown, in English');

  await toggle.click();
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  assert.match(await page.title(), /并行实验室/);
  assert.equal(await readingText(page), chinese, 'switching back restores the Chinese text');

  await settleAndCheck(page, problems, assert);
  await context.close();
});
