// The estimate's kernel terms (issue 35, SPEC §18): a student picks each card on the 64-card
// grid's card picker by keys; on a card with measured kernel tables the estimate splits compute
// into GEMMs, attention and memory-bound kernels, adds the optimizer step, calls the roofline
// the kernel slowdown and says which tables it reads (the H200's own or borrowed), every term
// equal to `parallel-lab eval --card` on the same plan, and each one's "why?" panel equal to
// `eval --explain`; on the lesson's card none of it is there and the estimate reads exactly as
// before the student moved.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasCjk, labForFile, openPage, scrollToElement, settleAndCheck, visibleText } from './harness.mjs';
import {
  SELECTS, START, cardFields, choose, cli, coreDefaults, differences, expected, fullConfig, secondsText,
  shown,
} from './drive.mjs';

const lab = labForFile();

const KERNEL_FIGURES = ['estimate-gemm', 'estimate-attention', 'estimate-memory-bound', 'estimate-optimizer'];
const CARD = 9;

/** The grid's plan with card preset `id`. */
const planOn = (id) => {
  const preset = coreDefaults().hardware.find((h) => h.id === id).config;
  return fullConfig({ ...START[64], ...cardFields(preset) });
};

/** The estimate's kernel parts on the page: which test ids are there, and the texts. */
async function kernelParts(section) {
  return section.getByTestId('estimate').evaluate((figure, ids) => ({
    present: ids.filter((id) => figure.querySelector(`[data-testid="${id}"]`)),
    buttons: ids.filter((id) => figure.querySelector(`[data-testid="explain-${id}"]`)),
    line: figure.querySelector('[data-testid="estimate-kernels"]')?.innerText.trim() ?? null,
    extra: figure.querySelector('[data-testid="estimate-latency"]').innerText.trim(),
    assumptions: figure.querySelector('[data-testid="estimate-assumptions"]').textContent.trim(),
  }), [...KERNEL_FIGURES, 'estimate-kernels']);
}

/** Checks the grid against `eval --card` on card `id`'s plan, and the kernel parts' words. */
async function checkCard(section, id, lang) {
  const config = planOn(id);
  const want = expected(config, CARD);
  // Read as a student reads it: on screen (a section far away is not rendered).
  await scrollToElement(section.getByTestId('estimate'));
  assert.deepEqual(differences(await shown(section), want), [], `${id}: every figure is the CLI's`);
  const kernels = want.report.estimate.kernels;
  const parts = await kernelParts(section);
  if (!kernels) {
    assert.deepEqual(parts.present, [], `${id}: no kernel terms on a card without tables`);
    assert.deepEqual(parts.buttons, [], `${id}: no kernel buttons`);
    assert.match(parts.extra, lang === 'zh' ? /屋顶线 ×/ : /roofline ×/);
    return { config, kernels };
  }
  assert.deepEqual(parts.present, [...KERNEL_FIGURES, 'estimate-kernels'], id);
  assert.deepEqual(parts.buttons, KERNEL_FIGURES, `${id}: a "why?" for each kernel term`);
  const values = await section.getByTestId('estimate').evaluate((figure, ids) =>
    ids.map((i) => Number(figure.querySelector(`[data-testid="${i}"]`).dataset.value)), KERNEL_FIGURES);
  assert.deepEqual(values, [kernels.gemm_s, kernels.attention_s, kernels.memory_bound_s, kernels.optimizer_s], id);
  for (const key of ['gemm_s', 'attention_s', 'memory_bound_s', 'optimizer_s']) {
    assert.ok(parts.line.includes(secondsText(kernels[key])), `${id}: "${parts.line}" lacks ${key}`);
  }
  assert.match(parts.extra, lang === 'zh' ? /内核放慢 ×/ : /kernel slowdown ×/, id);
  // The assumptions describe the tables the card reads: the H200's own, or borrowed.
  const rule = lang === 'zh' ? (kernels.borrowed ? /借用 H200/ : /H200 的实测表/) : (kernels.borrowed ? /borrow/ : /as they are/);
  assert.match(parts.assumptions, rule, `${id}: ${parts.assumptions}`);
  assert.doesNotMatch(parts.assumptions, /R\/T_l/, id);
  return { config, kernels };
}

/** Opens each kernel term's panel by keyboard and compares it with `eval --explain`. */
async function checkExplanations(section, config) {
  const byId = Object.fromEntries(cli(['eval', '--explain', '--card', String(CARD)], config).ok.explain.map((e) => [e.figure, e]));
  for (const id of [...KERNEL_FIGURES, 'estimate-roofline']) {
    const button = section.getByTestId(`explain-${id}`);
    await button.focus();
    await button.press('Enter');
    const panel = section.getByTestId('explanation');
    const result = Number(await panel.getAttribute('data-result'));
    assert.equal(result, Number(await section.getByTestId(id).getAttribute('data-value')), `${id}: panel and figure`);
    const e = byId[id];
    assert.ok(e, `${id}: the CLI explains it`);
    assert.equal(result, e.result, `${id}: the CLI's result`);
    assert.equal((await panel.getByTestId('explanation-formula').innerText()).trim(), e.formula, id);
    assert.equal((await panel.getByTestId('explanation-substituted').innerText()).trim(), e.substituted, id);
    assert.equal((await panel.getByTestId('explanation-shown').innerText()).trim(), e.shown, id);
    assert.ok((await panel.innerText()).includes(e.source), `${id}: its source`);
    await panel.press('Escape');
    assert.equal(await section.getByTestId('explanation').count(), 0, `${id}: Esc closes`);
  }
}

test('each card picked by keys: kernel terms exactly on the cards with tables, equal to the CLI and explained', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const section = page.getByTestId('section-64');
  await section.getByTestId('grid-64').getByTestId(`card-${CARD}`).click();
  const hardware = SELECTS.find((s) => s.field === 'hardware');
  const ids = Object.keys(hardware.options);
  assert.equal(ids[0], 'lesson', 'the picker starts on the lesson\'s card');
  // The lesson's estimate as it reads before any move.
  const lessonText = await visibleText(section.getByTestId('estimate'));
  const lessonAssumptions = (await kernelParts(section)).assumptions;
  await checkCard(section, 'lesson', 'zh');
  assert.match(lessonAssumptions, /max\(1, R\/T_l\)/);

  // Down the picker by keys to the last card: every card passed through is checked.
  const seen = [];
  const visit = async (id) => {
    seen.push(id);
    const { config, kernels } = await checkCard(section, id, 'zh');
    if (kernels && (id === 'h200' || id === 'b200')) {
      await checkExplanations(section, config);
      // Back to the picker, where the student's keys go on.
      await section.getByTestId(hardware.testId).focus();
    }
  };
  await choose(section, hardware, ids.at(-1), 'keys', visit);
  assert.deepEqual(seen, ids.slice(1), 'every card was visited');
  const borrowed = Object.fromEntries(ids.slice(1).map((id) => [id, cli(['eval'], planOn(id)).ok.estimate.kernels?.borrowed]));
  assert.ok(Object.values(borrowed).includes(true) && Object.values(borrowed).includes(false), JSON.stringify(borrowed));

  // In English on the H200: the same figures, English words.
  await choose(section, hardware, 'h200', 'keys');
  await page.getByTestId('lang-toggle').click();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await checkCard(section, 'h200', 'en');
  const english = await visibleText(section.getByTestId('estimate'));
  assert.equal(hasCjk(english), false, english);
  assert.match(english, /of which GEMMs .* attention .* memory-bound .*; optimizer /);
  assert.match(english, /GEMMs' time/);
  await section.getByTestId('estimate').locator('details.assumptions summary').click();
  assert.match(await visibleText(section.getByTestId('estimate-assumptions')), /measured on one H200/);

  // Back to the lesson's card by keys: the kernel terms go, and the estimate reads as it did.
  await page.getByTestId('lang-toggle').click();
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await choose(section, hardware, 'lesson', 'keys');
  await checkCard(section, 'lesson', 'zh');
  await section.getByTestId('estimate').locator('details.assumptions summary').click();
  assert.equal(await visibleText(section.getByTestId('estimate')), lessonText, 'the lesson\'s estimate reads as before');
  assert.equal((await kernelParts(section)).assumptions, lessonAssumptions);
  await settleAndCheck(page, problems, assert);
  await context.close();
});
