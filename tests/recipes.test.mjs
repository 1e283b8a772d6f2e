// Seed 000's recipe table in full (issue 26, item 4, SPEC §15): every row's cards per engine
// and response cap; for the anchor's row, and for a row whose config.json the user pastes or
// drops, training memory with CPU Adam, rollout memory and the shared peak, each against
// `parallel-lab eval` on the recipe's plan; a refused plan says why in the page's language;
// a row whose N is a grid's loads into that grid, whose every figure then equals the CLI's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropFile, labForFile, openPage, settleAndCheck, visibleText } from './harness.mjs';
import { CLI, cli, differences, expected, fullConfig, gb, shown, thousands } from './drive.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HF = path.join(HERE, '..', 'crates', 'parallel-core', 'tests', 'fixtures', 'hf');

const lab = labForFile();

/** Seed 000's table as the course page prints it: N, TP / PP / CP / EP, cards per engine. */
const ROWS = {
  'GLM-4.7-Flash': { gpus: 8, tp: 2, pp: 1, cp: 4, ep: 8, engine: 8, cap: 131072 },
  'GLM-4.7': { gpus: 64, tp: 8, pp: 4, cp: 2, ep: 16, engine: 32, cap: 131072 },
  'GLM-5.3': { gpus: 256, tp: 4, pp: 8, cp: 8, ep: 32, engine: 64, cap: 262144 },
  'Qwen3.8-27B': { gpus: 32, tp: 4, pp: 2, cp: 4, ep: 1, engine: 2, cap: 131072 },
};

/**
 * A row's plan on the recipes' terms (the table's note): sequences of the 2,048-token prompt
 * plus the cap, ZeRO-1, CPU Adam, full recompute, log-prob chunks of 1,024, the engines
 * colocated with 8 prompts × 8 samples (the core's defaults).
 */
function recipeConfig(row, model) {
  const { gpus, tp, pp, cp, ep, engine, cap } = ROWS[row];
  return {
    ...(model ? { model } : {}),
    gpus, tp, pp, cp, ep,
    seq_len: 2048 + cap,
    zero: 1,
    recompute: 'full',
    optimizer_offload: 'cpu',
    log_probs_chunk: 1024,
    rollout: { gpus_per_engine: engine, response_len: cap },
  };
}

/** The row's figures against `eval` on its plan: every cell's bytes, text and fit. */
async function figuresAgree(tr, verdict, what) {
  const r = verdict.ok;
  const cells = [
    ['recipe-states', r.memory.model_states, null],
    ['recipe-activations', r.memory.activations, null],
    ['recipe-total', r.memory.total, r.memory.fits],
    ['recipe-rollout', r.rollout.total, r.rollout.fits],
    ['recipe-peak', r.rollout.peak, r.rollout.peak <= r.memory.capacity],
  ];
  for (const [id, bytes, fits] of cells) {
    const cell = tr.getByTestId(id);
    assert.equal(Number(await cell.getAttribute('data-bytes')), bytes, `${what}: ${id}`);
    const text = await visibleText(cell);
    assert.ok(text.includes(gb(bytes)), `${what}: ${id} "${text}" has ${gb(bytes)}`);
    if (fits !== null) {
      assert.equal(await cell.getAttribute('data-fits'), String(fits), `${what}: ${id} fits`);
      assert.ok(text.includes(fits ? '✓' : '✗'), `${what}: ${id} mark`);
    }
  }
  assert.equal(await tr.getByTestId('recipe-peak').getAttribute('data-phase'), r.rollout.peak_phase, `${what}: peak phase`);
}

test('the recipe table in full: engines, caps, CPU Adam, rollout and the shared peak against eval', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'rl.html' });
  const table = page.getByTestId('table-recipes');
  await table.scrollIntoViewIfNeeded();
  const fixture = async (name) => JSON.parse(await readFile(path.join(HF, `${name}.json`), 'utf8'));

  // Every row: its engine's cards and response cap, as seed 000 gives them.
  for (const [row, r] of Object.entries(ROWS)) {
    const tr = table.getByTestId(`recipe-${row}`);
    assert.equal(await visibleText(tr.getByTestId('recipe-engine')), String(r.engine), row);
    assert.equal(await visibleText(tr.getByTestId('recipe-response')), thousands(r.cap), row);
  }
  // The anchor's row: its own figures, and the numbers (45.2 GB = 27.8 + 17.4).
  const anchor = cli(['eval'], recipeConfig('Qwen3.8-27B'));
  const qwen = table.getByTestId('recipe-Qwen3.8-27B');
  const flash = table.getByTestId('recipe-GLM-4.7-Flash');
  await figuresAgree(qwen, anchor, 'anchor');
  assert.deepEqual([gb(anchor.ok.rollout.weights), gb(anchor.ok.rollout.kv_cache), gb(anchor.ok.rollout.total)], ['27.8 GB', '17.4 GB', '45.2 GB']);
  assert.equal(await qwen.getByTestId('recipe-load').count(), 0, '32 cards fill neither grid');
  // Its slime command (opened as a reader opens it) is `parallel-lab flags --engine slime`'s.
  await qwen.locator('.recipe-command summary').click();
  const slime = spawnSync(CLI, ['flags', '--engine', 'slime'], { input: JSON.stringify(recipeConfig('Qwen3.8-27B')), encoding: 'utf8' });
  assert.equal(slime.status, 0, slime.stderr);
  const wantCommand = slime.stdout.split('\n').filter((l) => !l.startsWith('# ')).join('\n').trim();
  assert.equal((await qwen.getByTestId('recipe-command').textContent()).trim(), wantCommand);
  assert.match(wantCommand, /--rollout-num-gpus-per-engine 2/);
  assert.equal(await flash.getByTestId('recipe-command').count(), 0, 'no command without a model');
  // The rows without a config show dashes, and a row that fills a grid asks for one.
  assert.equal(await table.getByTestId('recipe-GLM-4.7').getByTestId('recipe-states').count(), 0);
  assert.equal(await flash.getByTestId('recipe-load').count(), 0);
  assert.match(await visibleText(flash.getByTestId('recipe-load-needs')), /config\.json/);

  const supply = async (row, name, how) => {
    const hf = await fixture(name);
    const tr = table.getByTestId(`recipe-${row}`);
    const box = tr.getByTestId('recipe-config');
    if (!(await box.isVisible())) await tr.locator('.own-model summary').click();
    if (how === 'paste') {
      await box.fill(JSON.stringify(hf));
      await tr.getByTestId('recipe-config-apply').click();
    } else {
      await dropFile(box, JSON.stringify(hf));
    }
    const counted = cli(['model'], hf).ok;
    await tr.getByTestId('recipe-config-result').and(page.locator(`[data-params="${counted.params}"]`)).waitFor();
    const config = recipeConfig(row, { hf_config: hf });
    const verdict = cli(['eval'], config);
    if (verdict.ok) {
      await figuresAgree(tr, verdict, `${row} with ${name}`);
      assert.equal(await tr.getByTestId('recipe-error').count(), 0);
    } else {
      // The page's reason is the CLI's, in the page's language (Chinese here).
      const zh = await visibleText(tr.getByTestId('recipe-error'));
      assert.ok(/[\u4e00-\u9fff]/.test(zh) && !/[a-z]{4,} [a-z]{4,}/.test(zh), `${row} with ${name}: ${zh} against ${verdict.error}`);
      assert.equal(await tr.getByTestId('recipe-states').count(), 0);
    }
    return { config, verdict, tr };
  };
  assert.ok((await supply('GLM-4.7', 'qwen3-30b-a3b', 'drop')).verdict.ok);
  await supply('GLM-5.3', 'deepseek-v3', 'paste');
  // A dense model cannot take the row's EP 8: the reason, in each language, names EP.
  assert.ok((await supply('GLM-4.7-Flash', 'llama3-8b', 'paste')).verdict.error);
  assert.equal(await flash.getByTestId('recipe-load').count(), 0, 'a refused plan does not load');
  await page.getByTestId('lang-toggle').click();
  const en = await visibleText(flash.getByTestId('recipe-error'));
  assert.ok(en.startsWith('ep: expert parallelism needs an MoE model') && !/[\u4e00-\u9fff]/.test(en), en);
  await page.getByTestId('lang-toggle').click();

  // Rows that fill a grid load into it: every figure of the grid is then the CLI's.
  for (const [row, grid] of [['GLM-4.7-Flash', 8], ['GLM-4.7', 64]]) {
    const { config, verdict, tr } = await supply(row, 'qwen3-30b-a3b', 'paste');
    assert.ok(verdict.ok, `${row} with Qwen3-30B-A3B: ${verdict.error}`);
    const button = tr.getByTestId('recipe-load');
    assert.match(await visibleText(button), new RegExp(`${grid} 卡网格`));
    await button.click();
    const section = page.getByTestId(`section-${grid}`);
    await section.getByTestId('toggle-rollout').and(page.locator(':checked')).waitFor();
    const want = expected(fullConfig(config), 0);
    await section.getByTestId(`grid-${grid}`).getByTestId('card-0').click();
    let diffs = [];
    for (let frame = 0; frame < 600; frame++) {
      diffs = differences(await shown(section), want);
      if (diffs.length === 0) break;
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    }
    assert.deepEqual(diffs, [], `${row} loaded into grid-${grid}`);
    assert.equal(await section.getByTestId('toggle-offload').isChecked(), true, 'CPU Adam on');
    await table.scrollIntoViewIfNeeded();
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});
