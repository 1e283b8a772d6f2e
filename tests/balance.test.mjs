// The 3D balance chart (SPEC §23) on the lesson's 64-card grid, as a student moves it: TP
// over its whole range by arrow keys, PP to its ends by End and Home, ZeRO through every stage
// by keys. At every position the chart holds exactly the CLI's `balance` of the grid's plan
// (every point of every lever, memory and bytes sent), or, where the CLI refuses the plan, the
// last plan it accepted.

import assert from 'node:assert/strict';
import { labForFile, pageTest } from './harness.mjs';
import { SELECTS, START, choose, cli, keyboardTo, sliderOf } from './drive.mjs';

const lab = labForFile();

/** The chart's `data-series` for a plan, as the CLI's `balance` gives it. */
function seriesOf(config) {
  const paths = cli(['balance'], config).ok;
  return paths
    .flatMap((path) => path.points.map((p) => `${path.lever}:${p.value}:${p.memory}:${p.sent}`))
    .join(' ');
}

pageTest('the balance chart is the CLI\'s balance at every position of TP, PP and ZeRO', lab, async ({ page }) => {
  const section = page.getByTestId('section-64');
  const chart = section.getByTestId('chart-balance');
  await chart.scrollIntoViewIfNeeded();
  const config = { ...START[64] };
  let shown = seriesOf(config);
  // Waits until the chart shows the plan `config` (the last one the CLI accepted).
  const agrees = async (what) => {
    if (cli(['eval'], config).ok) shown = seriesOf(config);
    const handle = await chart.elementHandle();
    await page
      .waitForFunction(([el, want]) => el.getAttribute('data-series') === want, [handle, shown], { timeout: 10_000 })
      .catch(async () => {
        assert.equal(await chart.getAttribute('data-series'), shown, `${what}: the chart against the CLI`);
      });
  };
  await agrees('the lesson\'s start');
  assert.ok(shown.split(' ').some((p) => p.startsWith('tp:1:')) && shown.includes('zero:3:'), shown);

  const moved = (field, what) => async (position) => {
    config[field] = sliderOf(field, 64).valueAt(position);
    await agrees(`${what}, ${field} ${config[field]}`);
  };
  const tp = sliderOf('tp', 64);
  await keyboardTo(section, tp, tp.min, 'arrows', moved('tp', 'TP down by arrows'));
  await keyboardTo(section, tp, tp.max, 'arrows', moved('tp', 'TP up by arrows'));
  const pp = sliderOf('pp', 64);
  await keyboardTo(section, pp, pp.max, 'ends', moved('pp', 'PP to End'));
  await keyboardTo(section, pp, pp.min, 'ends', moved('pp', 'PP to Home'));
  const zero = SELECTS.find((s) => s.field === 'zero');
  for (const stage of Object.keys(zero.options)) {
    await choose(section, zero, stage, 'keys', async (value) => {
      config.zero = Number(value);
      await agrees(`ZeRO ${value} by keys`);
    });
  }
  // The canvas is drawn: it has a size and its label says each lever.
  const label = await chart.getAttribute('aria-label');
  for (const lever of ['TP', 'PP', 'ZeRO']) assert.ok(label.includes(lever), label);
});
