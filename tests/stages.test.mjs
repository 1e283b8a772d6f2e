// Each card's own memory (memory by pipeline stage): on the 64-card grid at TP 8 × PP 8, set
// by the sliders, "by stage" gives every card the CLI's `by_stage` entry of its own stage (the
// first and last stages heavier than the middle), the headline names the busiest stage, the
// tint's legend is there, and hovering a card reads its memory out (and makes it that card's
// title); "even" puts the lesson's
// one figure on all 64 cards.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, pageTest } from './harness.mjs';
import { SELECTS, SLIDERS, choose, cli, keyboardTo } from './drive.mjs';

const lab = labForFile();

const ACCOUNTING = SELECTS.find((s) => s.field === 'accounting');

/** Every card's `data-bytes`, `data-stage` and `data-fits`, by card number. */
async function cards(grid) {
  return grid.locator('[data-card]').evaluateAll((all) =>
    all.map((card) => ({
      card: Number(card.dataset.card),
      bytes: Number(card.getAttribute('data-bytes')),
      stage: Number(card.getAttribute('data-stage')),
      fits: card.getAttribute('data-fits') === 'true',
    })),
  );
}

pageTest('64 cards, TP 8 × PP 8: by stage, each card shows its own stage; even, all show one figure', lab, async ({ page }) => {
  const section = page.getByTestId('section-64');
  const grid = section.getByTestId('grid-64');
  const slider = (field) => SLIDERS.find((s) => s.field === field);
  // The lesson's start is TP 8 × PP 8; move there anyway by keys, as a student would.
  await keyboardTo(section, slider('tp'), 8);
  await keyboardTo(section, slider('pp'), 8);
  const config = { gpus: 64, tp: 8, pp: 8 };

  // The lesson's even split: one figure on every card, the headline's.
  const even = await cards(grid);
  assert.equal(even.length, 64);
  const headline = Number(await section.getByTestId('mem-total').getAttribute('data-bytes'));
  assert.ok(even.every((c) => c.bytes === headline), 'even: all 64 cards show the headline');
  assert.equal(headline, cli(['eval'], config).ok.memory.total);

  // By stage.
  await choose(section, ACCOUNTING, 'stages', 'keys');
  const report = cli(['eval'], { ...config, accounting: 'stages' }).ok;
  const stages = report.memory.by_stage;
  const byStage = await cards(grid);
  for (const c of byStage) {
    const groups = cli(['groups', '--card', String(c.card)], config).ok;
    const stage = groups.pp.indexOf(c.card);
    assert.equal(c.stage, stage, `card ${c.card} is on stage ${stage}`);
    assert.equal(c.bytes, stages[stage].total, `card ${c.card}: the CLI's by_stage[${stage}].total`);
    assert.equal(c.fits, stages[stage].fits);
  }
  const of = (stage) => byStage.find((c) => c.stage === stage).bytes;
  assert.ok(of(0) > of(3) && of(7) > of(3), 'the first and last stages carry more than the middle');
  assert.equal(Number(await section.getByTestId('mem-total').getAttribute('data-bytes')), report.memory.total);
  const title = section.getByTestId('memory-title');
  assert.equal(await title.getAttribute('data-busiest-stage'), String(report.memory.busiest_stage));
  assert.match(await title.innerText(), new RegExp(`第 ${report.memory.busiest_stage} 段`));

  // The per-stage chart: one bar per stage, the busiest named (its data-series lists the core's
  // figures, stage:states:activations in GB).
  const chart = section.getByTestId('chart-stages');
  await chart.scrollIntoViewIfNeeded();
  const series = await chart.getAttribute('data-series');
  assert.match(series, new RegExp(`busiest=${report.memory.busiest_stage}\\b`));
  assert.equal((series.match(/\b\d+:[\d.]+:[\d.]+/g) ?? []).length, 8, series);

  // The tint's legend, and a card's memory read out on hover.
  assert.equal(await section.getByTestId('memory-scale').count(), 1);
  await grid.getByTestId('card-63').hover();
  const detail = await section.getByTestId('card-memory-detail').innerText();
  assert.match(detail, /卡 63：第 7 段，8 层/);
  // The card under the pointer has the same words as its title (the browser's tooltip); only
  // that card has one, and the card the pointer left loses its own.
  const titleOf = (card) => grid.getByTestId(`card-${card}`).evaluate((g) => g.querySelector(':scope > title').textContent);
  assert.equal(await titleOf(63), detail);
  await grid.getByTestId('card-0').hover();
  const detail0 = await section.getByTestId('card-memory-detail').innerText();
  assert.match(detail0, /卡 0：第 0 段/);
  assert.equal(await titleOf(0), detail0);
  assert.equal(await titleOf(63), '', 'the card the pointer left has no title');
  const titled = await grid.locator('[data-card] > title').evaluateAll((all) => all.filter((t) => t.textContent !== '').length);
  assert.equal(titled, 1, 'one card has a title: the one under the pointer');

  // The link carries the choice.
  await page.waitForFunction(() => /g64=[^&]*stages/.test(location.hash), null);

  // Back to the lesson's split: every card equal again.
  await choose(section, ACCOUNTING, 'even');
  const again = await cards(grid);
  assert.ok(again.every((c) => c.bytes === headline));
});

pageTest('by stage, a card over its capacity is marked, not by colour alone', lab, { fragment: 'g64=tp8.pp8.selective.m64.s131072.stages' }, async ({ page }) => {
  const section = page.getByTestId('section-64');
  const grid = section.getByTestId('grid-64');
  const all = await cards(grid);
  // Exactly the cards of the stages the CLI says do not fit (the first stages, at s = 131,072
  // with selective recompute), each stage's TP 8 cards.
  const staged = cli(['eval', '--url', '#g64=tp8.pp8.selective.m64.s131072.stages']).ok.memory;
  const overStages = staged.by_stage.filter((stage) => !stage.fits).map((stage) => stage.stage);
  assert.ok(overStages.length > 0 && overStages.length < staged.by_stage.length, `some stages over, not all: ${overStages}`);
  assert.deepEqual(
    all.filter((c) => !c.fits).map((c) => c.card),
    all.filter((c) => overStages.includes(c.stage)).map((c) => c.card),
    `the cards over are those of stages ${overStages}`,
  );
  assert.equal(all.filter((c) => !c.fits).length, overStages.length * (all.length / staged.by_stage.length));
  // Every card, not a sample: the class and the "!" mark agree with data-fits.
  const marks = () =>
    grid.locator('[data-card]').evaluateAll((all) =>
      all.map((card) => ({
        fits: card.getAttribute('data-fits') === 'true',
        over: /\bover\b/.test(card.getAttribute('class') ?? ''),
        marks: card.querySelectorAll('.card-over').length,
        text: card.querySelector('.card-over')?.textContent ?? null,
        bytes: Number(card.getAttribute('data-bytes')),
        fill: card.querySelector('.card-tint').getAttribute('fill'),
      })),
    );
  const agree = (shown, when) => {
    for (const [card, c] of shown.entries()) {
      assert.equal(c.over, !c.fits, `${when}: card ${card}'s class`);
      assert.equal(c.marks, c.fits ? 0 : 1, `${when}: card ${card}'s "!" mark`);
      if (!c.fits) assert.equal(c.text, '!');
      // The tint: light to dark blue with the card's own memory, the darkest at capacity.
      assert.match(c.fill ?? '', /^#[0-9a-f]{6}$/, `${when}: card ${card}'s tint`);
      if (!c.fits) assert.equal(c.fill, '#173f87', `${when}: card ${card} is over, the darkest tint`);
    }
    const red = (c) => parseInt(c.fill.slice(1, 3), 16);
    const byBytes = [...shown].sort((a, b) => a.bytes - b.bytes);
    for (let i = 1; i < byBytes.length; i++) {
      assert.ok(red(byBytes[i]) <= red(byBytes[i - 1]), `${when}: more memory, a darker tint`);
    }
  };
  agree(await marks(), 'loaded over');
  // The sequence slider down by keys (131,072 → 4,096 tokens): every card fits, every mark goes;
  // back up by keys: the same cards are over again, each with one mark.
  const seq = SLIDERS.find((s) => s.testId === 'slider-seq');
  await keyboardTo(section, seq, 12);
  const fitting = await marks();
  assert.ok(fitting.every((c) => c.fits), 'every stage fits at 4,096 tokens');
  agree(fitting, 'at 4,096 tokens');
  await keyboardTo(section, seq, 17);
  const again = await marks();
  assert.deepEqual(again.map((c) => c.fits), all.map((c) => c.fits), 'the same cards are over again');
  agree(again, 'back at 131,072 tokens');
});

pageTest('the two stage steps set their plans up, and their readings are the CLI\'s', lab, async ({ page }) => {
  const section = page.getByTestId('section-64');
  const steps = [
    ['64-stages', { gpus: 64, tp: 8, pp: 8, accounting: 'stages' }],
    ['64-stages-even', { gpus: 64, tp: 8, pp: 8, accounting: 'stages', schedule: 'interleaved', virtual_stages: 2 }],
  ];
  for (const [id, config] of steps) {
    const step = section.getByTestId(`task-${id}`);
    await step.getByRole('button').click();
    const report = cli(['eval'], config).ok;
    assert.equal(Number(await section.getByTestId('mem-total').getAttribute('data-bytes')), report.memory.total, id);
    const reading = await step.locator('.task-observation').innerText();
    const stages = report.memory.by_stage.map((s) => s.total);
    const ratio = (Math.max(...stages) / Math.min(...stages)).toFixed(2);
    assert.match(reading, new RegExp(`第 ${report.memory.busiest_stage} 段`), `${id}: ${reading}`);
    assert.ok(reading.includes(ratio), `${id}: "${reading}" lacks max ÷ min = ${ratio}`);
  }
});
