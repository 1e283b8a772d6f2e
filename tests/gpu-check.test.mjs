// "Check on a GPU" under each grid (issue 38, SPEC §19), as a student uses it: the panel
// opened by its summary; its download is the file `parallel-lab check --emit --card N` prints
// for the grid's plan and selected card, and follows a card clicked on the grid and a slider
// moved by keys (a refused plan shows the plan's own reason instead); every measured file of
// tests/fixtures/check/ (`*.measured.json`), chosen with the file input, pasted and dropped,
// gives a table whose every cell, note and line equals `parallel-lab check --measured FILE`
// (JSON for the numbers and words, Markdown for the cells as written), in Chinese and, after
// the language switch, in English, with a plot holding exactly the figures measured beside a
// lab figure; malformed and foreign files (not JSON, `{}`, a workload loaded by mistake, a
// figure that is text) each get an alert naming the field as the CLI does, and the page
// keeps working.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CJK, dropFile, hasCjk, labForFile, openPage, scrollToElement, settleAndCheck, waitForApp } from './harness.mjs';
import { CLI, START, SELECTS, SLIDERS, agree, choose, controlError, fullConfig, keyboardTo } from './drive.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, 'fixtures', 'check');
const MEASURED = readdirSync(FIXTURES).filter((f) => f.endsWith('.measured.json')).sort().map((f) => path.join(FIXTURES, f));

const lab = labForFile();

const tp = SLIDERS.find((s) => s.field === 'tp');
const frame = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));

/** Runs the CLI with `input` on stdin: `{ status, stdout, stderr }`. */
function run(args, input = '') {
  const out = spawnSync(CLI, args, { input, encoding: 'utf8' });
  if (out.error) throw new Error(`cannot run ${CLI}: ${out.error.message} (cargo build -p parallel-cli)`);
  return out;
}

/** `parallel-lab check --emit --card N` on `config`: the workload file's text. */
function emitted(config, card) {
  const out = run(['check', '--emit', '--card', String(card)], JSON.stringify(config));
  assert.equal(out.status, 0, out.stderr);
  return out.stdout;
}

/** `check --measured` on a file's text in `lang`: its JSON and its Markdown table's lines. */
function compared(text, lang) {
  const json = run(['check', '--measured', '-', '--format', 'json', '--lang', lang], text);
  assert.equal(json.status, 0, json.stderr);
  const md = run(['check', '--measured', '-', '--lang', lang], text).stdout.split('\n');
  const head = md.findIndex((l) => l.startsWith('|---'));
  const cells = md.slice(head + 1).filter((l) => l.startsWith('| ')).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  return { json: JSON.parse(json.stdout), lines: md.slice(0, 2), cells };
}

/** The CLI's refusal of a file's text: its line after `--measured:`, and the field it names. */
function refusal(text) {
  const out = run(['check', '--measured', '-'], text);
  assert.equal(out.status, 2, `the CLI refuses it: ${out.stdout}`);
  const line = out.stderr.trim().replace(/^parallel-lab: error: --measured: /, '');
  return { line, field: line.match(/^measured file, `([^`]+)`/)?.[1] ?? '' };
}

/** What the panel shows of a comparison, read at once. */
function readPanel(panel) {
  return panel.evaluate((root) => {
    const one = (id) => root.querySelector(`[data-testid="${id}"]`);
    const text = (id) => one(id)?.textContent.trim() ?? null;
    const canvas = one('gpu-check-plot');
    return {
      error: text('gpu-check-error'),
      rows: [...root.querySelectorAll('tr[data-testid^="gpu-check-row-"]')].map((tr) => ({
        id: tr.dataset.testid.slice('gpu-check-row-'.length),
        cells: [...tr.children].map((c) => c.textContent.trim()),
        values: [...tr.querySelectorAll('td')].map((td) => (td.hasAttribute('data-value') ? Number(td.dataset.value) : null)),
      })),
      heads: [...root.querySelectorAll('[data-testid="gpu-check-table"] thead th')].map((th) => th.textContent.trim()),
      notes: [...root.querySelectorAll('[data-testid="gpu-check-notes"] li')].map((li) => li.textContent.trim()),
      notBuilt: [...root.querySelectorAll('[data-testid="gpu-check-not-built"] li')].map((li) => li.textContent.trim()),
      measuredOn: text('gpu-check-measured-on'),
      built: text('gpu-check-built'),
      method: text('gpu-check-method'),
      compiledError: text('gpu-check-compiled-error'),
      series: canvas ? JSON.parse(canvas.dataset.series) : null,
      summary: canvas?.getAttribute('aria-label') ?? null,
    };
  });
}

/** Every difference between the panel and the CLI's comparison of the same file in `lang`. */
function comparisonDifferences(got, want, lang) {
  const out = [];
  const same = (what, a, b) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${what}: page ${JSON.stringify(a)}, CLI ${JSON.stringify(b)}`);
  };
  const { json, lines, cells } = want;
  same('error', got.error, null);
  same('row ids', got.rows.map((r) => r.id), json.rows.map((r) => r.figure));
  same('cells', got.rows.map((r) => r.cells), cells);
  same('values', got.rows.map((r) => r.values), json.rows.map((r) => [r.predicted, r.eager, r.compiled, r.ratio_eager, r.ratio_compiled]));
  same('notes', got.notes, json.rows.map((r) => `${r.label}: ${r.note}`));
  same('not built', got.notBuilt, json.not_built);
  same('compiled error shown', got.compiledError !== null, json.compiled_error !== null);
  if (json.compiled_error && !got.compiledError?.includes(json.compiled_error)) out.push(`compiled error: ${got.compiledError}`);
  if (!got.method?.includes(json.method)) out.push(`method: ${got.method}`);
  if (lang === 'en') {
    same('measured on', got.measuredOn, lines[0]);
    same('built', got.built, lines[1]);
  } else {
    for (const part of [json.card, json.software, json.date]) if (!got.measuredOn?.includes(part)) out.push(`measured on lacks ${part}: ${got.measuredOn}`);
    for (const n of [json.rank, json.stage, json.built.total, json.stage_layers, json.held]) if (!got.built?.includes(String(n))) out.push(`built lacks ${n}: ${got.built}`);
  }
  // The plot: a point for each figure measured in a mode beside a lab figure, at the core's ratio.
  const positive = (x) => typeof x === 'number' && x > 0;
  const points = json.rows.flatMap((r) => [['eager', r.eager, r.ratio_eager], ['compiled', r.compiled, r.ratio_compiled]]
    .filter(([, m, ratio]) => positive(r.predicted) && positive(m) && positive(ratio))
    .map(([mode, measured, ratio]) => ({ figure: r.figure, mode, measured, lab: r.predicted, ratio })));
  same('plot points', got.series, points);
  if (!got.summary) out.push('the plot has no accessible name');
  if (lang === 'en') {
    for (const [what, text] of Object.entries({ heads: got.heads.join(' '), summary: got.summary, measuredOn: got.measuredOn, built: got.built })) {
      if (hasCjk(text ?? '')) out.push(`CJK in English ${what}: ${text}`);
    }
  }
  return out;
}

/** Waits, frame by frame, until the panel shows the CLI's comparison of `text` in `lang`. */
async function showsComparison(panel, text, lang, what) {
  const want = compared(text, lang);
  let diffs = [];
  for (let i = 0; i < 600; i++) {
    diffs = comparisonDifferences(await readPanel(panel), want, lang);
    if (diffs.length === 0) return;
    await frame(panel.page());
  }
  assert.fail(`${what} (${lang}):\n${diffs.join('\n')}`);
}

/** Opens a grid's panel by its summary, as a student does. */
async function openPanel(section) {
  const panel = section.getByTestId('gpu-check');
  await scrollToElement(panel);
  await panel.locator(':scope > summary').click();
  await panel.locator('[data-testid="gpu-check-card"], [data-testid="gpu-check-plan-error"]').first().waitFor();
  return panel;
}

/** Clicks the download button; resolves to the file's name and text. */
async function download(panel) {
  const [file] = await Promise.all([panel.page().waitForEvent('download'), panel.getByTestId('gpu-check-download').click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

/** The workload the panel offers for `card` equals the CLI's for `config`. */
async function offers(panel, config, card, what) {
  await panel.locator(`[data-testid="gpu-check-card"][data-checked="${card}"]`).waitFor();
  const want = emitted(config, card);
  const w = JSON.parse(want);
  const line = await panel.getByTestId('gpu-check-card').textContent();
  assert.ok(line.includes(String(card)) && line.includes(String(w.layers.total)), `${what}: ${line}`);
  assert.equal((await panel.getByTestId('gpu-check-command').textContent()).trim(), `python3 check.py workload-card-${card}.json`, what);
  const got = await download(panel);
  assert.equal(got.name, `workload-card-${card}.json`, what);
  assert.equal(got.text, want, `${what}: the download is check --emit --card ${card}`);
}

test('the download is check --emit for the grid\'s plan and card, following clicks and keys', async () => {
  const { page, context, problems } = await openPage(lab);
  for (const gpus of [8, 64]) {
    const section = page.getByTestId(`section-${gpus}`);
    const panel = await openPanel(section);
    let config = fullConfig({ ...START[gpus] });
    await offers(panel, config, 0, `${gpus} cards, no card selected`);
    const card = gpus === 8 ? 5 : 19;
    await section.getByTestId(`grid-${gpus}`).getByTestId(`card-${card}`).click();
    await offers(panel, config, card, `${gpus} cards, card ${card} clicked`);
    // TP by keys: the plan follows; TP 3 on 8 cards is refused with the plan's own reason.
    if (gpus === 8) {
      await keyboardTo(section, tp, 2);
      config = fullConfig({ ...START[8], tp: 2 });
      await offers(panel, config, card, 'TP 2');
      await keyboardTo(section, tp, 3);
      const reason = await panel.getByTestId('gpu-check-plan-error').textContent();
      assert.equal(reason.trim(), await controlError(section, tp.testId), 'the plan\'s own reason');
      assert.equal(await panel.getByTestId('gpu-check-download').count(), 0, 'no download for a refused plan');
      await keyboardTo(section, tp, 4);
      config = fullConfig({ ...START[8], tp: 4 });
      await offers(panel, config, card, 'TP 4');
    }
  }
  // The lesson's panel reads no file: the measured file goes to the planner, whose panel
  // opens on the same plan and card (the link carries both) and offers the same workload.
  const section64 = page.getByTestId('section-64');
  assert.equal(await page.getByTestId('gpu-check-paste').count(), 0, 'no file box on the lesson');
  await section64.getByTestId('gpu-check-planner').click();
  await page.waitForURL(/plan\.html#/);
  await waitForApp(page);
  const planner = page.getByTestId('section-64');
  const panel64 = await openPanel(planner);
  await offers(panel64, fullConfig({ ...START[64] }), 19, 'the planner, from the lesson\'s link');
  await panel64.getByTestId('gpu-check-paste').waitFor();
  // The measuring program is shipped beside the page.
  const script = await page.request.get(`${lab.baseUrl}check.py`);
  assert.equal(script.status(), 200);
  assert.equal(await script.text(), readFileSync(path.join(HERE, '..', 'scripts', 'gpu-check', 'check.py'), 'utf8'));
  assert.equal(await panel64.getByTestId('gpu-check-script').getAttribute('href'), 'check.py');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('every measured fixture, chosen, pasted and dropped, equals check --measured in both languages', async () => {
  assert.ok(MEASURED.length > 0, `no *.measured.json in ${FIXTURES}`);
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const panel8 = await openPanel(page.getByTestId('section-8'));
  const panel64 = await openPanel(page.getByTestId('section-64'));
  for (const file of MEASURED) {
    const text = readFileSync(file, 'utf8');
    const name = path.basename(file);
    await panel8.getByTestId('gpu-check-file').setInputFiles(file);
    await showsComparison(panel8, text, 'zh', `${name} chosen`);
    await panel64.getByTestId('gpu-check-paste').fill(text);
    await panel64.getByTestId('gpu-check-compare').click();
    await showsComparison(panel64, text, 'zh', `${name} pasted`);
  }
  // A file dropped on the 8-card grid's box, after a refused one: the box takes a drop.
  await panel8.getByTestId('gpu-check-paste').fill('{}');
  await panel8.getByTestId('gpu-check-compare').click();
  await panel8.getByTestId('gpu-check-error').waitFor();
  await dropFile(panel8.getByTestId('gpu-check-drop'), readFileSync(MEASURED[0], 'utf8'));
  await showsComparison(panel8, readFileSync(MEASURED[0], 'utf8'), 'zh', `${path.basename(MEASURED[0])} dropped`);
  // In English, every word of both comparisons follows.
  await page.getByTestId('lang-toggle').click();
  await showsComparison(panel8, readFileSync(MEASURED[0], 'utf8'), 'en', 'after the switch');
  await showsComparison(panel64, readFileSync(MEASURED.at(-1), 'utf8'), 'en', 'after the switch');
  // The plot is drawn once in view: eager's dots in their colour (palette.rs RUN).
  const plot = panel64.getByTestId('gpu-check-plot');
  await scrollToElement(plot);
  await page.waitForFunction((canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    for (let i = 0; i < data.length; i += 4) if (data[i] === 0x3b && data[i + 1] === 0x5b && data[i + 2] === 0xdb) return true;
    return false;
  }, await plot.elementHandle());
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('malformed and foreign files get an alert naming the field; the page keeps working', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const section = page.getByTestId('section-8');
  await section.getByTestId('grid-8').getByTestId('card-0').click();
  const panel = await openPanel(section);
  const good = readFileSync(MEASURED[0], 'utf8');
  const bigPeak = JSON.parse(good);
  bigPeak.eager.peak_bytes = 'big';
  const cases = [
    ['not JSON', 'this is not a measured file'],
    ['{}', '{}'],
    ['a workload', emitted(fullConfig({ ...START[8] }), 0)],
    ['a figure that is text', JSON.stringify(bigPeak, null, 2)],
  ];
  for (const [index, [what, text]] of cases.entries()) {
    // A good file first, so that the refusal is seen replacing a comparison.
    await panel.getByTestId('gpu-check-paste').fill(good);
    await panel.getByTestId('gpu-check-compare').click();
    await panel.getByTestId('gpu-check-table').waitFor();
    const want = refusal(text);
    if (index % 2 === 0) {
      await panel.getByTestId('gpu-check-paste').fill(text);
      await panel.getByTestId('gpu-check-compare').click();
    } else {
      await panel.getByTestId('gpu-check-file').setInputFiles({ name: 'measured.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    }
    const alert = panel.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.getAttribute('data-testid'), 'gpu-check-error');
    assert.equal(await alert.getAttribute('data-field'), want.field, what);
    const zh = (await alert.textContent()).trim();
    assert.ok(zh.includes(want.field) && hasCjk(zh), `${what}: ${zh}`);
    assert.equal(await panel.getByTestId('gpu-check-table').count(), 0, `${what}: the comparison is gone`);
    await page.getByTestId('lang-toggle').click();
    await page.waitForFunction((el) => !/[\u4e00-\u9fff]/.test(el.textContent), await alert.elementHandle());
    assert.equal((await alert.textContent()).trim(), want.line, `${what}: the CLI's line`);
    await page.getByTestId('lang-toggle').click();
    await page.waitForFunction((el) => /[\u4e00-\u9fff]/.test(el.textContent), await alert.elementHandle());
  }
  // The page still answers: TP by keys, the grid's figures the CLI's for the new plan.
  await keyboardTo(section, tp, 2);
  await agree(section, fullConfig({ ...START[8], tp: 2 }), 0, 'the grid after the refusals');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('a card of measured shapes comes with its measurement; another card with none', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const section = page.getByTestId('section-64');
  const hardware = SELECTS.find((s) => s.field === 'hardware');
  // The lesson's 64-card plan on the lesson's card: never measured.
  const panel = await openPanel(section);
  await panel.locator('[data-testid="gpu-check-card"][data-checked="0"]').waitFor();
  assert.equal(await panel.getByTestId('gpu-check-known').count(), 0, 'the lesson card was never measured');
  // The same plan on H200s, picked by keys: card 0 is the card check.py measured on one H200.
  await choose(section, hardware, 'h200', 'keys');
  const known = panel.locator('[data-testid="gpu-check-known"][data-known="h200-lesson-64-card0"]');
  await known.waitFor();
  await known.getByTestId('gpu-check-show-known').click();
  const text = readFileSync(path.join(FIXTURES, 'h200-lesson-64-card0.measured.json'), 'utf8');
  await showsComparison(panel, text, 'zh', 'the shipped H200 measurement of card 0');
  // Card 8 is on stage 1, which holds seven micro-batches in flight, not eight: not measured.
  await section.getByTestId('grid-64').getByTestId('card-8').click();
  await panel.locator('[data-testid="gpu-check-card"][data-checked="8"]').waitFor();
  assert.equal(await panel.getByTestId('gpu-check-known').count(), 0, 'stage 1 was not measured');
  await settleAndCheck(page, problems, assert);
  await context.close();
});
