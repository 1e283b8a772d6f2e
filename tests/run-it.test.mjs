// "Run it" under each grid (issue 27, SPEC §16): the grid's plan as a launch command that
// follows the controls (TP moved by keys over its whole range, the engine picked by keys) and
// equals `parallel-lab flags` on the same plan, with the CLI's notes; a pasted Megatron-LM
// command sets the grid, whose every figure then equals `parallel-lab eval --megatron`, and
// the flags the lab ignored or does not model are named; another grid's command is refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { labForFile, openPage, scrollToElement, settleAndCheck } from './harness.mjs';
import { CLI, START, cli, differences, expected, fullConfig, keyboardTo, shown, SLIDERS } from './drive.mjs';

const lab = labForFile();

const ENGINE = { testId: 'select-engine', options: { megatron: 1, slime: 2, deepspeed: 3 } };

/** `parallel-lab flags --engine E` on `config`: its shell text, or its error line. */
function flagsOf(config, engine) {
  const run = spawnSync(CLI, ['flags', '--engine', engine], { input: JSON.stringify(config), encoding: 'utf8' });
  // The command, without the CLI's `#` lines of notes (the page lists them apart).
  if (run.status === 0) return { shell: run.stdout.split('\n').filter((l) => !l.startsWith('# ')).join('\n').trim() };
  if (run.status === 2) return { error: run.stderr.trim().replace(/^parallel-lab: error: /, '') };
  throw new Error(`flags exited ${run.status}: ${run.stderr}`);
}

/** Waits, frame by frame, until the panel shows what the CLI says for `config` and `engine`. */
async function commandIs(page, panel, config, engine, lang, what) {
  const want = flagsOf(config, engine);
  const notes = want.shell ? cli(['flags', '--engine', engine, '--format', 'json', '--lang', lang], config).ok.notes : [];
  let got;
  for (let frame = 0; frame < 600; frame++) {
    got = await panel.evaluate((root) => ({
      shell: root.querySelector('[data-testid="command"]')?.textContent.trim() ?? null,
      error: root.querySelector('[data-testid="command-error"]')?.textContent.trim() ?? null,
      notes: [...root.querySelectorAll('[data-testid="notes"] li')].map((li) => li.textContent.trim()),
    }));
    const same = want.shell
      ? got.shell === want.shell && JSON.stringify(got.notes) === JSON.stringify(notes)
      : got.shell === null && got.error !== null;
    if (same) return got;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  assert.fail(`${what}: page ${JSON.stringify(got).slice(0, 400)}, CLI ${JSON.stringify(want).slice(0, 400)}`);
}

test('the command follows the controls and equals parallel-lab flags; a pasted command sets the grid', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const section = page.getByTestId('section-8');
  await scrollToElement(section);
  const panel = section.getByTestId('run-it');
  await panel.locator('summary').click();
  let fields = {};
  let valid = fullConfig({ ...START[8] });
  const config = () => fullConfig({ ...START[8], ...fields });
  await commandIs(page, panel, valid, 'megatron', 'zh', 'the start');

  // TP over its whole range by keys: every plan the page takes gives the CLI's command; a
  // plan the core refuses leaves the last valid plan's.
  const tp = SLIDERS.find((s) => s.field === 'tp');
  const step = async (position) => {
    fields = { ...fields, tp: position };
    if (!cli(['eval'], config()).error) valid = config();
    await commandIs(page, panel, valid, 'megatron', 'zh', `TP ${position}`);
  };
  await keyboardTo(section, tp, tp.min, 'ends', step);
  await keyboardTo(section, tp, tp.max, 'arrows', step);
  await keyboardTo(section, tp, 2, 'arrows', step);

  // Every engine by arrow keys, each against the CLI (DeepSpeed's JSON config included).
  const engines = [];
  for (const engine of ['deepspeed', 'megatron', 'slime']) {
    const select = section.getByTestId('select-engine');
    await select.focus();
    while ((await select.inputValue()) !== engine) {
      const values = Object.keys(ENGINE.options);
      await page.keyboard.press(values.indexOf(engine) > values.indexOf(await select.inputValue()) ? 'ArrowDown' : 'ArrowUp');
      engines.push(await select.inputValue());
      await commandIs(page, panel, valid, await select.inputValue(), 'zh', `engine ${await select.inputValue()}`);
    }
  }
  assert.deepEqual(engines, ['slime', 'deepspeed', 'slime', 'megatron', 'slime'], 'every engine by keys');

  // A 64-card Megatron-LM command pasted into the 64-card grid, with flags the lab skips.
  const section64 = page.getByTestId('section-64');
  await scrollToElement(section64);
  const panel64 = section64.getByTestId('run-it');
  await panel64.locator('summary').click();
  const target = fullConfig({ gpus: 64, tp: 4, pp: 4, zero: 1, micro_batches: 16 });
  const text = `${flagsOf(target, 'megatron').shell} \\\n  --lr 1e-4 --fp16`;
  await section64.getByTestId('paste-command').fill(text);
  await section64.getByTestId('paste-command-apply').click();
  const notice = await section64.getByTestId('paste-command-notice').textContent();
  assert.ok(notice.includes('--lr') && notice.includes('--fp16'), notice);
  // The CLI reads the same command into the same plan.
  const { launch, ...report } = cli(['eval', '--megatron', text]).ok;
  assert.deepEqual(report, cli(['eval'], target).ok, 'eval --megatron is eval of the plan');
  for (const flag of ['--lr', '--fp16']) {
    assert.ok(JSON.stringify(launch).includes(flag), `the CLI names ${flag} too: ${JSON.stringify(launch)}`);
  }
  await section64.getByTestId('grid-64').getByTestId('card-0').click();
  const want = expected(target, 0);
  let diffs = [];
  for (let frame = 0; frame < 600; frame++) {
    diffs = differences(await shown(section64), want);
    if (diffs.length === 0) break;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  assert.deepEqual(diffs, [], 'the pasted plan on the grid');
  await commandIs(page, panel64, target, 'megatron', 'zh', 'the pasted plan written back');

  // The 8-card grid's command does not fit the 64-card grid: refused, the grid unchanged.
  await section64.getByTestId('paste-command').fill(flagsOf(valid, 'megatron').shell);
  await section64.getByTestId('paste-command-apply').click();
  const refused = await section64.getByTestId('paste-command-error').textContent();
  assert.ok(refused.includes('8') && refused.includes('64'), refused);
  assert.equal(await section64.getByTestId('slider-tp').inputValue(), '4');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

/** The panel's refusal text, once it is there and different from `not`. */
async function refusalText(page, panel, not = null) {
  for (let frame = 0; frame < 600; frame++) {
    const text = await panel.evaluate((root) => root.querySelector('[data-testid="command-error"]')?.textContent.trim() ?? null);
    if (text !== null && text !== not) return text;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  assert.fail('no refusal in the run-it panel');
}

test('a plan Megatron-Core refuses for its rank order: the CLI\'s reason, the order it runs and the groups that move', async () => {
  // 64 cards, TP 8 × CP 2 × PP 2 (DP 2) in the lab's tp-cp-pp-dp: Megatron-Core's expert mesh
  // has DP 64/(8·2) = 4 ≠ 2, which initialize_model_parallel refuses with the tp-pp-dp mapping.
  const plan = fullConfig({ ...START[64], tp: 8, cp: 2, pp: 2 });
  const want = flagsOf(plan, 'megatron');
  assert.ok(want.error?.startsWith('order: '), JSON.stringify(want));
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html', fragment: 'g64=tp8.cp2.pp2&lang=en' });
  const section64 = page.getByTestId('section-64');
  await scrollToElement(section64);
  const panel = section64.getByTestId('run-it');
  await panel.locator('summary').click();
  const english = await refusalText(page, panel);
  assert.ok(english.includes(want.error.replace(/^order: /, '')), `page: ${english}\nCLI: ${want.error}`);
  await page.getByTestId('lang-toggle').click();
  const chinese = await refusalText(page, panel, english);
  for (const part of ['Megatron-LM 拒绝这个方案', 'tp-cp-dp-pp', 'PP/DP', '（2）', '（4，']) {
    assert.ok(chinese.includes(part), `${part} in ${chinese}`);
  }
  // The same plan in Megatron's own order is a command, equal to the CLI's.
  const pp_last = flagsOf({ ...plan, order: 'tp-cp-dp-pp' }, 'megatron');
  assert.ok(pp_last.shell?.includes('--context-parallel-size 2'), JSON.stringify(pp_last));
  await settleAndCheck(page, problems, assert);
  await context.close();
});
