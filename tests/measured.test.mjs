// Measured on a real card (issue 35): beside the published runs, the table of figures measured
// on one H200 equals the second table of `parallel-lab table --table runs` (every row's
// measured, lab, ratio and floor, its cells and the notes under it), and the chart of both
// tables' ratios holds exactly the CLI's rows: its points (`data-series`) are the rows' ids and
// ratios, each drawn where its ratio puts it on one log scale (`data-drawn`), in its kind's
// colour (read back from the canvas's pixels), in Chinese and in English.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CJK, hasCjk, labForFile, openPage, scrollToElement, settleAndCheck, visibleText } from './harness.mjs';
import { cli } from './drive.mjs';

const lab = labForFile();

/** The colours of the chart's marks (web/src/kit/charts/palette.rs: RUN, MEASURED). */
const COLOURS = { run: [0x3b, 0x5b, 0xdb], measured: [0xb3, 0x5c, 0x00] };

/** `parallel-lab table --table runs --format json --lang LANG`: its two tables by id. */
function cliTables(lang) {
  const { tables } = cli(['table', '--table', 'runs', '--format', 'json', '--lang', lang]).ok;
  return Object.fromEntries(tables.map((t) => [t.id, t]));
}

/** The measured table's rows as the page shows them. */
async function measuredRows(scope) {
  return scope.locator('tr[data-testid^="measured-"]').evaluateAll((trs) => trs.map((tr) => ({
    id: tr.dataset.testid.slice('measured-'.length),
    measured: Number(tr.dataset.measured),
    lab: Number(tr.dataset.lab),
    ratio: Number(tr.dataset.ratio),
    floor: tr.dataset.floor === undefined ? null : Number(tr.dataset.floor),
    cells: [...tr.querySelectorAll('th, td')].map((c) => c.textContent.trim()),
  })));
}

/**
 * The chart once drawn: its points, where each was drawn and the colour of the canvas's
 * pixel there. Waits until the figure says where its points are (the canvas draws once in
 * view, at the next animation frame).
 */
async function chartAsDrawn(page) {
  const figure = page.getByTestId('chart-ratios-figure');
  await scrollToElement(figure);
  await page.waitForFunction(() => {
    const drawn = document.querySelector('[data-testid="chart-ratios-figure"]')?.dataset.drawn;
    return drawn && drawn.startsWith('[');
  });
  return figure.evaluate((element) => {
    const canvas = element.querySelector('canvas[data-testid="chart-ratios"]');
    const context = canvas.getContext('2d');
    const at = JSON.parse(element.dataset.drawn);
    return {
      points: JSON.parse(canvas.dataset.series),
      at,
      pixels: at.map((p) => (p ? [...context.getImageData(p[0], p[1], 1, 1).data.slice(0, 3)] : null)),
      label: canvas.getAttribute('aria-label'),
      size: [canvas.width, canvas.height],
    };
  });
}

test('the measured table and the ratio chart equal parallel-lab table --table runs, in both languages', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const measured = page.getByTestId('measured');
  await scrollToElement(measured);
  await measured.getByTestId('measured-table').waitFor();
  for (const lang of ['zh', 'en']) {
    if (lang === 'en') {
      await page.getByTestId('lang-toggle').click();
      await page.waitForFunction(() => document.documentElement.lang === 'en');
    }
    const want = cliTables(lang);
    const table = want.measured;
    // Every row: its figures as numbers, and every cell the CLI writes but the source (the
    // same for every row, named once above the table).
    const rows = await measuredRows(measured);
    assert.equal(rows.length, table.rows.length, `${lang}: rows`);
    const columns = table.columns.filter((c) => c.key !== 'source');
    const heads = await measured.locator('thead th').evaluateAll((ths) => ths.map((th) => th.textContent.trim()));
    assert.deepEqual(heads, columns.map((c) => c.header), `${lang}: column heads`);
    for (const [i, row] of rows.entries()) {
      const data = table.rows[i].data;
      assert.equal(row.id, data.id);
      assert.equal(row.measured, data.measured, row.id);
      assert.equal(row.lab, data.lab, row.id);
      assert.equal(row.ratio, data.ratio, row.id);
      assert.equal(row.floor, data.floor ?? null, row.id);
      assert.deepEqual(row.cells, columns.map((c) => table.rows[i].cells[c.key]), `${lang} ${row.id}`);
    }
    const notes = await measured.getByTestId('measured-notes').locator('li').evaluateAll((lis) => lis.map((li) => li.textContent.trim()));
    assert.deepEqual(notes, table.notes, `${lang}: notes`);
    const text = await visibleText(measured);
    assert.ok(text.includes(table.rows[0].cells.source), `${lang}: the source is named`);
    if (lang === 'en') assert.equal(hasCjk(text), false, `English has no CJK: ${text}`);

    // The chart: one point per row of both tables, runs first, each the CLI's ratio.
    const chart = await chartAsDrawn(page);
    const expected = [
      ...want.runs.rows.map((r) => ({ id: r.data.id, kind: 'run', ratio: r.data.ratio })),
      ...table.rows.map((r) => ({ id: r.data.id, kind: 'measured', ratio: r.data.ratio })),
    ];
    assert.deepEqual(chart.points, expected, `${lang}: the chart's points are the CLI's rows`);
    assert.equal(chart.at.length, expected.length);
    // Drawn inside the canvas, left to right in table order, higher for a larger ratio:
    // y is one affine function of log(ratio), fitted through the extremes, within 1.5 px.
    const [width, height] = chart.size;
    for (const [i, p] of chart.at.entries()) {
      assert.ok(p, `${expected[i].id} is drawn`);
      assert.ok(p[0] > 0 && p[0] < width && p[1] > 0 && p[1] < height, `${expected[i].id} at ${p}`);
      if (i > 0) assert.ok(p[0] > chart.at[i - 1][0], `${expected[i].id} right of the row before`);
    }
    const logs = expected.map((e) => Math.log10(e.ratio));
    const lo = logs.indexOf(Math.min(...logs));
    const hi = logs.indexOf(Math.max(...logs));
    const slope = (chart.at[hi][1] - chart.at[lo][1]) / (logs[hi] - logs[lo]);
    assert.ok(slope < 0, 'a larger ratio is drawn higher');
    for (const [i, log] of logs.entries()) {
      const y = chart.at[lo][1] + slope * (log - logs[lo]);
      assert.ok(Math.abs(chart.at[i][1] - y) <= 1.5, `${expected[i].id}: drawn at y ${chart.at[i][1]}, its ratio puts it at ${y}`);
    }
    // Each mark in its kind's colour, read back from the canvas.
    for (const [i, pixel] of chart.pixels.entries()) {
      const colour = COLOURS[expected[i].kind];
      const off = pixel.map((c, k) => Math.abs(c - colour[k]));
      assert.ok(Math.max(...off) <= 8, `${expected[i].id} (${expected[i].kind}): pixel ${pixel}, expected ${colour}`);
    }
    // The chart in words, in the page's language.
    const runs = want.runs.rows.length;
    assert.ok(chart.label.includes(String(runs)) && chart.label.includes(String(table.rows.length)), chart.label);
    assert.equal(hasCjk(chart.label), lang === 'zh', `${lang}: ${chart.label}`);
    const words = await visibleText(page.getByTestId('chart-ratios-figure'));
    assert.equal(hasCjk(words), lang === 'zh', `${lang}: the chart's title and caption: ${words}`);
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});
