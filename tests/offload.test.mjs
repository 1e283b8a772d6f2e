// The optimizer on the host ("CPU Adam", issue 26, SPEC §14) and seed 000's ledger, on both
// grids, driven as a student drives them: the switch by the keyboard (Space) and the pointer,
// the ledger's select by arrow keys over both options. At every state every figure on screen
// (memory, the host's per card and per node, the traffic rows with the PCIe row, the bubble,
// the estimate with its offload time, the cards) equals `parallel-lab eval --card` on the same
// plan, and moving Adam to the host never raises the card's memory.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, openPage, scrollToElement, settleAndCheck } from './harness.mjs';
import { SELECTS, START, agree, choose, fullConfig, gb } from './drive.mjs';

const lab = labForFile();

const precision = SELECTS.find((s) => s.field === 'precision');

for (const [id, card] of [[8, 3], [64, 19]]) {
  test(`grid-${id}: the CPU Adam switch (Space, pointer) and the 16/18-byte ledger (keys) against eval`, async () => {
    const { page, context, problems } = await openPage(lab, undefined, { entry: 'rl.html' });
    const section = page.getByTestId(`section-${id}`);
    await scrollToElement(section);
    await section.getByTestId(`grid-${id}`).getByTestId(`card-${card}`).click();
    const toggle = section.getByTestId('toggle-offload');
    const config = (fields) => fullConfig({ ...START[id], ...fields });

    assert.equal(await toggle.isChecked(), false, 'the optimizer starts on the card (the lesson)');
    assert.equal(await toggle.getAttribute('role'), 'switch');
    const onCard = await agree(section, config({}), card, 'the start');
    assert.equal(await section.getByTestId('mem-host').count(), 0, 'no host figure with Adam on the card');

    // By the keyboard: focus the switch, Space.
    await toggle.focus();
    await page.keyboard.press('Space');
    assert.equal(await toggle.isChecked(), true, 'Space turns the switch on');
    const onHost = await agree(section, config({ optimizer_offload: 'cpu' }), card, 'CPU Adam by Space');
    assert.ok(onHost.memory.total <= onCard.memory.total, 'CPU Adam never raises the card\'s memory');
    assert.ok(onHost.memory.model_states < onCard.memory.model_states, 'the 12-byte part left the card');
    const pcie = onHost.comm.find((t) => t.dim === 'offload');
    assert.equal(pcie.link, 'pcie', 'the offload row runs over PCIe');
    const row = section.getByTestId('traffic-offload');
    assert.equal(await row.getAttribute('data-link'), 'pcie');
    assert.ok((await row.innerText()).includes(gb(pcie.bytes)), 'the PCIe row shows its bytes');
    assert.ok(await section.getByTestId('estimate-offload').count(), 'the estimate lists the offload time');

    // The ledger by keys, both options, with Adam on the host.
    const visited = [];
    await choose(section, precision, 'fp32-grads', 'keys', async (value) => {
      visited.push(value);
      await agree(section, config({ optimizer_offload: 'cpu', precision: value }), card, `ledger ${value}`);
    });
    assert.deepEqual(visited, ['fp32-grads'], 'one arrow reaches the 18-byte ledger');

    // By the pointer: click the switch off; Adam's 12 bytes come back, FP32 gradients stay.
    await toggle.click();
    assert.equal(await toggle.isChecked(), false, 'a click turns the switch off');
    const back = await agree(section, config({ precision: 'fp32-grads' }), card, 'CPU Adam off by click');
    assert.equal(await section.getByTestId('mem-host').count(), 0, 'the host figure goes with it');
    assert.ok(back.memory.model_states > onCard.memory.model_states, '18 bytes per parameter hold more than 16');
    await choose(section, precision, 'bf16-grads', 'keys', async (value) => {
      await agree(section, config({ precision: value }), card, `ledger ${value}`);
    });
    await agree(section, config({}), card, 'back at the start');
    console.log(`grid-${id} card ${card}: states ${gb(onCard.memory.model_states)} → CPU Adam ${gb(onHost.memory.model_states)} on the card, ${gb(onHost.memory.host.per_gpu)} per card and ${gb(onHost.memory.host.per_node)} per node on the host, PCIe ${gb(pcie.bytes)} in ${pcie.seconds} s; FP32 gradients ${gb(back.memory.model_states)}`);
    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}
