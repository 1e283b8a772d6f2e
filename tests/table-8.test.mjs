// Part one's comparison table against the reference values of SPEC §9 (8 GPUs, the anchor
// model, s = 4096, b = 1, m = 8, bf16 gradients), compared as the student reads them: the
// visible text of each cell. A row's button loads its plan into the grid above, whose figures
// must then say the same.

import assert from 'node:assert/strict';
import { labForFile, pageTest, visibleText } from './harness.mjs';

// SPEC §9. `comm`: every dimension that sends, with its bytes per card per step.
const SPEC_9 = {
  'dp8-zero3-full': { states: '55.6 GB', activations: '2.7 GB', total: '58.2 GB ✓', comm: { DP: '145.9 GB' }, bubble: '—' },
  'dp8-zero3-selective': { states: '55.6 GB', activations: '45.6 GB', total: '101.2 GB ✗', comm: { DP: '145.9 GB' }, bubble: '—' },
  'tp8-selective': { states: '55.6 GB', activations: '5.7 GB', total: '61.3 GB ✓', comm: { TP: '150.3 GB' }, bubble: '—' },
  'tp2-pp4-full': { states: '55.6 GB', activations: '1.3 GB', total: '56.9 GB ✓', comm: { TP: '21.5 GB', PP: '0.7 GB' }, bubble: '37.5%' },
};

/** "TP 21.5 GB (NVLink) · PP 0.7 GB (NVLink)" → { TP: '21.5 GB', PP: '0.7 GB' }. */
function parseComm(text) {
  const comm = {};
  for (const [, dim, bytes] of text.matchAll(/\b(TP|CP|EP|PP|DP|EDP) ([\d.]+ [kMGT]?B)\b/g)) comm[dim] = bytes;
  return comm;
}

const lab = labForFile();

pageTest('the 8-GPU table shows the reference values of SPEC §9', lab, async ({ page }) => {
  const table = page.getByTestId('table-8');
  await table.scrollIntoViewIfNeeded();
  assert.ok(await table.isVisible(), 'table-8 is visible');
  assert.equal(await table.locator('tbody tr').count(), Object.keys(SPEC_9).length, 'one row per plan');

  for (const [id, want] of Object.entries(SPEC_9)) {
    const cell = (column) => table.getByTestId(`${id}-${column}`);
    const got = {
      states: await visibleText(cell('states')),
      activations: await visibleText(cell('activations')),
      total: await visibleText(cell('total')),
      comm: parseComm(await visibleText(cell('comm'))),
      bubble: await visibleText(cell('bubble')),
    };
    assert.deepEqual(got, want, `row ${id}`);
  }
});

pageTest("a table row's button loads its plan into the 8-GPU grid, whose figures agree", lab, async ({ page }) => {
  const section = page.getByTestId('section-8');
  const table = section.getByTestId('table-8');
  for (const id of ['tp2-pp4-full', 'dp8-zero3-selective', 'dp8-zero3-full']) {
    await table.getByTestId(`row-${id}`).getByRole('button').click();
    const want = SPEC_9[id];
    const total = want.total.replace(/ [✓✗]$/, '');
    assert.equal(await visibleText(section.getByTestId('mem-states')), want.states, `${id}: states`);
    assert.equal(await visibleText(section.getByTestId('mem-activations')), want.activations, `${id}: activations`);
    assert.match(await visibleText(section.getByTestId('mem-total')), new RegExp(`^${total.replace('.', '\\.')} /`), `${id}: total`);
    assert.equal(await section.getByTestId('mem-total').getAttribute('data-fits'), String(want.total.endsWith('✓')), `${id}: fits`);
    const bubble = await visibleText(section.getByTestId('bubble'));
    assert.equal(bubble, want.bubble, `${id}: bubble`);
    for (const [dim, bytes] of Object.entries(want.comm)) {
      const row = section.getByTestId(`traffic-${dim.toLowerCase()}`);
      assert.match(await visibleText(row), new RegExp(`\\b${bytes.replace('.', '\\.')}\\b`), `${id}: ${dim} traffic`);
      assert.equal(await row.getAttribute('data-link'), 'nvlink', `${id}: ${dim} stays inside the machine`);
    }
  }
});
