// The plan search on the page (issue 12): typed into as a student types, it runs on its own
// when the inputs settle; its counts, its rows (in order) and every row's figures are the
// CLI's `search` and `eval` of the same plans; the sort buttons sort; a row's `load` puts its
// plan into the grid of its size, whose figures then equal `eval --card`; a model that fits
// nowhere says so, with its nearest misses greyed; a bad field is named and stops nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, pageTest, scrollToElement, settleAndCheck, visibleText } from './harness.mjs';
import { cli, coreDefaults, differences, expected, gb, rng, shown, thousands } from './drive.mjs';

const lab = labForFile();

const FIELDS = {
  gpus: 'search-gpus', gpus_per_node: 'search-gpn', seq_len: 'search-seq', global_batch: 'search-batch',
  gpu_memory_gb: 'search-memory', nvlink_gbps: 'search-nvlink', ib_gbps: 'search-ib', gpu_tflops: 'search-tflops',
};
// The panel's starting inputs: 64 cards and 256 sequences a step (the panel's own) on the H100
// SXM (its DEFAULT_CARD), the rest the core's defaults (web/src/pages/plan/search/form.rs
// `defaults`); the card's numbers are the CLI's preset.
const core = coreDefaults().config;
const h100 = cli(['defaults']).ok.hardware.find((h) => h.id === 'h100-sxm').config;
const DEFAULTS = {
  model: core.model, gpus: 64, gpus_per_node: core.gpus_per_node, seq_len: core.seq_len, global_batch: 256,
  hardware: 'h100-sxm', gpu_memory_gb: h100.gpu_memory_gb, nvlink_gbps: h100.nvlink_gbps, ib_gbps: h100.ib_gbps,
  gpu_tflops: h100.gpu_tflops,
};

/** Types `value` into a search field as a person does: select all, type, and move on. */
async function typeInto(panel, id, value) {
  const input = panel.getByTestId(id);
  await input.click();
  await input.press('Control+A');
  await input.pressSequentially(String(value));
}

/** Waits until the panel's status says done for a search started after `before`. */
async function settled(panel) {
  const status = panel.getByTestId('search-status');
  await status.and(panel.page().locator('[data-done="true"]')).waitFor();
  return (await visibleText(status)).trim();
}

/** The planner's search panel, brought into view, once the search it starts on its own is done. */
async function searchPanel(page) {
  const panel = page.getByTestId('search-panel');
  await scrollToElement(panel);
  await settled(panel);
  return panel;
}

/** Picks `to`'s model and types each of its fields that differs from `from`; returns `to`. */
async function enter(panel, from, to) {
  await panel.getByTestId('search-model').selectOption(to.model);
  for (const [field, id] of Object.entries(FIELDS)) {
    if (to[field] !== from[field]) await typeInto(panel, id, to[field]);
  }
  return to;
}

/** Records on `names` the file name of every wasm `page` requests. */
function wasmNames(page, names) {
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) names.push(new URL(request.url()).pathname.split('/').pop());
  });
}

/** Compares the panel's outcome with `parallel-lab search` on the same base config. */
async function checkAgainstCli(panel, base, why) {
  const status = await settled(panel);
  const want = cli(['search', '--top', '20'], base).ok;
  for (const n of [want.considered, want.valid]) assert.ok(status.includes(thousands(n)), `${why}: status "${status}" lacks ${n}`);
  const rows = await panel.locator('tr[data-testid="search-row"]').evaluateAll((trs) =>
    trs.map((tr) => ({ step: Number(tr.dataset.stepS), bytes: Number(tr.dataset.bytes), config: JSON.parse(tr.dataset.config), cells: [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()) })));
  assert.equal(rows.length, want.plans.length, `${why}: rows`);
  if (want.fitting > 0) assert.ok(status.includes(thousands(want.fitting)), `${why}: fitting in "${status}"`);
  for (const [i, row] of rows.entries()) {
    const plan = want.plans[i];
    assert.deepEqual(row.config, plan.config, `${why}: row ${i + 1}'s plan`);
    assert.equal(row.step, plan.report.estimate.step_s, `${why}: row ${i + 1} step`);
    assert.equal(row.bytes, plan.report.memory.total, `${why}: row ${i + 1} memory`);
    // And `eval` of the row's plan gives the same figures (the search prints evaluations).
    const again = cli(['eval'], row.config).ok;
    assert.equal(again.estimate.step_s, row.step);
    assert.ok(row.cells.includes(gb(plan.report.memory.total)), `${why}: row ${i + 1} memory cell`);
    assert.equal(row.cells[0], String(i + 1));
  }
  // Plans under 80% of the card first (Fujii et al. 2024); on the first plan's side, the plans
  // within 2% of its quickest (the CLI's `quickest`, else the first) are a tie and come first,
  // no CP first, then fewer of TP/CP/PP/EP above 1, then smaller PP, then by step; the rest by step.
  const tight = want.plans.map((p) => p.report.memory.tight);
  assert.deepEqual(tight, [...tight].sort((a, b) => a - b), `${why}: tight plans last`);
  const side = want.plans.filter((p) => p.report.memory.tight === tight[0]);
  const quickest = (want.quickest ?? want.plans[0])?.report.estimate.step_s;
  const inBand = (p) => p.report.estimate.step_s <= quickest * 1.02;
  const band = side.filter(inBand);
  assert.ok(side.slice(0, band.length).every(inBand), `${why}: the tie comes first`);
  const practice = (c) => [c.cp > 1 ? 1 : 0, [c.tp, c.cp, c.pp, c.ep].filter((d) => d > 1).length, c.pp];
  const key = (p) => [...practice(p.config), p.report.estimate.step_s];
  const before = (a, b) => { for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i]; return true; };
  for (let i = 1; i < band.length; i++) assert.ok(before(key(band[i - 1]), key(band[i])), `${why}: the tie in a practitioner's order`);
  const steps = side.slice(band.length).map((p) => p.report.estimate.step_s);
  assert.deepEqual(steps, [...steps].sort((a, b) => a - b), `${why}: after the tie, by step`);
  // Why the first plan ranks first: one sentence a reason, the CLI's reasons in its order.
  const reasons = await panel.getByTestId('search-why').locator('li').evaluateAll((lis) =>
    lis.map((li) => ({ id: li.dataset.reason, text: li.textContent.trim() })));
  assert.deepEqual(reasons.map((r) => r.id), (want.why_first ?? []).map((w) => w.reason.id), `${why}: the reasons`);
  assert.ok(reasons.every((r) => r.text.length > 0 && !/[{}]/.test(r.text)), `${why}: every reason filled`);
  if (want.fitting > 0) {
    const margin = want.comfortable === 0 ? /80%/ : new RegExp(thousands(want.comfortable));
    assert.match(status, margin, `${why}: the status says how many plans stay under 80%`);
  }
  return { want, rows, status };
}

pageTest('the search panel equals parallel-lab search, sorts, and loads a plan into the 64-card grid', lab, { entry: 'plan.html' }, async ({ page }) => {
  const panel = page.getByTestId('search-panel');
  // Far below the first screen, nothing has been searched yet.
  assert.equal(await panel.getByTestId('search-status').getAttribute('data-done'), 'false');
  assert.equal(await panel.locator('tr[data-testid="search-row"]').count(), 0);
  await scrollToElement(panel);
  // Brought into view, it runs on its own with the starting inputs.
  await checkAgainstCli(panel, DEFAULTS, 'defaults');

  // The sort buttons: memory ascending, then descending; throughput descending first.
  const column = async (attr) => panel.locator('tr[data-testid="search-row"]').evaluateAll((trs, a) => trs.map((tr) => Number(tr.dataset[a])), attr);
  await panel.getByTestId('sort-memory').click();
  let bytes = await column('bytes');
  assert.deepEqual(bytes, [...bytes].sort((a, b) => a - b));
  assert.equal(await panel.getByTestId('sort-memory').locator('xpath=..').getAttribute('aria-sort'), 'ascending');
  await panel.getByTestId('sort-memory').press('Enter');
  bytes = await column('bytes');
  assert.deepEqual(bytes, [...bytes].sort((a, b) => b - a));
  await panel.getByTestId('sort-throughput').click();
  const tokens = await column('tokensPerS');
  assert.deepEqual(tokens, [...tokens].sort((a, b) => b - a));
  await panel.getByTestId('sort-step').click();
  const steps = await column('stepS');
  assert.deepEqual(steps, [...steps].sort((a, b) => a - b));

  // Load the quickest plan the 64-card grid's controls reach (its sliders: TP, PP, CP up to
  // 8, m up to 64, b = 1; its schedule select: interleaved with v = 2) into it; the rows above
  // it are exactly those the controls cannot reach, their load buttons disabled.
  const rows = panel.locator('tr[data-testid="search-row"]');
  const reachable = (c) => c.tp <= 8 && c.pp <= 8 && c.cp <= 8 && c.micro_batches <= 64
    && c.micro_batch_size === 1 && c.virtual_stages <= 2;
  let row = null;
  for (let i = 0; i < await rows.count(); i++) {
    const candidate = rows.nth(i);
    const plan = JSON.parse(await candidate.getAttribute('data-config'));
    const disabled = await candidate.getByTestId('load').isDisabled();
    assert.equal(disabled, !reachable(plan), `row ${i + 1}: load ${disabled ? 'disabled' : 'enabled'} for ${JSON.stringify(plan)}`);
    if (!disabled) {
      row = candidate;
      break;
    }
  }
  assert.ok(row, 'a plan of the search loads into the grid');
  const config = JSON.parse(await row.getAttribute('data-config'));
  await row.getByTestId('load').click();
  const section = page.getByTestId('section-64');
  // The page brings the grid to the top of the viewport.
  await page.waitForFunction(() => Math.abs(document.querySelector('[data-testid="section-64"]').getBoundingClientRect().top) < 2, null);
  await section.getByTestId('grid-64').getByTestId('card-9').click();
  assert.deepEqual(differences(await shown(section), expected(config, 9)), []);
  assert.equal(await section.getByTestId('slider-tp').getAttribute('aria-valuetext'), String(config.tp));
  assert.equal(await section.getByTestId('slider-pp').getAttribute('aria-valuetext'), String(config.pp));
});

pageTest('typed inputs search on their own once they settle; every result is the CLI\'s (random bases)', lab, { entry: 'plan.html' }, async ({ page }) => {
  const seed = Number(process.env.SEED ?? Date.now() % 1e9);
  console.log(`search bases: SEED=${seed}`);
  const { pick } = rng(seed);
  const panel = await searchPanel(page);
  let base = { ...DEFAULTS };
  for (let round = 0; round < Number(process.env.SEARCHES ?? 4); round++) {
    const next = {
      ...base,
      model: pick(['qwen3.8-27b', 'llama3-8b', 'llama3-70b', 'mixtral-8x7b', 'qwen3-30b-a3b']),
      gpus: pick([8, 16, 32, 64, 128]),
      seq_len: pick([2048, 4096, 8192]),
      global_batch: pick([32, 64, 128, 512]),
      gpu_memory_gb: pick([40, 80, 94.5, 141]),
      // Effective rates the H100 can have: the core refuses one whose fastest measured kernel
      // would pass the card's 989 TFLOP/s peak (crates/parallel-core/src/bounds.rs, issue 50).
      gpu_tflops: pick([312, 400, 700]),
    };
    base = await enter(panel, base, next);
    // No click: the search runs once the inputs rest.
    await checkAgainstCli(panel, base, `round ${round} ${JSON.stringify(base)}`);
  }
});

pageTest('a model that fits nowhere says so; a bad field is named; the 8-card grid takes an 8-card plan', lab, { entry: 'plan.html' }, async ({ page }) => {
  const panel = await searchPanel(page);
  const base = await enter(panel, DEFAULTS, { ...DEFAULTS, model: 'llama3-405b', gpus: 8, global_batch: 64, gpu_memory_gb: 40 });
  const { want, status } = await checkAgainstCli(panel, base, 'fits nowhere');
  assert.equal(want.fitting, 0);
  assert.match(status, /放不下/);
  const misses = panel.locator('tr[data-testid="search-miss"]');
  assert.ok((await misses.count()) > 0, 'the nearest misses are shown');
  const over = Number(await misses.first().getByTestId('search-overflow').getAttribute('data-bytes'));
  const missConfig = JSON.parse(await misses.first().getAttribute('data-config'));
  const missReport = cli(['eval'], missConfig).ok;
  assert.equal(over, missReport.memory.total - missReport.memory.capacity);
  assert.ok(over > 0);

  // A field that does not read: named under it, and the search waits.
  await typeInto(panel, 'search-gpus', 'abc');
  const error = panel.locator('label[for="search-gpus"] .field-error');
  assert.match(await error.innerText(), /不是一个数/);
  // Back to 8 cards of the anchor: the 8-card grid takes the first loadable plan.
  await panel.getByTestId('search-model').selectOption(core.model);
  await typeInto(panel, 'search-gpus', 8);
  await typeInto(panel, 'search-memory', core.gpu_memory_gb);
  await checkAgainstCli(panel, { ...base, model: core.model, gpu_memory_gb: core.gpu_memory_gb }, '8 cards');
  const row = panel.locator('tr[data-testid="search-row"]').filter({ has: page.locator('button[data-testid="load"]:not([disabled])') }).first();
  const config = JSON.parse(await row.getAttribute('data-config'));
  await row.getByTestId('load').click();
  const section = page.getByTestId('section-8');
  await section.getByTestId('grid-8').getByTestId('card-3').click();
  assert.deepEqual(differences(await shown(section), expected(config, 3)), []);
  await page.getByTestId('lang-toggle').click();
  const english = await visibleText(panel.getByTestId('search-status'));
  assert.ok(!/[\u4e00-\u9fff]/.test(english), english);
});

pageTest('Llama 3 405B on 16,384 cards searches in the planner\'s Web Worker and gives the CLI\'s result', lab, { entry: 'plan.html' }, async ({ page }) => {
  // What the search loads: the worker's own wasm, beside the planner's.
  const wasm = [];
  wasmNames(page, wasm);
  const panel = await searchPanel(page);
  const base = await enter(panel, DEFAULTS, { ...DEFAULTS, model: 'llama3-405b', gpus: 16384, seq_len: 8192, global_batch: 2048 });
  const { want } = await checkAgainstCli(panel, base, 'Llama 3 405B on 16,384 H100');
  assert.ok(want.considered > 10_000, `a large search: ${want.considered} plans`);
  assert.ok(wasm.some((name) => name.startsWith('parallel-search')), `the worker's wasm was loaded: ${wasm.join(', ')}`);
  // How long the page's thread is held meanwhile is measured, not tested: tests/bench.mjs.
});

test('a worker that answers with no search (a stale or broken copy): the page searches on its own thread, with the CLI\'s result', async () => {
  // The worker's script replaced by one that says it is ready, then that it could not search:
  // what a copy of another build, or one that cannot read the page's plan, answers.
  const FAKE = `postMessage({ kind: 'ready' }); onmessage = () => postMessage({ kind: 'failed' });`;
  const wasm = [];
  const { page, context, problems } = await openPage(lab, undefined, {
    entry: 'plan.html',
    setup: async (page, context) => {
      await context.route('**/parallel-search_loader.js', (route) => route.fulfill({ contentType: 'text/javascript', body: FAKE }));
      wasmNames(page, wasm);
    },
  });
  const panel = await searchPanel(page);
  await typeInto(panel, 'search-gpus', 512);
  await checkAgainstCli(panel, { ...DEFAULTS, gpus: 512 }, 'searched on the page after the worker failed');
  assert.ok(!wasm.some((name) => name.startsWith('parallel-search')), `no worker wasm was loaded: ${wasm.join(', ')}`);
  await settleAndCheck(page, problems, assert);
  await context.close();
});
