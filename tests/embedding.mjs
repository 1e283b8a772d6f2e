// What the embedding tests share: how a framed widget and its iframe are read (the iframe's
// height against its content, the controls and parts the widget draws) and how a teacher picks
// the three controls in the 64-card grid's embed dialog.

/** The iframe's style height in pixels, or null while it has none. */
export const styleHeight = (iframe) =>
  iframe.evaluate((f) => (/^\d+(\.\d+)?px$/.test(f.style.height) ? parseFloat(f.style.height) : null));

/**
 * Waits, a frame at a time, until the iframe's height is its content's (within 2 px), and
 * returns both; fails after 30 s with the last pair seen.
 */
export async function sizedToContent(iframe, frame) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const height = await styleHeight(iframe);
    const inside = await contentHeight(frame);
    if (height !== null && Math.abs(height - inside.content) <= 2) return { height, inside };
    if (Date.now() > deadline) return { height, inside };
    await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
}

/** Height of the framed document's content (the embed root's bottom edge) and whether it scrolls. */
export const contentHeight = (frame) =>
  frame.evaluate(() => {
    const root = document.querySelector('[data-testid="embed-root"]');
    return {
      content: Math.ceil(root.getBoundingClientRect().bottom + scrollY),
      scrolls: document.documentElement.scrollHeight > innerHeight + 1,
    };
  });

/** The grid controls the issue lets a teacher pick, with their test ids on the widget. */
export const CONTROL_IDS = {
  tp: 'slider-tp', pp: 'slider-pp', cp: 'slider-cp', m: 'slider-m', seq: 'slider-seq',
  zero: 'select-zero', recompute: 'select-recompute', model: 'select-model', card: 'select-hardware',
  precision: 'select-precision', schedule: 'select-schedule', accounting: 'select-accounting',
};
export const LESSON = ['tp', 'pp', 'cp', 'm', 'seq', 'zero', 'recompute'];

/** Which of CONTROL_IDS a framed widget shows. */
export async function controlsShown(frame) {
  const shown = [];
  for (const [id, testId] of Object.entries(CONTROL_IDS)) {
    if ((await frame.getByTestId(testId).count()) > 0) shown.push(id);
  }
  return shown;
}

/** Which parts a framed widget draws, by the test id each part carries. */
export async function partsDrawn(frame) {
  const ids = {
    grid: 'grid-64', figures: 'mem-states', estimate: 'estimate-step', traffic: 'traffic-table',
    'chart-memory': 'chart-memory', 'chart-balance': 'chart-balance', 'chart-stages': 'chart-stages',
    'chart-traffic': 'chart-traffic', 'chart-bubble': 'chart-bubble', schedule: 'schedule-view',
  };
  const drawn = [];
  for (const [part, testId] of Object.entries(ids)) {
    if ((await frame.getByTestId(testId).count()) > 0) drawn.push(part);
  }
  return drawn;
}

/**
 * In the lesson page `page`, opens the 64-card grid's embed dialog and unticks every control
 * but TP, PP and m, as a teacher picks them (issue 53's example); resolves to the dialog's
 * section and its snippet box once the snippet names exactly those three.
 */
export async function pickThreeControls(page) {
  const section = page.getByTestId('section-64');
  const button = section.getByTestId('embed-grid-64');
  await button.scrollIntoViewIfNeeded();
  await button.click();
  for (const id of ['cp', 'seq', 'zero', 'recompute']) await section.getByTestId(`embed-control-grid-64-${id}`).click();
  await page.waitForFunction(() => /controls=tp,pp,m["&]/.test(document.querySelector('[data-testid="embed-code-grid-64"]').value));
  return { section, code: section.getByTestId('embed-code-grid-64') };
}
