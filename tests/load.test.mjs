// End to end: the built page (../dist, from `trunk build --release`) served as plain files on
// 127.0.0.1 and opened in headless Chromium. Checks that the page loads cleanly (no console
// error, page error or failed request), in Chinese, with the lesson's starting figures.
//
// Run: `node --test` in tests/ (scripts/test.sh does). CHROMIUM overrides /usr/bin/chromium.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, settleAndCheck, visibleText, waitForApp } from './harness.mjs';

// Model states per card, lesson start plan (8 GPUs, ZeRO-3, default model):
// 27,781,427,952 parameters × 16 bytes / 8 cards.
const MODEL_STATES_BYTES = '55562855904';

const lab = labForFile();

test('the built page loads in Chinese and shows the model states per card, with no errors', async () => {
  const { page, context, problems } = await openPage(lab);
  const figure = page.getByTestId('section-8').getByTestId('mem-states');
  assert.equal(await figure.getAttribute('data-bytes'), MODEL_STATES_BYTES);
  assert.equal(await visibleText(figure), '55.6 GB');
  assert.match(await page.title(), /并行实验室/);
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');

  // Both grids are drawn with every card.
  assert.equal(await page.getByTestId('grid-8').locator('[data-card]').count(), 8);
  assert.equal(await page.getByTestId('grid-64').locator('[data-card]').count(), 64);

  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('the grids come first; the parts below are drawn right after, and a contents link reaches one at once', async () => {
  // Recorded inside the page, from the first mutation on: the moment the 64-card grid's
  // figures exist, and which parts existed then.
  const setup = (page) =>
    page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid="section-64"] [data-testid="mem-states"]')) {
          window.__firstDrawn = [
            ...['part-three', 'part-four', 'evolution', 'counting-note'].filter((id) => document.getElementById(id)),
            ...['table-8', 'table-64', 'cp-layouts', 'chart-memory', 'chart-schedule'].filter((id) => document.querySelector(`[data-testid="${id}"]`)),
          ];
          observer.disconnect();
        }
      });
      observer.observe(document, { subtree: true, childList: true });
    });
  const { page, context, problems } = await openPage(lab, undefined, { setup });
  assert.deepEqual(await page.evaluate(() => window.__firstDrawn), [], 'nothing drawn later is built with the grids');
  // openPage waited for data-drawn="all": every part is there now, once.
  for (const id of ['part-three', 'part-four', 'evolution', 'counting-note']) {
    assert.equal(await page.locator(`#${id}`).count(), 1, `#${id} is drawn`);
  }
  for (const id of ['table-8', 'table-64', 'cp-layouts']) {
    assert.equal(await page.getByTestId(id).count(), 1, `${id} is drawn`);
  }
  for (const id of ['chart-memory', 'chart-stages', 'chart-traffic', 'chart-bubble', 'chart-schedule']) {
    assert.equal(await page.getByTestId(id).count(), 2, `${id} is drawn under both grids`);
  }
  assert.equal(await page.locator('.later-part, .later-block').count(), 0, 'no placeholder is left');
  await settleAndCheck(page, problems, assert);
  await context.close();

  // A reader who clicks a contents line as soon as the grids answer lands on it and stays
  // there while the rest is drawn (the CPU slowed 4×, so the click comes before the pieces).
  for (const target of ['part-two', 'counting-note']) {
    const early = await browserPage();
    const cdp = await early.context().newCDPSession(early);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await early.goto(lab.baseUrl);
    await waitForApp(early);
    await early.getByTestId('section-64').getByTestId('mem-states').waitFor();
    const drawnBefore = await early.evaluate(() => document.documentElement.dataset.drawn ?? 'not yet');
    await early.locator(`#intro nav.contents a[href="#${target}"]`).click();
    const atTop = () =>
      early.waitForFunction((id) => {
        const element = document.getElementById(id);
        return element && Math.abs(element.getBoundingClientRect().top) < 2;
      }, target);
    await atTop();
    assert.equal(await early.evaluate(() => document.documentElement.dataset.drawn), 'all', `${target}: everything is drawn (it was ${drawnBefore} at the click)`);
    // Two frames later, with nothing left to draw, it is still there.
    await early.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.ok(
      await early.evaluate((id) => Math.abs(document.getElementById(id).getBoundingClientRect().top) < 2, target),
      `${target}: stays at the top`,
    );
    await early.context().close();
  }
});

async function browserPage() {
  const context = await lab.browser.newContext();
  return context.newPage();
}
