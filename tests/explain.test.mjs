// Every figure explains itself (issue 13): beside each computed figure of a grid a button
// `explain-<figure>` opens a panel `explanation` whose `data-result` equals the figure's own
// value attribute, whose formula, substituted values and result are `parallel-lab eval
// --explain --card N`'s for the same plan, reached by keyboard (Enter opens, Esc closes and
// gives the focus back) in both languages. The rollout engines' figures too, with rollout on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, labForFile, openPage, settleAndCheck } from './harness.mjs';
import { SLIDERS, START, cli, keyboardTo, rng, selectCard } from './drive.mjs';

const lab = labForFile();

/** The figure's own value attribute on the page, for an explained figure id. */
async function figureValue(section, id) {
  const attr = async (testId, name) => Number(await section.getByTestId(testId).getAttribute(name));
  if (id.startsWith('traffic-') && id.endsWith('-time')) return null; // compared with the CLI
  if (id.startsWith('traffic-')) return attr(id, 'data-bytes');
  switch (id) {
    case 'mem-states': case 'mem-activations': case 'mem-runtime': case 'mem-total': return attr(id, 'data-bytes');
    case 'rollout-weights': case 'rollout-kv': case 'rollout-total': case 'rollout-peak': return attr(id, 'data-bytes');
    case 'bubble': return attr(id, 'data-ratio');
    case 'bubble-share': return attr(id, 'data-share');
    case 'estimate-step': return attr(id, 'data-seconds');
    case 'estimate-compute': return attr('estimate-split', 'data-compute');
    case 'estimate-tokens': return attr('estimate-throughput', 'data-tokens-per-step');
    case 'estimate-throughput': return attr('estimate-throughput', 'data-tokens-per-s');
    case 'derived-dp': return Number((await section.getByTestId('derived-dp').innerText()).trim());
    case 'estimate-latency': return attr(id, 'data-seconds');
    case 'estimate-roofline': case 'estimate-mfu': return attr(id, 'data-value');
    // On a card with measured kernel tables (SPEC §18).
    case 'estimate-gemm': case 'estimate-attention': case 'estimate-memory-bound': case 'estimate-optimizer':
      return attr(id, 'data-value');
    case 'estimate-tp': case 'estimate-cp': case 'estimate-ep': case 'estimate-pp': case 'estimate-dp': case 'estimate-edp':
      return attr(id, 'data-seconds');
    default: throw new Error(`no value attribute known for ${id}`);
  }
}

/**
 * The open panel is on screen as a person sees it: its rectangle inside the viewport, and the
 * points near its four corners and its centre are the panel's own (no wrapper clips it, nothing
 * covers it).
 */
async function assertOnScreen(page, panel, what) {
  // The panel follows its button from the frame after the page moves (sections drawn late
  // shift the page while it settles): wait, a frame at a time, for it to be inside the
  // viewport, for at most two seconds of frames, then assert what is there.
  await panel.evaluate((el) => new Promise((resolve) => {
    let frames = 120;
    const check = () => {
      const r = el.getBoundingClientRect();
      const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
      if (inside || --frames === 0) resolve();
      else requestAnimationFrame(check);
    };
    check();
  }));
  const box = await panel.boundingBox();
  const { width, height } = page.viewportSize();
  assert.ok(box, `${what}: the panel has a box`);
  assert.ok(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height,
    `${what}: panel ${JSON.stringify(box)} inside the ${width} × ${height} viewport`,
  );
  const hits = await panel.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inset = 4;
    return [
      [r.left + inset, r.top + inset], [r.right - inset, r.top + inset],
      [r.left + inset, r.bottom - inset], [r.right - inset, r.bottom - inset],
      [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
    ].map(([x, y]) => el.contains(document.elementFromPoint(x, y)));
  });
  assert.deepEqual(hits, [true, true, true, true, true], `${what}: every corner of the panel is visible`);
}

/** Opens every explanation of the section (by keyboard), checks it, closes it with Esc. */
async function checkAll(section, config, card) {
  const want = cli(['eval', '--explain', '--card', String(card)], config).ok;
  const byId = Object.fromEntries(want.explain.map((e) => [e.figure, e]));
  const buttons = section.locator('button[data-testid^="explain-"]');
  const ids = await buttons.evaluateAll((all) => all.map((b) => b.dataset.testid.slice('explain-'.length)));
  assert.deepEqual([...ids].sort(), Object.keys(byId).sort(), 'a button for every figure the CLI explains');
  for (const id of ids) {
    const button = section.getByTestId(`explain-${id}`);
    await button.focus();
    await button.press('Enter');
    const panel = section.getByTestId('explanation');
    // The panel's code is fetched the first time one opens (a split module): wait for it.
    await panel.waitFor({ state: 'visible' });
    assert.equal(await panel.count(), 1, id);
    await assertOnScreen(section.page(), panel, id);
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    const result = Number(await panel.getAttribute('data-result'));
    const own = await figureValue(section, id);
    if (own !== null) assert.equal(result, own, `${id}: panel ${result}, figure ${own}`);
    const e = byId[id];
    assert.equal(result, e.result, `${id}: the CLI's result`);
    assert.equal((await panel.getByTestId('explanation-formula').innerText()).trim(), e.formula, id);
    assert.equal((await panel.getByTestId('explanation-substituted').innerText()).trim(), e.substituted, id);
    assert.equal((await panel.getByTestId('explanation-shown').innerText()).trim(), e.shown, id);
    await panel.press('Escape');
    assert.equal(await section.getByTestId('explanation').count(), 0, `${id}: Esc closes`);
    assert.equal(await button.evaluate((b) => document.activeElement === b), true, `${id}: focus back on the button`);
  }
  return { opened: ids.length, explained: want.explain.length };
}

test('every figure of both grids opens its explanation, equal to the figure and to the CLI', async () => {
  const seed = Number(process.env.SEED ?? Date.now() % 1e9);
  console.log(`explanations: SEED=${seed}`);
  const { pick } = rng(seed);
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'rl.html' });
  // Every figure the CLI explains, at each plan checked: three plans per grid (the start and
  // two reached by keys), so the count is exact.
  let opened = 0;
  let explained = 0;
  let plans = 0;
  const check = async (section, config, card) => {
    const counts = await checkAll(section, config, card);
    opened += counts.opened;
    explained += counts.explained;
    plans += 1;
  };
  for (const [grid, base] of [['8', START[8]], ['64', START[64]]]) {
    const section = page.getByTestId(`section-${grid}`);
    await section.getByTestId(`grid-${grid}`).getByTestId('card-1').click();
    await check(section, base, 1);
    // Two plans reached by the sliders' keys, each with a random card: drawn until the CLI
    // takes one, so that both rounds check a plan. Both with rollout engines (SPEC §15), so
    // their four figures explain themselves too.
    await section.getByTestId('toggle-rollout').check();
    let config = { ...base, rollout: {} };
    for (let round = 0; round < 2; round++) {
      let next;
      for (let draw = 0; draw < 100 && !next; draw++) {
        const candidate = { ...config, tp: pick([1, 2, 4, 8]), pp: pick([1, 2, 4]), micro_batches: pick([4, 8, 16]) };
        if (cli(['eval'], candidate).ok) next = candidate;
      }
      assert.ok(next, `SEED=${seed}: no valid plan drawn on grid ${grid}`);
      await keyboardTo(section, SLIDERS.find((s) => s.field === 'tp'), next.tp);
      await keyboardTo(section, SLIDERS.find((s) => s.field === 'pp'), next.pp);
      await keyboardTo(section, SLIDERS.find((s) => s.field === 'micro_batches'), next.micro_batches);
      config = next;
      const card = pick([0, 3, Number(grid) - 1]);
      await selectCard(section, grid, card);
      await check(section, config, card);
    }
  }
  assert.equal(plans, 6, 'three plans per grid');
  assert.equal(opened, explained, `${opened} panels opened, ${explained} figures the CLI explains`);
  // In English the panel's words are English.
  await page.getByTestId('lang-toggle').click();
  const section = page.getByTestId('section-8');
  await section.getByTestId('explain-mem-states').click();
  const text = await section.getByTestId('explanation').innerText();
  assert.ok(!/[\u4e00-\u9fff]/.test(text), text);
  assert.match(text, /Formula/);
  await section.getByTestId('explain-mem-states').click();
  assert.equal(await section.getByTestId('explanation').count(), 0, 'a second click closes');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

/** Opens the `?` of `id` by a tap or click, as a person does, and checks the panel beside it. */
async function openBeside(page, section, id) {
  const button = section.getByTestId(`explain-${id}`).first();
  await button.scrollIntoViewIfNeeded();
  await button.click();
  const panel = section.getByTestId('explanation');
  await assertOnScreen(page, panel, id);
  // Beside its button: the panel's nearest edge is within a few pixels of the button.
  const [b, p] = [await button.boundingBox(), await panel.boundingBox()];
  const gap = Math.max(p.y - (b.y + b.height), b.y - (p.y + p.height), 0);
  assert.ok(gap <= 16, `${id}: ${gap} px between the button and its panel`);
  return { button, panel };
}

test('help opens beside its button inside the viewport, on a phone and in the traffic table', async () => {
  for (const [name, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const { page, context, problems } = await openPage(lab, options);
    for (const lang of ['zh', 'en']) {
      if (lang === 'en') await page.getByTestId('lang-toggle').click();
      for (const grid of ['8', '64']) {
        const section = page.getByTestId(`section-${grid}`);
        // "Model states", then every row's figure of the traffic table (inside its scrolling
        // wrapper), each closed a different way: the close button, Esc, a second tap.
        const ids = await section
          .locator('button[data-testid^="explain-"]')
          .evaluateAll((all) => all.map((b) => b.dataset.testid.slice('explain-'.length)));
        const traffic = ids.filter((id) => id.startsWith('traffic-'));
        assert.ok(traffic.length > 0, `${name}: the traffic table has its explanations`);
        for (const [i, id] of ['mem-states', ...traffic].entries()) {
          const { button, panel } = await openBeside(page, section, id);
          const how = i % 3;
          if (how === 0) await panel.locator('button[data-close]').click();
          else if (how === 1) await panel.press('Escape');
          else await button.click();
          assert.equal(await section.getByTestId('explanation').count(), 0, `${name} ${lang} ${id}: closed (${how})`);
        }
      }
    }
    await settleAndCheck(page, problems, assert);
    await context.close();
  }
});
