// Part four (web/src/pages/lesson/decisions/mod.rs): the three decision forms, checked against the
// page's own core, and the TP bench run in the page. Every expected figure is a reference value
// (SPEC §9 for the 8-GPU plans; the lesson's 75.2 GB / 12.5% for 64 cards, TP 8 × PP 2, m = 8;
// 56.3 MiB for the small model), never one recomputed here; where the page shows a figure twice
// (a verdict and a grid) the two data-bytes attributes must be equal.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CJK, DESKTOP, openPage, settleAndCheck, startLab, visibleText } from './harness.mjs';

// SPEC §9, the two 8-GPU plans decision 1 is about (DP 8, ZeRO-3).
const FULL = { states: '55.6', activations: '2.7', total: '58.2 GB', fits: true };
const SELECTIVE = { states: '55.6', activations: '45.6', total: '101.2 GB', fits: false };
// The lesson's 64-card answer for TP 8 × PP 2 × DP 4, ZeRO-1, m = 8.
const DECISION_2 = { dim: 'tp', bytes: '75.2 GB', link: 'NVLink', bubble: 0.125 };

// One page for the whole file (opening one costs about a second): each form is filled in full
// before each check, tests run in order, and the language is set where it matters. Reduced
// motion turns the page's smooth scrolling off, so clicks far down the page need no wait.
let lab;
let page;
let context;
let problems;
before(async () => {
  lab = await startLab();
  ({ page, context, problems } = await openPage(lab, DESKTOP, {
    setup: (p) => p.emulateMedia({ reducedMotion: 'reduce' }),
  }));
});
after(async () => {
  await context?.close();
  await lab?.close();
});

/** Nothing went wrong so far (console errors, page errors, failed requests). */
async function noProblems() {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  assert.deepEqual(problems, [], 'console errors, page errors or failed requests');
}

/** Switches the page to `lang` ('zh-CN' or 'en') with the toggle, if it is not there yet. */
async function setLang(lang) {
  const html = page.locator('html');
  if ((await html.getAttribute('lang')) !== lang) await page.getByTestId('lang-toggle').click();
  assert.equal(await html.getAttribute('lang'), lang);
}

/** Regex-escapes a literal. */
const lit = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Fills decision 1 (only the fields given) and presses Check; resolves to its verdict. */
async function checkOne({ zero, tp, recompute, states, activations }) {
  const form = page.getByTestId('decision-1');
  if (zero !== undefined) await form.getByTestId('decision-1-zero').selectOption(zero);
  if (tp !== undefined) await form.getByTestId('decision-1-tp').selectOption(tp);
  if (recompute !== undefined) await form.getByTestId('decision-1-recompute').selectOption(recompute);
  if (states !== undefined) await form.getByTestId('decision-1-states').fill(states);
  if (activations !== undefined) await form.getByTestId('decision-1-activations').fill(activations);
  await form.getByTestId('decision-1-check').click();
  return form.getByTestId('decision-1-verdict');
}

/** Fills decision 2 (only the fields given) and presses Check; resolves to its verdict. */
async function checkTwo({ tp, pp, zero, m, heaviest, bytes, link, threshold }) {
  const form = page.getByTestId('decision-2');
  const selects = { tp, pp, zero, heaviest, link };
  for (const [field, value] of Object.entries(selects)) {
    // `select`: the verdict's line about the heaviest dimension has the same test id.
    if (value !== undefined) await form.locator(`select[data-testid="decision-2-${field}"]`).selectOption(value);
  }
  const fields = { m, bytes, threshold };
  for (const [field, value] of Object.entries(fields)) {
    if (value !== undefined) await form.getByTestId(`decision-2-${field}`).fill(value);
  }
  await form.getByTestId('decision-2-check').click();
  return form.getByTestId('decision-2-verdict');
}

/** Decision 3: picks an answer (or none) and presses Check; resolves to its verdict. */
async function checkThree(answer) {
  const form = page.getByTestId('decision-3');
  if (answer) await form.getByTestId(`decision-3-${answer}`).check();
  await form.getByTestId('decision-3-check').click();
  return form.getByTestId('decision-3-verdict');
}

/** Each CJK character of `text` with a little context, for a readable failure. */
function cjkSpots(text) {
  return [...text.matchAll(CJK)].map((m) => JSON.stringify(text.slice(Math.max(0, m.index - 15), m.index + 15)));
}

test('decision 1: the reference plan passes, selective recompute overflows, a wrong figure is named', async () => {
  await setLang('zh-CN');
  const form = page.getByTestId('decision-1');
  await form.scrollIntoViewIfNeeded();
  const statesLine = form.getByTestId('decision-1-states-result');
  const activationsLine = form.getByTestId('decision-1-activations-result');
  const total = form.getByTestId('decision-1-total');

  // DP 8, ZeRO-3, full recompute: 55.6 + 2.7 = 58.2 GB ≤ 80.
  let verdict = await checkOne({ zero: '3', tp: '1', recompute: 'full', ...FULL });
  assert.equal(await form.getByTestId('decision-1-dp').innerText(), '8', 'DP = 8 ÷ TP');
  assert.equal(await verdict.getAttribute('data-pass'), 'true', 'the reference plan passes');
  assert.match(await verdict.getAttribute('class'), /\bpass\b/);
  assert.equal(await statesLine.getAttribute('data-ok'), 'true');
  assert.match(await visibleText(statesLine), /^✓ .*55\.6 GB.*55\.6 GB/);
  assert.equal(await activationsLine.getAttribute('data-ok'), 'true');
  assert.match(await visibleText(activationsLine), /^✓ .*2\.7 GB.*2\.7 GB/);
  assert.equal(await total.getAttribute('data-fits'), String(FULL.fits));
  assert.match(await visibleText(total), new RegExp(`^✓ .*${lit(FULL.total)} ≤ 80\\.0 GB`));
  assert.match(await visibleText(verdict), /✓ 通过/, 'the verdict says accepted');

  // Selective recompute: both figures right, but 101.2 GB > 80.
  verdict = await checkOne({ recompute: 'selective', ...SELECTIVE });
  assert.equal(await verdict.getAttribute('data-pass'), 'false', 'selective recompute does not fit');
  assert.match(await verdict.getAttribute('class'), /\bfail\b/);
  assert.equal(await statesLine.getAttribute('data-ok'), 'true', 'states still match');
  assert.equal(await activationsLine.getAttribute('data-ok'), 'true', 'activations still match');
  assert.match(await visibleText(activationsLine), /45\.6 GB.*45\.6 GB/);
  assert.equal(await total.getAttribute('data-fits'), String(SELECTIVE.fits));
  assert.match(await visibleText(total), new RegExp(`^✗ .*${lit(SELECTIVE.total)} > 80\\.0 GB`));
  assert.match(await visibleText(verdict), /✗ 这个方案放不下/, 'the verdict blames the total');

  // Full recompute again, model states wrong: that line (and only it) is marked.
  verdict = await checkOne({ recompute: 'full', states: '50', activations: FULL.activations });
  assert.equal(await verdict.getAttribute('data-pass'), 'false', '50 GB is not the model states');
  assert.equal(await statesLine.getAttribute('data-ok'), 'false');
  assert.match(await visibleText(statesLine), /^✗ 每卡模型状态.* 50 GB.*55\.6 GB/, 'names the figure, typed and computed');
  assert.equal(await activationsLine.getAttribute('data-ok'), 'true');
  assert.equal(await total.getAttribute('data-fits'), 'true', 'the plan itself fits');
  assert.match(await visibleText(verdict), /✗ 还有数对不上/);

  // The opening prediction's rule, within 5%: 56 for 55.6 GB is right, 52 is not.
  verdict = await checkOne({ states: '56', activations: FULL.activations });
  assert.equal(await statesLine.getAttribute('data-ok'), 'true', '56 GB is within 5% of 55.6 GB');
  assert.equal(await verdict.getAttribute('data-pass'), 'true');
  verdict = await checkOne({ states: '52', activations: FULL.activations });
  assert.equal(await statesLine.getAttribute('data-ok'), 'false', '52 GB is more than 5% off');

  // Activations wrong instead.
  verdict = await checkOne({ states: FULL.states, activations: '27' });
  assert.equal(await verdict.getAttribute('data-pass'), 'false', '27 GB is not the activations');
  assert.equal(await statesLine.getAttribute('data-ok'), 'true');
  assert.equal(await activationsLine.getAttribute('data-ok'), 'false');
  assert.match(await visibleText(activationsLine), /^✗ 每卡激活.* 27 GB.*2\.7 GB/);

  await noProblems();
});

test('decision 1: bad input gets a clear message, no panic, and the form still works', async () => {
  await setLang('zh-CN');
  const form = page.getByTestId('decision-1');
  await form.scrollIntoViewIfNeeded();

  // One case in Chinese, the page's first language.
  let verdict = await checkOne({ states: 'abc', activations: FULL.activations });
  assert.match(await visibleText(verdict), /每卡模型状态：这不是一个数/);
  assert.match(await visibleText(form.locator('#decision-1-states-error')), /这不是一个数/);

  await setLang('en');
  const cases = [
    ['', /^Empty: write a number, for example \d+\.\d\.$/],
    ['abc', /^That is not a number: .*for example \d+\.\d\.$/],
    ['-3', /^It cannot be negative\.$/],
    ['1e999', /^(That is not a number|Too large)\b/],
  ];
  for (const [field, name] of [['states', 'Model states per card'], ['activations', 'Activations per card']]) {
    const input = form.getByTestId(`decision-1-${field}`);
    const fieldError = form.locator(`#decision-1-${field}-error`);
    for (const [typed, message] of cases) {
      const figures = field === 'states' ? { states: typed, activations: FULL.activations } : { states: FULL.states, activations: typed };
      verdict = await checkOne(figures);
      const what = `${field} ${JSON.stringify(typed)}`;
      assert.equal(await verdict.getAttribute('data-pass'), 'false', `${what}: no pass`);
      const problem = verdict.locator('li.input-problem');
      assert.equal(await problem.count(), 1, `${what}: one input problem listed`);
      const text = await visibleText(problem);
      assert.ok(text.startsWith(`${name}: `), `${what}: the problem names the field (${text})`);
      assert.match(text.slice(name.length + 2), message, `${what}: message`);
      assert.equal(await form.getByTestId(`decision-1-${field}-result`).count(), 0, `${what}: no comparison line`);
      assert.match(await visibleText(verdict), /Fill in both figures first\./);
      if (typed === '') {
        // An empty field is not flagged while typing, only in the verdict.
        assert.equal(await input.getAttribute('aria-invalid'), 'false', `${what}: not flagged while empty`);
      } else {
        assert.equal(await input.getAttribute('aria-invalid'), 'true', `${what}: field flagged`);
        assert.match(await visibleText(fieldError), message, `${what}: message under the field`);
      }
    }
  }

  // The app is alive: the right figures still pass.
  verdict = await checkOne(FULL);
  assert.equal(await verdict.getAttribute('data-pass'), 'true', 'valid figures pass after the bad ones');
  assert.match(await visibleText(verdict), /✓ Accepted/);

  await noProblems();
});

test("decision 1's plan loads into the 8-card grid, whose figures are the verdict's", async () => {
  await setLang('zh-CN');
  const form = page.getByTestId('decision-1');
  const grid = page.getByTestId('section-8');
  const sameNote = form.getByTestId('decision-1-grid');
  const load = form.getByTestId('decision-1-load');

  // Move the grid off the plan first (it starts on ZeRO-3).
  await grid.getByTestId('select-zero').selectOption('0');
  await checkOne({ zero: '3', tp: '1', recompute: 'full', ...FULL });
  assert.equal(await sameNote.getAttribute('data-same'), 'false', 'the grid shows ZeRO-0');
  assert.ok(await load.isEnabled(), 'the load button is enabled');
  await load.click();
  assert.equal(await grid.getByTestId('select-zero').inputValue(), '3', 'the grid is on ZeRO-3');
  assert.equal(await grid.getByTestId('select-recompute').inputValue(), 'full');
  assert.equal(
    await grid.getByTestId('mem-states').getAttribute('data-bytes'),
    await form.getByTestId('decision-1-states-result').getAttribute('data-bytes'),
    "the grid's model states are the verdict's",
  );
  assert.equal(
    await grid.getByTestId('mem-activations').getAttribute('data-bytes'),
    await form.getByTestId('decision-1-activations-result').getAttribute('data-bytes'),
  );
  assert.equal(await visibleText(grid.getByTestId('mem-states')), `${FULL.states} GB`);
  assert.equal(await visibleText(grid.getByTestId('mem-activations')), `${FULL.activations} GB`);
  assert.equal(await grid.getByTestId('mem-total').getAttribute('data-fits'), 'true');
  assert.equal(await sameNote.getAttribute('data-same'), 'true', 'the note now says the grid shows this plan');
  assert.ok(await load.isDisabled(), 'nothing left to load');

  // The overflowing plan loads too.
  await checkOne({ recompute: 'selective', ...SELECTIVE });
  assert.equal(await sameNote.getAttribute('data-same'), 'false');
  await load.click();
  assert.equal(await grid.getByTestId('select-zero').inputValue(), '3');
  assert.equal(await grid.getByTestId('select-recompute').inputValue(), 'selective');
  assert.equal(
    await grid.getByTestId('mem-activations').getAttribute('data-bytes'),
    await form.getByTestId('decision-1-activations-result').getAttribute('data-bytes'),
  );
  assert.equal(await visibleText(grid.getByTestId('mem-activations')), `${SELECTIVE.activations} GB`);
  assert.equal(await grid.getByTestId('mem-total').getAttribute('data-fits'), 'false', 'the grid shows it overflowing');

  await noProblems();
});

test('decision 2: TP is the heaviest (75.2 GB over NVLink); the bubble at m = 8 against the threshold', async () => {
  await setLang('zh-CN');
  const form = page.getByTestId('decision-2');
  await form.scrollIntoViewIfNeeded();
  const verdictBox = form.getByTestId('decision-2-verdict');
  const heaviest = verdictBox.getByTestId('decision-2-heaviest-result');
  const answer = verdictBox.getByTestId('decision-2-answer');
  const bubble = verdictBox.getByTestId('decision-2-bubble');

  await form.getByTestId('decision-2-tp').selectOption('8');
  await form.getByTestId('decision-2-pp').selectOption('2');
  await form.getByTestId('decision-2-zero').selectOption('1');
  assert.equal(await form.getByTestId('decision-2-dp').innerText(), '4', 'DP = 64 ÷ (8 × 2)');

  // Right answer, default threshold (empty: 10%): the bubble 12.5% is above it.
  let verdict = await checkTwo({ m: '8', heaviest: 'tp', bytes: '75.2', link: 'nvlink', threshold: '' });
  assert.match(await visibleText(verdict), /TP 8 × PP 2 × DP 4 · ZeRO-1 · m = 8/, 'the plan is named');
  assert.equal(await heaviest.getAttribute('data-dim'), DECISION_2.dim, "the core's heaviest is TP");
  assert.match(await visibleText(heaviest), new RegExp(`TP .*${lit(DECISION_2.bytes)} · ${DECISION_2.link}`));
  assert.match(await visibleText(answer), /TP ✓ · 75\.2 GB ✓ · NVLink ✓$/);
  assert.equal(Number(await bubble.getAttribute('data-ratio')), DECISION_2.bubble);
  assert.match(await visibleText(bubble), /\(p−1\)\/m = 12\.5% .*✗ 超过你定的阈值 10\.0%$/, 'above the default 10%');
  assert.equal(await form.getByTestId('decision-2-memory').getAttribute('data-fits'), 'true');
  assert.equal(await verdict.getAttribute('data-pass'), 'false', 'the bubble is above 10%');
  assert.match(await visibleText(verdict), /✗ 气泡超过了你的阈值/);

  // An acceptable bubble of 100% would pass every plan: the field refuses it, by name.
  verdict = await checkTwo({ threshold: '100' });
  assert.equal(await verdict.getAttribute('data-pass'), 'false', 'a threshold of 100% is refused');
  assert.match(await visibleText(verdict), /必须小于 100%/);

  // A 15% threshold: everything passes.
  verdict = await checkTwo({ threshold: '15' });
  assert.match(await visibleText(bubble), /12\.5% .*✓ 不超过你定的阈值 15\.0%$/, 'below 15%');
  assert.equal(await verdict.getAttribute('data-pass'), 'true', 'TP, 75.2 GB, NVLink, bubble ≤ 15%');
  assert.match(await verdict.getAttribute('class'), /\bpass\b/);
  assert.match(await visibleText(verdict), /✓ 通过/);

  // Naming PP (or DP) as the heaviest fails.
  for (const dim of ['pp', 'dp']) {
    verdict = await checkTwo({ heaviest: dim });
    assert.equal(await verdict.getAttribute('data-pass'), 'false', `${dim} is not the heaviest`);
    assert.match(await visibleText(answer), new RegExp(`${dim.toUpperCase()} ✗ · 75\\.2 GB ✓ · NVLink ✓$`));
  }
  // The wrong link fails.
  verdict = await checkTwo({ heaviest: 'tp', link: 'ib' });
  assert.equal(await verdict.getAttribute('data-pass'), 'false', 'TP runs over NVLink, not IB');
  assert.match(await visibleText(answer), /TP ✓ · 75\.2 GB ✓ · IB ✗$/);
  // The wrong bytes fail.
  verdict = await checkTwo({ link: 'nvlink', bytes: '150.3' });
  assert.equal(await verdict.getAttribute('data-pass'), 'false', '150.3 GB is not the TP traffic here');
  assert.match(await visibleText(answer), /TP ✓ · 150\.3 GB ✗ · NVLink ✓$/);

  // Loaded into the 64-card grid, the grid shows the same traffic and bubble.
  verdict = await checkTwo({ bytes: '75.2' });
  assert.equal(await verdict.getAttribute('data-pass'), 'true');
  await form.getByTestId('decision-2-load').click();
  const grid = page.getByTestId('section-64');
  assert.equal(await form.getByTestId('decision-2-grid').getAttribute('data-same'), 'true');
  assert.equal(
    await grid.getByTestId('traffic-tp').getAttribute('data-bytes'),
    await heaviest.getAttribute('data-bytes'),
    "the grid's TP traffic is the verdict's",
  );
  assert.equal(Number(await grid.getByTestId('bubble').getAttribute('data-ratio')), DECISION_2.bubble);

  await noProblems();
});

test('decision 3: the small model (56.3 MiB) needs no parallelism', async () => {
  await setLang('zh-CN');
  const form = page.getByTestId('decision-3');
  await form.scrollIntoViewIfNeeded();
  const states = form.getByTestId('decision-3-states');
  assert.equal(await visibleText(states), '56.3 MiB');
  assert.equal((Number(await states.getAttribute('data-bytes')) / 2 ** 20).toFixed(1), '56.3', 'data-bytes agrees');

  // No answer yet (only possible before the first click on a radio button).
  let verdict = await checkThree(null);
  assert.equal(await verdict.getAttribute('data-pass'), 'false', 'no answer, no pass');
  assert.match(await visibleText(verdict), /先选一个答案/);
  await setLang('en');
  assert.equal(await visibleText(verdict), 'Pick an answer first.', 'in English too');
  await setLang('zh-CN');

  verdict = await checkThree('no');
  assert.equal(await verdict.getAttribute('data-pass'), 'true', '"no" is right');
  assert.match(await verdict.getAttribute('class'), /\bpass\b/);
  assert.match(await visibleText(verdict), /^✓ .*56\.3 MiB/);

  verdict = await checkThree('yes');
  assert.equal(await verdict.getAttribute('data-pass'), 'false', '"yes" is wrong');
  assert.match(await verdict.getAttribute('class'), /\bfail\b/);
  assert.match(await visibleText(verdict), /^✗ .*56\.3 MiB/);

  await noProblems();
});

test('the TP bench: a column split differs by rounding only, a row split clearly; again with new matrices', async () => {
  await setLang('zh-CN');
  const bench = page.getByTestId('tp-bench');
  await bench.scrollIntoViewIfNeeded();
  const column = bench.getByTestId('tp-bench-column');
  const row = bench.getByTestId('tp-bench-row');

  /** The seed (from the hint) and both differences (data-diff, checked against the text). */
  const read = async () => {
    const seed = (await visibleText(bench)).match(/种子 (\d+)/)?.[1];
    assert.ok(seed, 'the hint names the seed');
    const columnDiff = Number(await column.getAttribute('data-diff'));
    const rowDiff = Number(await row.getAttribute('data-diff'));
    // The text shows them as "4.8e-7" and "2.239".
    const columnText = Number((await visibleText(column)).match(/= (\S+)/)[1]);
    const rowText = Number((await visibleText(row)).match(/= (\S+)/)[1]);
    assert.ok(Math.abs(columnText - columnDiff) <= 0.051 * Math.max(columnDiff, 1e-30), `column text ${columnText} vs ${columnDiff}`);
    assert.ok(Math.abs(rowText - rowDiff) <= 0.0005 + 1e-12, `row text ${rowText} vs ${rowDiff}`);
    return { seed, columnDiff, rowDiff };
  };
  const check = async ({ seed, columnDiff, rowDiff }) => {
    assert.ok(Number.isFinite(columnDiff) && columnDiff < 1e-4, `seed ${seed}: column split ${columnDiff} is rounding level`);
    assert.ok(Number.isFinite(rowDiff) && rowDiff > 1e-3, `seed ${seed}: row split ${rowDiff} is clearly non-zero`);
    assert.match(await visibleText(column), /^✓ .*（舍入级）$/);
    assert.match(await visibleText(row), /^✓ .*（明显不为 0）$/);
    assert.equal(await bench.getByTestId('tp-bench-verdict').getAttribute('data-pass'), 'true', `seed ${seed}: both reproduced`);
  };

  const runs = [await read()];
  await check(runs[0]);
  for (let i = 0; i < 4; i += 1) {
    await bench.getByTestId('tp-bench-rerun').click();
    const run = await read();
    const previous = runs.at(-1);
    assert.notEqual(run.seed, previous.seed, 'run again takes a new seed');
    assert.notDeepEqual([run.columnDiff, run.rowDiff], [previous.columnDiff, previous.rowDiff], 'new matrices, new differences');
    await check(run);
    runs.push(run);
  }

  await noProblems();
});

test('part four in English: no Chinese character after any verdict', async () => {
  await setLang('en');
  const part = page.getByTestId('section-decisions');
  await part.scrollIntoViewIfNeeded();
  const noChinese = async (step) => {
    assert.deepEqual(cjkSpots(await part.innerText()), [], `${step}: Chinese characters in part four`);
  };
  await noChinese('before any check');

  const steps = [
    ['decision 1, accepted', () => checkOne({ zero: '3', tp: '1', recompute: 'full', ...FULL }), true, /✓ Accepted/],
    ['decision 1, overflow', () => checkOne({ recompute: 'selective', ...SELECTIVE }), false, /does not fit/],
    ['decision 1, wrong figure', () => checkOne({ recompute: 'full', states: '50', activations: '2.7' }), false, /more than 5% off/],
    ['decision 1, bad input', () => checkOne({ states: 'abc', activations: '-3' }), false, /not a number.*cannot be negative/],
    ['decision 1, empty', () => checkOne({ states: '', activations: '1e999' }), false, /Empty/],
    ['decision 2, empty selects', () => checkTwo({ tp: '8', pp: '2', zero: '1', m: '8', heaviest: '', bytes: '75.2', link: '', threshold: '' }), false, /Pick the heaviest dimension/],
    ['decision 2, bad fields', () => checkTwo({ m: '8.5', bytes: 'abc', threshold: '0' }), false, /whole number.*not a number.*above 0/],
    ['decision 2, bubble above 10%', () => checkTwo({ m: '8', heaviest: 'tp', bytes: '75.2', link: 'nvlink', threshold: '' }), false, /above your threshold of 10\.0%/],
    ['decision 2, accepted', () => checkTwo({ threshold: '15' }), true, /✓ Accepted/],
    ['decision 2, wrong link', () => checkTwo({ link: 'ib' }), false, /IB ✗/],
    ['decision 2, PP 1', () => checkTwo({ pp: '1', link: 'nvlink' }), null, /no pipeline, so no bubble/],
    ['decision 3, yes', () => checkThree('yes'), false, /✗ It does not/],
    ['decision 3, no', () => checkThree('no'), true, /✓ Right/],
  ];
  for (const [step, run, pass, text] of steps) {
    const verdict = await run();
    if (pass !== null) assert.equal(await verdict.getAttribute('data-pass'), String(pass), `${step}: data-pass`);
    assert.match(await visibleText(verdict), text, `${step}: verdict text`);
    await noChinese(step);
  }
  // The grids' notes after loading, and the bench after a rerun. Move the 8-card grid off
  // decision 1's last plan first, or its load button would be disabled.
  await page.getByTestId('section-8').getByTestId('select-zero').selectOption('0');
  await page.getByTestId('decision-1-load').click();
  await page.getByTestId('decision-2-load').click();
  await page.getByTestId('tp-bench-rerun').click();
  assert.match(await visibleText(page.getByTestId('tp-bench')), /\(rounding level\).*\(clearly non-zero\).*✓ Both conclusions reproduced/);
  await noChinese('after loading both plans and rerunning the bench');

  await settleAndCheck(page, problems, assert);
});
