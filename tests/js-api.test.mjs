// The JavaScript API for course authors: `evaluate`, `groups` and `countParams` on
// `window.wasmBindings` equal `parallel-lab eval`, `groups --card` and `model` on the same
// input, and reject bad input with the CLI's one line; a course page on another origin drives
// an embedded grid with `postMessage({type: "parallel-lab:set", plan})`: a plan object whole or
// not at all (a refusal answered with the field at fault and why), a string read like a link;
// only the framing window is heard, and only at the origin the embed link names, if it does.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP, DIST, courseForFile, dropFile, htmlPage, labForFile, openCourse, openPage, settleAndCheck, waitForApp } from './harness.mjs';
import { CLI, cli } from './drive.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.join(HERE, '..', 'crates', 'parallel-core', 'tests', 'fixtures', 'hf', 'mixtral-8x7b.json');

const lab = labForFile();
// Another frame of the course page: it sends the embedded widget what its parent would.
const siblingPage = { type: 'text/html; charset=utf-8', body: htmlPage('Sibling', 'ad') };
const course = courseForFile({ '/sibling.html': siblingPage });

test('evaluate, groups and countParams from JS equal the CLI', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const configs = [
    {},
    { gpus: 64, tp: 8, pp: 2, zero: 1 },
    { gpus: 64, tp: 8, pp: 8, accounting: 'stages', recompute: 'selective' },
    { model: 'mixtral-8x7b', gpus: 64, tp: 4, pp: 2, ep: 8, zero: 1 },
  ];
  for (const config of configs) {
    const fromJs = await page.evaluate((c) => window.wasmBindings.evaluate(c), config);
    assert.deepEqual(fromJs, cli(['eval'], config).ok, JSON.stringify(config));
    const card = config.gpus ? config.gpus - 1 : 3;
    const groupsJs = await page.evaluate(([c, n]) => window.wasmBindings.groups(c, n), [config, card]);
    assert.deepEqual(groupsJs, cli(['groups', '--card', String(card)], config).ok);
  }
  // Bad input: the CLI's line, thrown.
  const bad = { gpus: 8, tp: 3 };
  const thrown = await page.evaluate((c) => {
    try {
      window.wasmBindings.evaluate(c);
      return null;
    } catch (e) {
      return String(e);
    }
  }, bad);
  assert.equal(thrown, cli(['eval'], bad).error);
  // A value of the wrong type: the CLI's line naming the field (the CLI adds where in its
  // JSON text the value stood; a JS object has no lines).
  const throws = (fn, arg) =>
    page.evaluate(([f, a]) => {
      try {
        window.wasmBindings[f](a);
        return null;
      } catch (e) {
        return String(e);
      }
    }, [fn, arg]);
  const withoutPlace = (line) => line.replace(/ at line \d+ column \d+$/, '');
  for (const wrong of [{ gpus: 8, tp: '8' }, { gpus: 8, recompute: 'sometimes' }, { model: { hidden: 'x' } }]) {
    const line = await throws('evaluate', wrong);
    assert.equal(line, withoutPlace(cli(['eval'], wrong).error), JSON.stringify(wrong));
  }
  // A negative count: JS has only floating-point numbers, so serde words it "invalid type:
  // floating point `-1.0`" where the CLI's JSON says "invalid value: integer `-1`"; the
  // field and what was expected are the same.
  const negative = await throws('evaluate', { model: { layers: -1 } });
  const field = (line) => line.slice(0, line.indexOf(': '));
  assert.equal(field(negative), field(cli(['eval'], { model: { layers: -1 } }).error));
  assert.match(negative, /^model\.layers: .*-1.*, expected u32$/);
  assert.equal(
    await throws('countParams', { hidden_size: 'x' }),
    withoutPlace(cli(['eval'], { gpus: 8, model: { hf_config: { hidden_size: 'x' } } }).error),
  );
  // countParams on a real config.json.
  const hf = JSON.parse(await readFile(FIXTURE, 'utf8'));
  const counted = await page.evaluate((c) => window.wasmBindings.countParams(c), hf);
  const run = spawnSync(CLI, ['model'], { input: JSON.stringify(hf), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(counted, JSON.parse(run.stdout));
  assert.equal(counted.params, 46_702_792_704);
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('your own model: a pasted config.json is counted and used; a broken one is named and changes nothing', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { entry: 'plan.html' });
  const section = page.getByTestId('section-8');
  const hf = JSON.parse(await readFile(FIXTURE.replace('mixtral-8x7b', 'llama3-8b'), 'utf8'));
  // Picking "your own model" before a config is pasted, by the pointer or by End on the
  // keyboard, leaves the model as it was: the picker shows the model the figures are for.
  const picker = section.getByTestId('select-model');
  const preset = await picker.inputValue();
  const total = await section.getByTestId('mem-total').getAttribute('data-bytes');
  await picker.selectOption('custom');
  assert.equal(await picker.inputValue(), preset, 'picked by the pointer: the preset stays shown');
  await picker.focus();
  await page.keyboard.press('End');
  assert.equal(await picker.inputValue(), preset, 'End on the keyboard: the preset stays shown');
  assert.equal(await section.getByTestId('mem-total').getAttribute('data-bytes'), total);
  await section.locator('.own-model summary').click();
  const box = section.getByTestId('model-config');
  await box.fill(JSON.stringify(hf, null, 2));
  await section.getByTestId('model-config-apply').click();
  const result = section.getByTestId('model-config-result');
  assert.equal(await result.getAttribute('data-params'), '8030261248');
  assert.match(await result.innerText(), /8,030,261,248/);
  assert.match(await section.getByTestId('model-figures').innerText(), /8,030,261,248/);
  // The grid's figures are the CLI's for the same model, given as {"hf_config": …}.
  const want = cli(['eval'], { gpus: 8, zero: 3, model: { hf_config: hf } }).ok;
  assert.equal(Number(await section.getByTestId('mem-total').getAttribute('data-bytes')), want.memory.total);

  // The link carries the model by its fields; a reload comes back to it.
  await page.waitForFunction(() => /g8=[^&]*mdl-p8030261248-/.test(location.hash), null);
  const link = await page.evaluate(() => location.href);
  const again = await context.newPage();
  await again.goto(link, { waitUntil: 'load' });
  await waitForApp(again);
  const figures = again.getByTestId('section-8').getByTestId('model-figures');
  await figures.waitFor({ state: "attached" });
  await figures.scrollIntoViewIfNeeded();
  assert.match(await figures.innerText(), /8,030,261,248/);
  assert.equal(await again.getByTestId('section-8').getByTestId('select-model').inputValue(), 'custom');
  assert.equal(Number(await again.getByTestId('section-8').getByTestId('mem-total').getAttribute('data-bytes')), want.memory.total);
  await again.close();

  // A file dropped on the box is read and used: Mixtral's config.json.
  const mixtral = await readFile(FIXTURE, 'utf8');
  await dropFile(box, mixtral);
  await section.getByTestId('model-config-result').and(page.locator('[data-params="46702792704"]')).waitFor();
  // Back to Llama 3 8B for what follows.
  await box.fill(JSON.stringify(hf, null, 2));
  await section.getByTestId('model-config-apply').click();
  await section.getByTestId('model-config-result').and(page.locator('[data-params="8030261248"]')).waitFor();

  // A config without hidden_size: one message naming it; the model stays.
  const broken = { ...hf };
  delete broken.hidden_size;
  await box.fill(JSON.stringify(broken));
  await section.getByTestId('model-config-apply').click();
  const error = await section.getByTestId('model-config-error').innerText();
  assert.match(error, /hidden_size/);
  assert.equal(Number(await section.getByTestId('mem-total').getAttribute('data-bytes')), want.memory.total);
  // Not JSON at all.
  await box.fill('{ not json');
  await section.getByTestId('model-config-apply').click();
  assert.match(await section.getByTestId('model-config-error').innerText(), /JSON/);
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('a course page on another origin drives an embedded grid by postMessage, as a link would', async () => {
  const src = `${lab.baseUrl}#embed=grid-64`;
  const { page, context, problems, inner } = await openCourse(
    lab,
    course,
    htmlPage('Lesson', `<h1>Now set TP to 4</h1><iframe src="${src}" title="Parallel Lab" width="900" height="1200"></iframe>`),
  );
  // A link written before embed.html (the page's own address with embed=) lands on the embed
  // entry point, link unchanged.
  const framed = page.frames().find((f) => f !== page.mainFrame());
  assert.match(framed.url(), /\/embed\.html#embed=grid-64$/);
  // The exports for course authors are the planner's (plan.html): embed.html is built without them.
  const exports = ['evaluate', 'groups', 'countParams', 'search'];
  assert.deepEqual(
    await framed.evaluate((names) => names.map((name) => typeof window.wasmBindings?.[name]), exports),
    exports.map(() => 'undefined'),
  );
  const send = (plan) =>
    page.evaluate((p) => document.querySelector('iframe').contentWindow.postMessage({ type: 'parallel-lab:set', plan: p }, '*'), plan);

  // An object with the CLI's field names.
  await send({ tp: 4, pp: 2, zero: 1 });
  await inner.getByTestId('slider-tp').and(inner.locator('[aria-valuetext="4"]')).waitFor();
  assert.equal(await inner.getByTestId('slider-pp').getAttribute('aria-valuetext'), '2');
  const want = cli(['eval'], { gpus: 64, tp: 4, pp: 2, zero: 1 }).ok;
  assert.equal(Number(await inner.getByTestId('mem-total').getAttribute('data-bytes')), want.memory.total);

  // A link's tokens, with one the grid cannot take (TP across nodes): the rest applies, the
  // notice names it.
  await send('tp16.pp4');
  await inner.getByTestId('slider-pp').and(inner.locator('[aria-valuetext="4"]')).waitFor();
  await inner.getByTestId('link-notice').waitFor();
  assert.match(await inner.getByTestId('link-notice').innerText(), /tp16/);

  // Anything else is ignored. The frame's own listener, added after the widget's, tells when
  // the message has been handled (listeners run in order, in one task); the widget's effects
  // have run by the next frame.
  await inner.locator(':root').evaluate(() => {
    window.addEventListener('message', (event) => {
      if (event.data?.type === 'other') window.seenOther = true;
    });
  });
  await page.evaluate(() => document.querySelector('iframe').contentWindow.postMessage({ type: 'other', plan: { tp: 1 } }, '*'));
  await inner.locator(':root').evaluate(() => new Promise((resolve) => {
    const check = () => (window.seenOther ? requestAnimationFrame(() => resolve()) : requestAnimationFrame(check));
    check();
  }));
  assert.equal(await inner.getByTestId('slider-pp').getAttribute('aria-valuetext'), '4');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('an embedded grid hears its parent only: a sibling frame\'s message is ignored', async () => {
  const src = `${lab.baseUrl}embed.html#embed=grid-64`;
  const frames = `<iframe id="lab" src="${src}" title="Parallel Lab" width="900" height="1200"></iframe><iframe id="sibling" src="/sibling.html" title="Sibling" width="200" height="100"></iframe>`;
  const { page, context, problems, inner } = await openCourse(lab, course, htmlPage('Lesson', frames), '#lab');
  const slider = async (name) => inner.getByTestId(`slider-${name}`).getAttribute('aria-valuetext');
  assert.deepEqual([await slider('tp'), await slider('pp')], ['8', '8'], 'the grid starts at TP 8 × PP 8');
  // Every PP the slider shows from now on, recorded in the frame as it changes.
  await inner.getByTestId('slider-pp').evaluate((el) => {
    window.ppShown = [];
    new MutationObserver(() => window.ppShown.push(el.getAttribute('aria-valuetext')))
      .observe(el, { attributes: true, attributeFilter: ['aria-valuetext'] });
  });
  // A sibling frame, then the widget's own window, ask for PP 2 and PP 4.
  const sibling = page.frames().find((f) => f.url().endsWith('/sibling.html'));
  await sibling.evaluate(() => window.parent.frames[0].postMessage({ type: 'parallel-lab:set', plan: { pp: 2 } }, '*'));
  await inner.locator(':root').evaluate(() => window.postMessage({ type: 'parallel-lab:set', plan: { pp: 4 } }, '*'));
  // Then the parent asks for PP 1. Posted messages reach the frame in the order they were sent,
  // so once PP 1 shows, the two before it have been handled: the slider showed 1 and nothing else.
  await page.evaluate(() => document.getElementById('lab').contentWindow.postMessage({ type: 'parallel-lab:set', plan: { tp: 8, pp: 1 } }, '*'));
  await inner.getByTestId('slider-pp').and(inner.locator('[aria-valuetext="1"]')).waitFor();
  const shown = await inner.locator(':root').evaluate(() => window.ppShown);
  assert.deepEqual([...new Set(shown)], ['1'], 'a sibling frame or the widget itself moved the grid');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

// Refusals and the course page's origin (issue 50). A course page that frames `src` (or holds
// a snippet) and keeps, in `window.answers`, every message the lab's frame posts to it but
// its heights.
const COLLECT = `<script>
window.answers = [];
addEventListener('message', (e) => {
  if (e.source !== document.querySelector('iframe').contentWindow || e.data?.type === 'parallel-lab:height') return;
  answers.push({ origin: e.origin, data: e.data });
});
</script>`;

/**
 * Opens a course page holding `frame` (an iframe's HTML) and `COLLECT`, once its grid is drawn,
 * in a browser context with `options`.
 */
async function openCollecting(frame, options = DESKTOP) {
  const { page, context, problems, inner } = await openCourse(lab, course, htmlPage('Lesson', `${COLLECT}${frame}`), 'iframe', options);
  // Every TP and PP the sliders show from now on, recorded in the frame as they change.
  await inner.locator(':root').evaluate(() => {
    window.shown = [];
    for (const id of ['slider-tp', 'slider-pp']) {
      const el = document.querySelector(`[data-testid="${id}"]`);
      new MutationObserver(() => window.shown.push(`${id}=${el.getAttribute('aria-valuetext')}`))
        .observe(el, { attributes: true, attributeFilter: ['aria-valuetext'] });
    }
  });
  return { context, page, problems, inner };
}

/** The course page posts `message` to the lab's frame. */
const post = (page, message) =>
  page.evaluate((m) => document.querySelector('iframe').contentWindow.postMessage(m, '*'), message);

/** Posts a `set` of `plan` and returns the next answer the lab's frame posts back. */
async function answerTo(page, plan) {
  const before = await page.evaluate(() => answers.length);
  await post(page, { type: 'parallel-lab:set', plan });
  await page.waitForFunction((n) => answers.length > n, before);
  return page.evaluate((n) => answers[n], before);
}

test('a refused set changes nothing and is answered with the field at fault and why', async () => {
  const { context, page, problems, inner } = await openCollecting(
    `<iframe src="${lab.baseUrl}embed.html#embed=grid-64" title="Parallel Lab" width="900" height="1200"></iframe>`,
  );
  const labOrigin = new URL(lab.baseUrl).origin;
  const slider = (name) => inner.getByTestId(`slider-${name}`).getAttribute('aria-valuetext');
  assert.deepEqual([await slider('tp'), await slider('pp')], ['8', '8'], 'the grid starts at TP 8 × PP 8');
  for (const [plan, field, reason] of [
    [{ tp: '8' }, 'tp', 'wrong-type'],
    [{ tp: 4, pp: 2.5 }, 'pp', 'wrong-type'],
    [{ tp: -1 }, 'tp', 'wrong-type'], // a count is a whole number from 0
    [{ tp: 16 }, 'tp', 'out-of-range'], // TP stays within a node
    [{ tp: 4, zero: 7 }, 'zero', 'out-of-range'],
    [{ tp: 4, pipeline: 2 }, 'pipeline', 'unknown'],
    [{ tp: 3 }, 'gpus', 'invalid'], // 64 cards do not split by TP 3
    [42, 'plan', 'wrong-type'],
    [[{ tp: 4 }], 'plan', 'wrong-type'],
  ]) {
    const answer = await answerTo(page, plan);
    const what = JSON.stringify(plan);
    assert.equal(answer.origin, labOrigin, what);
    const { type, widget, field: named, reason: why, message } = answer.data;
    assert.deepEqual({ type, widget, field: named, reason: why }, { type: 'parallel-lab:error', widget: 'grid-64', field, reason }, what);
    assert.ok(message.startsWith(`${field}: `) && message.length < 200, `${what}: ${message}`);
  }
  // Every refusal has been answered, each after its message was handled; a frame later the
  // sliders have shown nothing else, and no notice was raised.
  await inner.locator(':root').evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
  assert.deepEqual(await inner.locator(':root').evaluate(() => window.shown), [], 'a refused message moved the grid');
  assert.deepEqual([await slider('tp'), await slider('pp')], ['8', '8']);
  assert.equal(await inner.getByTestId('link-notice').count(), 0);
  // Then a plan the grid takes: the sliders show TP 4 and PP 2 and nothing else.
  await post(page, { type: 'parallel-lab:set', plan: { tp: 4, pp: 2 } });
  await inner.getByTestId('slider-tp').and(inner.locator('[aria-valuetext="4"]')).waitFor();
  await inner.getByTestId('slider-pp').and(inner.locator('[aria-valuetext="2"]')).waitFor();
  const shown = await inner.locator(':root').evaluate(() => window.shown);
  assert.deepEqual([...new Set(shown)].sort(), ['slider-pp=2', 'slider-tp=4']);
  await settleAndCheck(page, problems, assert);
  await context.close();
});

// An object is read by code of its own split module (web/src/pages/embed/message.rs), fetched
// with the first object: a message that comes meanwhile takes effect in its turn, and a fetch
// that fails applies nothing until an object comes again.
test('a plan object waits for its module: a later message is not undone, a failed fetch is tried again', async () => {
  const html = await readFile(path.join(DIST, 'embed.html'), 'utf8');
  const module = html.match(/data-split-modules="[^"]*\.\/([^" ]*split_set_message\.wasm)/)?.[1];
  assert.ok(module, 'embed.html names the module that reads a plan object');
  // No service worker: it would serve the module from its cache, not from the network.
  const { context, page, problems, inner } = await openCollecting(
    `<iframe src="${lab.baseUrl}embed.html#embed=grid-64" title="Parallel Lab" width="900" height="1200"></iframe>`,
    { ...DESKTOP, serviceWorkers: 'block' },
  );
  const slider = (name) => inner.getByTestId(`slider-${name}`).getAttribute('aria-valuetext');
  const asked = [];
  let down = true;
  let release;
  const released = new Promise((resolve) => {
    release = resolve;
  });
  await page.route(new RegExp(`/${module.replace(/[.]/g, '\\.')}$`), async (route) => {
    asked.push(route.request().url());
    if (down) return route.abort('internetdisconnected');
    await released;
    return route.continue();
  });
  // The network down: the object is not read (the widget says so in the console), nothing
  // moves and nothing is answered.
  const warned = page.waitForEvent('console', (m) => m.type() === 'warning' && /could not be fetched/.test(m.text()));
  await post(page, { type: 'parallel-lab:set', plan: { tp: 4, pp: 2 } });
  await warned;
  assert.deepEqual([await slider('tp'), await slider('pp')], ['8', '8']);
  assert.deepEqual(await page.evaluate(() => answers), []);
  // Held back: an object, then a link's tokens, which apply at once (but TP 16, which the
  // notice names); the object, read once its module is there, neither undoes them nor hides
  // their notice.
  down = false;
  await post(page, { type: 'parallel-lab:set', plan: { tp: 4, pp: 2 } });
  while (asked.length < 2) await inner.locator(':root').evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  await post(page, { type: 'parallel-lab:set', plan: 'tp16.pp4' });
  await inner.getByTestId('slider-pp').and(inner.locator('[aria-valuetext="4"]')).waitFor();
  await inner.getByTestId('link-notice').waitFor();
  const tokens = [await slider('tp'), await slider('pp')];
  release();
  // A refused object is answered once its read is done: the held one was read before it.
  const answer = await answerTo(page, { tp: '8' });
  assert.equal(answer.data.field, 'tp');
  assert.deepEqual([await slider('tp'), await slider('pp')], tokens, 'the object read late undid the later message');
  assert.match(await inner.getByTestId('link-notice').innerText(), /tp16/, 'the later message\'s notice stays');
  assert.ok(!(await inner.locator(':root').evaluate(() => window.shown)).includes('slider-tp=4'), 'TP 4 was shown');
  assert.deepEqual((await page.evaluate(() => answers)).map((a) => a.data.type), ['parallel-lab:error'], 'one answer, the refusal');
  // Now the module is there: an object is read and applied.
  await post(page, { type: 'parallel-lab:set', plan: { tp: 4, pp: 2 } });
  await inner.getByTestId('slider-tp').and(inner.locator('[aria-valuetext="4"]')).waitFor();
  assert.equal(await slider('pp'), '2');
  assert.equal(asked.length, 2, 'fetched again after the failure, then kept');
  const others = problems.filter((p) => !/internetdisconnected|ERR_INTERNET_DISCONNECTED|Failed to fetch|TypeError|NetworkError/.test(p));
  assert.deepEqual(others, []);
  await context.close();
});

test('the snippet names the course page when the teacher gives its address: that origin is heard, no other', async () => {
  // The teacher types the course page's address (with its path) into the embed dialog.
  const full = await openPage(lab);
  const section = full.page.getByTestId('section-64');
  await section.getByTestId('embed-grid-64').click();
  const address = section.getByTestId('embed-parent-grid-64');
  const code = section.getByTestId('embed-code-grid-64');
  assert.ok(!(await code.inputValue()).includes('parent='), 'the default snippet names no origin');
  await address.fill('course.example.org/week1');
  await section.getByTestId('embed-parent-error-grid-64').waitFor();
  assert.ok(!(await code.inputValue()).includes('parent='), 'an address that is not one names no origin');
  await address.fill(`${course.origin}/week1/lesson.html?x=1`);
  await section.getByTestId('embed-parent-error-grid-64').waitFor({ state: 'detached' });
  const snippet = await code.inputValue();
  assert.ok(snippet.includes(`&amp;parent=${course.origin}"`), snippet);
  await settleAndCheck(full.page, full.problems, assert);
  await full.context.close();

  // Pasted into that course page: its messages are heard and answered.
  let { context, page, problems, inner } = await openCollecting(snippet);
  assert.equal((await answerTo(page, { tp: '8' })).data.field, 'tp');
  await post(page, { type: 'parallel-lab:set', plan: { tp: 4 } });
  await inner.getByTestId('slider-tp').and(inner.locator('[aria-valuetext="4"]')).waitFor();
  await settleAndCheck(page, problems, assert);
  await context.close();

  // A link naming another origin: the same parent window is neither heard nor answered. The
  // frame's own listener, added after the widget's, answers a probe once the messages before
  // it have been handled (in order, each in one task); an answer of the widget's would have
  // reached the course page before that one.
  const src = `${lab.baseUrl}embed.html#embed=grid-64&parent=https://course.example.org`;
  ({ context, page, problems, inner } = await openCollecting(`<iframe src="${src}" title="Parallel Lab" width="900" height="1200"></iframe>`));
  await inner.locator(':root').evaluate(() => {
    addEventListener('message', (event) => {
      if (event.data?.type === 'probe') requestAnimationFrame(() => parent.postMessage({ type: 'probe-done' }, '*'));
    });
  });
  await post(page, { type: 'parallel-lab:set', plan: { tp: 4, pp: 2 } });
  await post(page, { type: 'parallel-lab:set', plan: { tp: '8' } });
  await post(page, { type: 'probe' });
  await page.waitForFunction(() => answers.some((a) => a.data?.type === 'probe-done'));
  assert.deepEqual(await page.evaluate(() => answers.map((a) => a.data.type)), ['probe-done']);
  assert.deepEqual(await inner.locator(':root').evaluate(() => window.shown), [], 'a course page at another origin moved the grid');
  assert.equal(await inner.getByTestId('slider-tp').getAttribute('aria-valuetext'), '8');
  await settleAndCheck(page, problems, assert);
  await context.close();
});
