// Embedding: the 64-card grid's "embed" button gives an <iframe> snippet of the widget in its
// current state. Pasted as is into a plain course page on another origin (another port), the
// frame shows only that widget (no header, language switch or other sections), in the state
// it was embedded in, with a title for screen readers; the widget posts its height to the
// course page, whose snippet script sets the iframe's height from it, and again when the
// widget's size changes.

import fs from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DESKTOP,
  courseForFile,
  htmlPage,
  labForFile,
  openCourse,
  openPage,
  setRange,
  settleAndCheck,
  visibleText,
  waitForApp,
  watchProblems,
} from './harness.mjs';
import { CONTROL_IDS, LESSON, controlsShown, partsDrawn, pickThreeControls, sizedToContent, styleHeight } from './embedding.mjs';

const lab = labForFile();
// A page of the course's origin that claims a height as the widget does, then says it has.
const impostor = {
  type: 'text/html; charset=utf-8',
  body: htmlPage('x', `<script>
parent.postMessage({ type: 'parallel-lab:height', height: 4321 }, '*');
parent.postMessage({ type: 'impostor-done' }, '*');
</script>`),
};
const course = courseForFile({ '/impostor.html': impostor });

/** A plain course page holding `snippet` exactly as the lab gave it. */
function lessonHtml(snippet) {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Lesson 7: parallelism</title><link rel="icon" href="data:,"></head>
<body>
<h1>Lesson 7: parallelism</h1>
<p>Try the grid below.</p>
${snippet}
<p>End of the lesson.</p>
</body>
</html>
`;
}

test('the embed snippet, pasted into a course page on another origin, shows the grid alone in its state and sizes its iframe', async () => {
  // The teacher sets up PP 2 on the 64-card grid (TP 8, DP 4) and takes the snippet.
  const full = await openPage(lab);
  const section = full.page.getByTestId('section-64');
  await setRange(section, 'slider-pp', 2);
  assert.equal(await visibleText(section.getByTestId('derived-dp')), '4');
  await section.getByTestId('embed-grid-64').click();
  const snippet = await section.getByTestId('embed-code-grid-64').inputValue();
  assert.match(snippet, /^<iframe src="[^"]*#[^"]*embed=grid-64[^"]*"[^>]*\bdata-parallel-lab\b[^>]*><\/iframe>\s*<script>[^]*<\/script>$/);
  assert.ok(snippet.includes(`src="${lab.baseUrl}embed.html#`), `the iframe points at the lab's embed entry point: ${snippet}`);
  await settleAndCheck(full.page, full.problems, assert);
  await full.context.close();

  // A visitor opens the course page (a fresh browser profile: nothing cached).
  course.lesson.body = lessonHtml(snippet);
  const context = await lab.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchProblems(page);
  // What the frame loads: the embed's own wasm, never the whole page's.
  const wasm = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) wasm.push(new URL(request.url()).pathname);
  });
  await page.goto(`${course.origin}/lesson.html`, { waitUntil: 'load' });
  assert.notEqual(course.origin, new URL(lab.baseUrl).origin);

  const iframe = page.locator('iframe[data-parallel-lab]');
  assert.equal(await iframe.count(), 1);
  const title = await iframe.getAttribute('title');
  assert.ok(title && title.trim().length > 0, 'the iframe has a title');
  const initial = Number(await iframe.getAttribute('height'));

  // Inside the frame: the widget alone, in the embedded state.
  const inner = page.frameLocator('iframe[data-parallel-lab]');
  await waitForApp(inner);
  const root = inner.getByTestId('embed-root');
  await root.getByTestId('mem-states').waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(await root.getAttribute('data-widget'), 'grid-64');
  for (const absent of ['lang-toggle', 'copy-link', 'section-8', 'grid-8', 'embed-grid-64']) {
    assert.equal(await inner.getByTestId(absent).count(), 0, `no ${absent} in the frame`);
  }
  assert.equal(await inner.locator('header, main').count(), 0, 'no page header or main column');
  assert.equal(await inner.locator('.first-screen, .first-screen-loading').count(), 0, "embed.html's first screens and loading line are gone once the widget is there");
  assert.equal(await inner.getByTestId('grid-64').locator('[data-card]').count(), 64);
  assert.equal(await inner.getByTestId('slider-pp').inputValue(), '2');
  assert.equal(await visibleText(inner.getByTestId('derived-dp')), '4');
  assert.deepEqual(wasm.map((p) => p.replace(/-[0-9a-f]+_bg\.wasm$/, '')), ['/parallel-embed'], 'only the embed entry point\'s wasm');

  // The height message arrived and the snippet's script sized the iframe to the content.
  const frame = await (await iframe.elementHandle()).contentFrame();
  await page.waitForFunction(
    () => /^\d+(\.\d+)?px$/.test(document.querySelector('iframe[data-parallel-lab]').style.height),
  );
  let { height, inside } = await sizedToContent(iframe, frame);
  assert.notEqual(height, initial, 'the height is the reported one, not the initial attribute');
  assert.ok(Math.abs(height - inside.content) <= 2, `iframe ${height}px for content ${inside.content}px`);
  assert.equal(inside.scrolls, false, 'the frame does not scroll inside');

  // When the widget's size changes (a narrower course page), the iframe follows.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.waitForFunction(
    (before) => parseFloat(document.querySelector('iframe[data-parallel-lab]').style.height) > before + 50,
    height,
  );
  // The widget may report more than one height while it reflows: wait for the one it settles at.
  ({ height, inside } = await sizedToContent(iframe, frame));
  assert.ok(Math.abs(height - inside.content) <= 2, `narrow: iframe ${height}px for content ${inside.content}px`);

  // Moving the widget's sliders never adds entries to the course page's history: the frame
  // rewrites its own address in place.
  const entries = await page.evaluate(() => history.length);
  for (const m of ['16', '32']) {
    await inner.getByTestId('slider-m').fill(m);
    // The frame has written the change into its address (the state asserted on below)...
    await inner.locator(':root').evaluate((_, want) => new Promise((resolve) => {
      const check = () => (location.hash.includes(`.m${want}`) || location.hash.includes(`=m${want}`) ? resolve() : requestAnimationFrame(check));
      check();
    }), m);
    // ...and the next change comes after the pause that, outside a frame, makes a history entry.
    await page.waitForTimeout(1_100);
  }
  assert.equal(await inner.getByTestId('slider-m').inputValue(), '32');
  assert.equal(await page.evaluate(() => history.length), entries, 'the course page keeps its history');

  await onlyTheWidgetSizesIt(page, iframe, frame);

  await settleAndCheck(page, problems, assert);
  await context.close();
});


test('the teacher ticks the controls the embedded grid shows; the snippet carries them and the widget shows exactly those', async () => {
  const full = await openPage(lab);
  const section = full.page.getByTestId('section-8');
  const button = section.getByTestId('embed-grid-8');
  // The student reaches the button at the bottom of the screen, as they scroll down to it.
  await button.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await button.click();
  const code = section.getByTestId('embed-code-grid-8');
  // The panel that opens is brought on screen whole, and the button keeps its own width.
  await full.page.waitForFunction(() => {
    const box = document.querySelector('[data-testid="section-8"] .embed-box')?.getBoundingClientRect();
    return box && box.top >= -1 && box.bottom <= window.innerHeight + 1;
  });
  const widths = await button.evaluate((el) => ({ button: el.getBoundingClientRect().width, box: el.parentElement.querySelector('.embed-box').getBoundingClientRect().width }));
  assert.ok(widths.button < widths.box / 2, `the button is ${Math.round(widths.button)} px wide beside a ${Math.round(widths.box)} px panel`);
  // By default the lesson's controls are ticked and the snippet names none (the default).
  for (const [id] of Object.entries(CONTROL_IDS)) {
    const box = section.getByTestId(`embed-control-grid-8-${id}`);
    assert.equal(await box.isChecked(), LESSON.includes(id), `${id} ticked by default`);
  }
  const plain = await code.inputValue();
  assert.ok(!plain.includes('controls='), plain);
  // Untick CP, the sequence, ZeRO and recompute by clicks; tick the model by Space.
  for (const id of ['cp', 'seq', 'zero', 'recompute']) await section.getByTestId(`embed-control-grid-8-${id}`).click();
  await section.getByTestId('embed-control-grid-8-model').focus();
  await full.page.keyboard.press('Space');
  await full.page.waitForFunction(() => document.querySelector('[data-testid="embed-code-grid-8"]').value.includes('controls=tp,pp,m,model'));
  const picked = await code.inputValue();
  await settleAndCheck(full.page, full.problems, assert);
  await full.context.close();

  for (const [snippet, want] of [[picked, ['tp', 'pp', 'm', 'model']], [plain, LESSON]]) {
    const { page, context, problems, inner } = await openCourse(lab, course, lessonHtml(snippet), 'iframe[data-parallel-lab]');
    assert.deepEqual(await controlsShown(inner), want, snippet);
    assert.equal(await inner.getByTestId('more-controls').count(), 0, 'no disclosure in a widget');
    assert.equal(await inner.getByTestId('link-notice').count(), 0, 'nothing ignored');
    await settleAndCheck(page, problems, assert);
    await context.close();
  }
});

test('a controls= value that names no control is named in the notice; the widget keeps the lesson\'s', async () => {
  const context = await lab.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${lab.baseUrl}embed.html#embed=grid-64&controls=tp,sliders`, { waitUntil: 'load' });
  const root = page.getByTestId('embed-root');
  await root.getByTestId('mem-states').waitFor({ state: 'visible', timeout: 30_000 });
  assert.ok((await visibleText(page.getByTestId('link-notice'))).includes('controls=tp,sliders'));
  assert.deepEqual(await controlsShown(page), LESSON);
  await settleAndCheck(page, problems, assert);
  await context.close();
});

/**
 * The course page believes a height only from the widget: a message of the course page's own
 * window, and one from the frame's window once it shows a page of another origin, leave the
 * iframe as it was.
 */
async function onlyTheWidgetSizesIt(page, iframe, frame) {
  const sized = await styleHeight(iframe);
  assert.notEqual(sized, null, 'the widget sized the iframe first');
  await page.evaluate(() => new Promise((resolve) => {
    addEventListener('message', function done(e) {
      if (e.data && e.data.type === 'self-done') { removeEventListener('message', done); resolve(); }
    });
    postMessage({ type: 'parallel-lab:height', height: 4321 }, '*');
    postMessage({ type: 'self-done' }, '*');
  }));
  assert.equal(await styleHeight(iframe), sized, 'a message from the course page itself');
  const heard = page.evaluate(() => new Promise((resolve) => {
    addEventListener('message', function done(e) {
      if (e.data && e.data.type === 'impostor-done') { removeEventListener('message', done); resolve(); }
    });
  }));
  await frame.evaluate((url) => { location.href = url; }, `${course.origin}/impostor.html`);
  await heard;
  assert.equal(await styleHeight(iframe), sized, 'a message from another origin in the frame');
}

test('docs/course-page-example.html sizes its frame from the widget alone and sets plans in it', async () => {
  const example = fs.readFileSync(new URL('../docs/course-page-example.html', import.meta.url), 'utf8');
  assert.ok(example.includes("const LAB = 'http://127.0.0.1:8080/';"), 'the example names its lab address once');
  const html = example.replace("const LAB = 'http://127.0.0.1:8080/';", `const LAB = '${lab.baseUrl}';`);
  const { page, context, problems, inner } = await openCourse(lab, course, html, 'iframe#lab');
  const iframe = page.locator('iframe#lab');
  await page.waitForFunction(() => /^\d+(\.\d+)?px$/.test(document.getElementById('lab').style.height));
  // A plan button reaches the widget (its message is addressed to the lab's origin): TP 8 × PP 2.
  const button = page.locator('button[data-plan]').first();
  assert.deepEqual(JSON.parse(await button.getAttribute('data-plan')), { tp: 8, pp: 2, zero: 1 });
  await button.click();
  await inner.getByTestId('slider-pp').evaluate((el) => new Promise((resolve) => {
    const check = () => (el.value === '2' ? resolve() : requestAnimationFrame(check));
    check();
  }));
  assert.equal(await visibleText(inner.getByTestId('derived-dp')), '4');
  const frame = await (await iframe.elementHandle()).contentFrame();
  await onlyTheWidgetSizesIt(page, iframe, frame);
  await settleAndCheck(page, problems, assert);
  await context.close();
});

/** A course site's lesson page: `snippet` in an 800-px content column, as a docs theme sets it. */
function columnHtml(snippet) {
  return lessonHtml(`<main style="max-width: 800px; margin: 0 auto; padding: 0 16px">${snippet}</main>`);
}


test('by default an embedded grid is one screen: the grid and its figures; the parts the teacher ticks are drawn, no others', async () => {
  const full = await openPage(lab);
  // Three controls, as a teacher picks them: TP, PP and m.
  const { section, code } = await pickThreeControls(full.page);
  // By default the grid and its figures are ticked and the snippet names no parts.
  for (const part of ['grid', 'figures', 'estimate', 'traffic', 'chart-memory', 'schedule']) {
    const ticked = await section.getByTestId(`embed-part-grid-64-${part}`).isChecked();
    assert.equal(ticked, part === 'grid' || part === 'figures', `${part} ticked by default`);
  }
  const plain = await code.inputValue();
  assert.ok(!plain.includes('parts='), plain);
  // The teacher adds the traffic table and the memory chart, by a click and by Space.
  await section.getByTestId('embed-part-grid-64-traffic').click();
  await section.getByTestId('embed-part-grid-64-chart-memory').focus();
  await full.page.keyboard.press('Space');
  await full.page.waitForFunction(() => document.querySelector('[data-testid="embed-code-grid-64"]').value.includes('parts=grid,figures,traffic,chart-memory'));
  const picked = await code.inputValue();
  await settleAndCheck(full.page, full.problems, assert);
  await full.context.close();

  const heights = {};
  for (const [name, snippet, want] of [
    ['default', plain, ['grid', 'figures']],
    ['picked', picked, ['grid', 'figures', 'traffic', 'chart-memory']],
  ]) {
    const { page, context, problems, inner } = await openCourse(lab, course, columnHtml(snippet), 'iframe[data-parallel-lab]');
    assert.deepEqual(await controlsShown(inner), ['tp', 'pp', 'm'], `${name}: the three controls`);
    if (want.includes('chart-memory')) await inner.getByTestId('chart-memory').waitFor();
    assert.deepEqual(await partsDrawn(inner), want, `${name}: ${snippet}`);
    const iframe = page.locator('iframe[data-parallel-lab]');
    const frame = await (await iframe.elementHandle()).contentFrame();
    await page.waitForFunction(() => /^\d+(\.\d+)?px$/.test(document.querySelector('iframe[data-parallel-lab]').style.height));
    const { height, inside } = await sizedToContent(iframe, frame);
    assert.ok(Math.abs(height - inside.content) <= 2, `${name}: iframe ${height}px for content ${inside.content}px`);
    const width = await iframe.evaluate((f) => f.getBoundingClientRect().width);
    assert.ok(width <= 800, `${name}: the column is ${width} px`);
    heights[name] = height;
    await settleAndCheck(page, problems, assert);
    await context.close();
  }
  assert.ok(heights.default <= 1000, `the default widget is one screen: ${heights.default} px in an 800-px column`);
  assert.ok(heights.picked > heights.default, `the table and chart add height: ${JSON.stringify(heights)}`);
});

test('a parts= value that names no part is named in the notice; the widget draws the grid and its figures', async () => {
  const context = await lab.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${lab.baseUrl}embed.html#embed=grid-64&parts=grid,charts`, { waitUntil: 'load' });
  const root = page.getByTestId('embed-root');
  await root.getByTestId('mem-states').waitFor({ state: 'visible', timeout: 30_000 });
  assert.ok((await visibleText(page.getByTestId('link-notice'))).includes('parts=grid,charts'));
  assert.deepEqual(await partsDrawn(page), ['grid', 'figures']);
  await settleAndCheck(page, problems, assert);
  await context.close();
});
