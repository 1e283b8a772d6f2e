// Real cards and the margin runs justify (issue 25): the search panel's card picker, driven by
// keys over every option, fills its card fields with the preset's numbers and searches what
// `parallel-lab search` does; a tight card (above 80% of its memory) is marked by a second cue
// beside its colour, in its accessible text too, with the source one click away; the published
// runs table equals `parallel-lab table --table runs`. (The grids' card picker is driven over
// every option with every figure against `eval` in controls.test.mjs, as a select of SELECTS.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, pageTest, scrollToElement, settleAndCheck, visibleText } from './harness.mjs';
import {
  SELECTS, SLIDERS, START, cardFields, choose, cli, coreDefaults, differences, expected, fullConfig,
  keyboardTo, shown, thousands,
} from './drive.mjs';

const lab = labForFile();

const CARD_TEXTS = { gpu_memory_gb: 'search-memory', nvlink_gbps: 'search-nvlink', ib_gbps: 'search-ib', gpu_tflops: 'search-tflops' };

pageTest('the search panel\'s card picker, by keys over every card, searches what the CLI does', lab, { entry: 'plan.html' }, async ({ page }) => {
  const panel = page.getByTestId('search-panel');
  await scrollToElement(panel);
  const select = panel.getByTestId('search-hardware');
  const ids = coreDefaults().hardware.map((h) => h.id);
  const listed = await select.locator('option').evaluateAll((all) => all.map((o) => o.value));
  assert.deepEqual(listed, ids, 'the picker lists the CLI\'s card presets in order');
  await select.focus();
  const visit = async (id) => {
    assert.equal(await select.inputValue(), id);
    const preset = coreDefaults().hardware.find((h) => h.id === id).config;
    for (const [field, testId] of Object.entries(CARD_TEXTS)) {
      // The texts follow the pick (wait for the state, not for time), written as a person
      // writes them: at most six decimals (0.75 × 1,307.4 reads 980.55).
      const want = String(Math.round(preset[field] * 1e6) / 1e6);
      await page.waitForFunction(([tid, text]) => document.querySelector(`[data-testid="${tid}"]`)?.value === text,
        [testId, want]);
    }
    const status = panel.getByTestId('search-status');
    await status.and(page.locator('[data-done="true"]')).waitFor();
    const base = {
      ...fullConfig({ ...cardFields(preset) }),
      gpus: 64, seq_len: 4096, global_batch: 256,
    };
    const want = cli(['search', '--top', '20'], base).ok;
    const text = (await visibleText(status)).trim();
    assert.ok(text.includes(thousands(want.considered)), `${id}: "${text}" lacks ${want.considered}`);
    const rows = await panel.locator('tr[data-testid="search-row"]').evaluateAll((trs) => trs.map((tr) => JSON.parse(tr.dataset.config)));
    assert.deepEqual(rows, want.plans.map((p) => p.config), `${id}: the rows are the CLI's plans`);
  };
  // The picker starts on the H100 SXM (the search's DEFAULT_CARD); keys go down to the last
  // card, then up to the first, so every card is visited.
  const start = ids.indexOf('h100-sxm');
  assert.ok(start >= 0);
  await visit(ids[start]);
  for (const id of ids.slice(start + 1)) {
    await page.keyboard.press('ArrowDown');
    await visit(id);
  }
  for (const id of [...ids].reverse().slice(1)) {
    await page.keyboard.press('ArrowUp');
    await visit(id);
  }
});

pageTest('a tight card is marked beside its colour, in words, with its source', lab, async ({ page }) => {
  const section = page.getByTestId('section-8');
  const tp = SLIDERS.find((s) => s.field === 'tp');
  const zero = SELECTS.find((s) => s.field === 'zero');
  // TP 4 × ZeRO-1 on the lesson's 8 cards: 70.1 GB of 80, above 80%.
  await keyboardTo(section, tp, 4);
  await choose(section, zero, '1', 'keys');
  const config = fullConfig({ ...START[8], tp: 4, zero: 1 });
  const report = cli(['eval'], config).ok;
  assert.equal(report.memory.tight, true, 'the CLI calls this plan tight');
  assert.equal(report.memory.fits, true);
  const grid = section.getByTestId('grid-8');
  const card = grid.getByTestId('card-0');
  await card.click();
  const diffs = differences(await shown(section), expected(config, 0));
  assert.deepEqual(diffs, []);
  // The second cue: a dashed outline (not colour alone), and the data attribute.
  assert.equal(await card.getAttribute('data-tight'), 'true');
  const dash = await card.evaluate((g) => getComputedStyle(g.querySelector('.card-body')).strokeDasharray);
  assert.notEqual(dash, 'none', 'a tight card is outlined dashed');
  // In words: the memory line of the card under focus, and the figure's verdict.
  await card.focus();
  const detail = section.getByTestId('card-memory-detail');
  await detail.filter({ hasText: '80%' }).waitFor();
  assert.match(await detail.innerText(), /偏紧/);
  assert.match(await visibleText(section.getByTestId('mem-total')), /偏紧/);
  // The source, one click away under the legend.
  const source = section.getByTestId('tight-source');
  await source.locator('summary').click();
  assert.match(await visibleText(source), /2411\.06465/);
  // Back to ZeRO-3: no longer tight, no dashed outline.
  await choose(section, zero, '3', 'keys');
  await page.waitForFunction(() => document.querySelector('[data-testid="grid-8"] [data-testid="card-0"]').getAttribute('data-tight') === 'false');
  assert.equal(await card.evaluate((g) => g.classList.contains('tight')), false);
});

pageTest('moving from a card of one grid to a card of the other leaves the first grid\'s readout', lab, async ({ page }) => {
  const eight = page.getByTestId('section-8');
  const sixtyFour = page.getByTestId('section-64');
  const detail8 = eight.getByTestId('card-memory-detail');
  const detail64 = sixtyFour.getByTestId('card-memory-detail');
  // Focus card 3 of the 8-card grid: its readout names card 3.
  await eight.getByTestId('grid-8').getByTestId('card-3').focus();
  await detail8.filter({ hasText: /3/ }).waitFor();
  // Then card 0 of the 64-card grid: that grid reads out its card 0, and the 8-card grid,
  // which the focus left for another grid's card, reads out none (it used to take the other
  // grid's card 0 for its own).
  await sixtyFour.getByTestId('grid-64').getByTestId('card-0').focus();
  await detail64.filter({ hasText: /0/ }).waitFor();
  await page.waitForFunction(() => document
    .querySelector('[data-testid="section-8"] [data-testid="card-memory-detail"]')
    .textContent.trim() === '');
  assert.equal((await detail8.textContent()).trim(), '');
});

pageTest('the published runs table equals parallel-lab table --table runs, in both languages', lab, { entry: 'plan.html' }, async ({ page }) => {
  const runs = page.getByTestId('runs');
  await scrollToElement(runs);
  for (const lang of ['zh', 'en']) {
    if (lang === 'en') {
      await page.getByTestId('lang-toggle').click();
      await page.waitForFunction(() => document.documentElement.lang === 'en');
    }
    const want = cli(['table', '--table', 'runs', '--format', 'json', '--lang', lang]).ok.tables[0];
    const rows = await runs.locator('tr[data-testid^="run-"]').evaluateAll((trs) => trs.map((tr) => ({
      id: tr.dataset.testid.slice('run-'.length),
      published: Number(tr.dataset.published),
      lab: Number(tr.dataset.lab),
      ratio: Number(tr.dataset.ratio),
      mfu: Number(tr.dataset.mfu),
      cells: [...tr.querySelectorAll('th, td')].map((c) => c.textContent.trim()),
    })));
    assert.equal(rows.length, want.rows.length);
    for (const [i, row] of rows.entries()) {
      const data = want.rows[i].data;
      assert.equal(row.id, data.id);
      assert.equal(row.published, data.published.value, row.id);
      assert.equal(row.lab, data.lab, row.id);
      assert.equal(row.ratio, data.ratio, row.id);
      assert.equal(row.mfu, data.lab_mfu, row.id);
      // Every cell the CLI writes, the page writes.
      const cells = want.columns.map((c) => want.rows[i].cells[c.key]);
      assert.deepEqual(row.cells, cells, `${lang} ${row.id}`);
    }
  }
});

test('a grid\'s card travels in its link and lands with every figure', async () => {
  const { page, context, problems } = await openPage(lab);
  const section = page.getByTestId('section-64');
  const hardware = SELECTS.find((s) => s.field === 'hardware');
  await choose(section, hardware, 'h100-sxm', 'keys');
  await page.waitForFunction(() => /g64=[^&]*h100/.test(location.hash));
  const fragment = (await page.evaluate(() => location.hash)).slice(1);
  await context.close();
  const again = await openPage(lab, undefined, { fragment });
  const landed = again.page.getByTestId('section-64');
  assert.equal(await landed.getByTestId('select-hardware').inputValue(), 'h100-sxm');
  assert.equal(await landed.getByTestId('more-controls').evaluate((d) => d.open), true,
    'a link into a field behind "more controls" opens it');
  const preset = coreDefaults().hardware.find((h) => h.id === 'h100-sxm').config;
  const config = fullConfig({ ...START[64], ...cardFields(preset) });
  await landed.getByTestId('grid-64').getByTestId('card-9').click();
  assert.deepEqual(differences(await shown(landed), expected(config, 9)), []);
  await settleAndCheck(again.page, [...problems, ...again.problems], assert);
  await again.context.close();
});
