// The key journeys of a student (issue 23, item 5), written once for any engine: firefox.mjs
// (puppeteer-core over WebDriver BiDi) and webkit.mjs (selenium-webdriver and WebKitWebDriver)
// each give `registerJourneys` an adapter with the same few calls:
//
//   goto(url)                    navigates and waits for the load event
//   evaluate(fn, ...args)        runs `fn` (self-contained, see page.mjs) in the page
//   frameEvaluate(css, fn, ...)  the same inside the iframe `css` finds
//   clickAt(x, y)                a pointer click at a viewport point
//   pointAt(x, y)                moves the pointer to a viewport point (no button)
//   press(key)                   a key ('End', 'Home', 'ArrowRight', 'Enter', 'Escape', …) on
//                                the focused element
//   problems()                   console errors, page errors and failed loads seen so far
//   close()
//
// Every journey waits for the state it asserts (polling, see lab.mjs's `until`), never for a
// length of time; the figures come from `target/debug/parallel-lab` on the same plan.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CJK } from '../harness.mjs';
import { START, cli, derivedDp, differences, expected, fullConfig, gb } from '../drive.mjs';
import { startServers, until } from './lab.mjs';
import {
  centreOf, courseFrame, embedContent, focusOn, focusedCard, gridCards, gridsDrawn, noCardHovered,
  readingText, readSection, sectionTops, showSection, sliderIn,
} from './page.mjs';

const byTestId = (...ids) => ids.map((id) => `[data-testid="${id}"]`).join(' ');
const cardOf = (grid, card) => byTestId(`grid-${grid}`, `card-${card}`);

async function waitForGrids(driver, lab) {
  try {
    await until(() => driver.evaluate(gridsDrawn), 'both grids drawn and data-drawn="all"');
  } catch (error) {
    // Say why, when the page said: a failed load or an error usually is the reason.
    const problems = [...(await driver.problems()), ...lab.httpErrors];
    throw problems.length ? new Error(`${error.message}; problems: ${JSON.stringify(problems)}`) : error;
  }
}

/** Clicks the element `selector` finds at its centre, once that point is on it. */
async function clickOn(driver, selector) {
  const at = await until(async () => {
    const centre = await driver.evaluate(centreOf, selector);
    return centre.hits ? centre : { pending: centre };
  }, `${selector} under the pointer`);
  await driver.clickAt(at.x, at.y);
}

/**
 * The page's text as a reader sees it (page.mjs's `readingText`), read with the pointer resting
 * in the viewport's corner, over no card, as harness.mjs's `readingText` reads it in Chromium: a
 * card under the pointer reads its memory out below its grid (`card-memory-detail`), so the
 * pointer left on a clicked card, or a card scrolled under it while the page is read, would put
 * that line in one reading and not in another.
 */
async function readPage(driver) {
  await driver.pointAt(0, 0);
  await until(() => driver.evaluate(noCardHovered), 'the pointer over no card');
  return driver.evaluate(readingText);
}

async function focus(driver, selector) {
  assert.ok(await driver.evaluate(focusOn, selector), `${selector} takes the focus`);
}

/** Waits until the grid's selection is `selected` (a list of cards); resolves to its cards. */
function selection(driver, grid, selected) {
  return until(async () => {
    const cards = await driver.evaluate(gridCards, `grid-${grid}`);
    return JSON.stringify(cards.selected) === JSON.stringify(selected) ? cards : { pending: cards.selected };
  }, `grid-${grid}'s selection ${JSON.stringify(selected)}`);
}

/** The cards `groups --card` lights, as data-groups writes them (drive.mjs's `expected`). */
const cliGroups = (config, card) => expected(config, card).groups;

/**
 * Waits until every figure of the section equals the CLI's (`eval --card`, `groups --card`) on
 * `config` with `card` selected (drive.mjs's `differences`, all of them); `skip` leaves out the
 * differences whose text starts with one of its prefixes. Resolves to what the page shows.
 */
async function figuresAgree(driver, grid, config, card, what, skip = [], controls = config) {
  // With no card selected nothing is lit (the report is card 0's; callers skip its traffic rows).
  const want = expected(config, card ?? 0);
  // The derived DP is the controls' own (`controls`, which may be a rejected plan), never the
  // last valid one's.
  want.report = { ...want.report, dp: derivedDp(controls) };
  if (card === null) want.groups = {};
  let got;
  let diffs;
  try {
    await until(async () => {
      await driver.evaluate(showSection, `section-${grid}`);
      got = await driver.evaluate(readSection, `section-${grid}`);
      diffs = differences(got, want).filter((d) => !skip.some((prefix) => d.startsWith(prefix)));
      return diffs.length === 0 || { pending: diffs.length };
    }, what, { timeout: 10_000 });
  } catch {
    assert.deepEqual(diffs, [], `${what}: page and CLI differ on ${JSON.stringify(config)} card ${card}`);
  }
  return { got, report: want.report };
}

/** One line of what was compared, for the log. */
const figuresLine = (r) =>
  `DP ${r.dp}, total ${gb(r.memory.total)} (${r.memory.total} B), traffic ${r.comm.map((t) => `${t.dim} ${t.link} ${t.bytes} B`).join(' / ') || 'none'}, bubble ${r.bubble.ratio}, step ${r.estimate.step_s} s`;

/** After a journey: late requests answered, then nothing went wrong in the page or the server. */
async function checkProblems(driver, lab, log) {
  await until(() => lab.requests.open === 0 || { pending: lab.requests.open }, 'every request answered');
  const problems = [...(await driver.problems()), ...lab.httpErrors.splice(0)];
  assert.deepEqual(problems, [], 'console errors, page errors, failed loads or HTTP errors');
  log('no console error, page error, failed load or HTTP error');
}

/** The journeys, in order: name and `async (driver, lab, log) => …`. */
export const JOURNEYS = [
  ['the page loads with no console error; both grids draw the CLI\'s starting plans', async (driver, lab, log) => {
    await driver.goto(lab.baseUrl);
    await waitForGrids(driver, lab);
    for (const grid of [8, 64]) {
      const cards = await driver.evaluate(gridCards, `grid-${grid}`);
      assert.equal(cards.count, grid, `grid-${grid} draws ${grid} cards`);
      assert.deepEqual(cards.indices, [...Array(grid).keys()], `grid-${grid}'s cards are 0…${grid - 1}`);
      assert.deepEqual([cards.groups, cards.selected], [{}, []], `grid-${grid}: nothing lit before a click`);
      // No card is selected: the traffic rows are a selected card's, compared in the next journeys.
      const { report } = await figuresAgree(driver, grid, fullConfig(START[grid]), null, `grid-${grid} at the start`, ['traffic']);
      log(`grid-${grid}: ${cards.count} cards; ${JSON.stringify(START[grid])}: ${figuresLine(report).replace(/, traffic.*?, bubble/, ', bubble')}, every card's data-bytes = the CLI's`);
    }
    await checkProblems(driver, lab, log);
  }],

  ['the RL page and the planner draw the CLI\'s figures; their header link carries the plan back to the lesson', async (driver, lab, log) => {
    for (const entry of ['rl.html', 'plan.html']) {
      await driver.goto(`${lab.baseUrl}${entry}`);
      await waitForGrids(driver, lab);
      for (const grid of [8, 64]) {
        const cards = await driver.evaluate(gridCards, `grid-${grid}`);
        assert.equal(cards.count, grid, `${entry}: grid-${grid} draws ${grid} cards`);
        await figuresAgree(driver, grid, fullConfig(START[grid]), null, `${entry} grid-${grid} at the start`, ['traffic']);
      }
      const config = fullConfig(START[8]);
      await clickOn(driver, cardOf(8, 5));
      const cards = await selection(driver, 8, [5]);
      assert.deepEqual(cards.groups, cliGroups(config, 5), `${entry}: card 5's lit groups`);
      const { report } = await figuresAgree(driver, 8, config, 5, `${entry} grid-8 card 5`);
      log(`${entry}: both grids drawn; card 5 clicked: ${figuresLine(report)}`);
      // "Back to the lesson" carries the selected card; the lesson shows the same figures.
      await clickOn(driver, byTestId('to-lesson'));
      await until(async () => {
        try {
          return await driver.evaluate(() => document.documentElement.dataset.entry === 'lesson' && /c8=5/.test(location.hash));
        } catch {
          return { pending: 'the page is being replaced' };
        }
      }, 'the lesson, with card 5');
      await waitForGrids(driver, lab);
      await selection(driver, 8, [5]);
      await figuresAgree(driver, 8, config, 5, `${entry} → the lesson, grid-8 card 5`);
      log(`${entry} → the lesson: card 5 still selected, the same figures`);
    }
    await checkProblems(driver, lab, log);
  }],

  ['a clicked card lights the groups `groups --card` names, on both grids', async (driver, lab, log) => {
    await driver.goto(lab.baseUrl);
    await waitForGrids(driver, lab);
    for (const [grid, card] of [[8, 5], [64, 19]]) {
      const config = fullConfig(START[grid]);
      await clickOn(driver, cardOf(grid, card));
      const cards = await selection(driver, grid, [card]);
      assert.deepEqual(cards.groups, cliGroups(config, card), `grid-${grid}: card ${card}'s lit groups`);
      assert.deepEqual(cards.pressed, [card], 'aria-pressed on the clicked card alone');
      const { report } = await figuresAgree(driver, grid, config, card, `grid-${grid} card ${card}`);
      log(`grid-${grid} card ${card} clicked: ${Object.keys(cards.groups).length} cards lit = groups --card ${card}; ${figuresLine(report)}`);
      await clickOn(driver, cardOf(grid, card));
      const cleared = await selection(driver, grid, []);
      assert.deepEqual(cleared.groups, {}, 'clicked again: nothing lit');
    }
    await checkProblems(driver, lab, log);
  }],

  ['a card chosen by keys (End, Home, arrows, Enter, Escape) lights the CLI\'s groups', async (driver, lab, log) => {
    await driver.goto(lab.baseUrl);
    await waitForGrids(driver, lab);
    const config = fullConfig(START[64]);
    await focus(driver, cardOf(64, 0));
    // Four cards a row, eight a machine (as grid-64.test.mjs).
    const moves = [['End', 63], ['Home', 0], ['ArrowRight', 1], ['ArrowRight', 2], ['ArrowDown', 6], ['ArrowDown', 10], ['ArrowLeft', 9], ['ArrowUp', 5]];
    for (const [key, card] of moves) {
      await driver.press(key);
      await until(async () => (await driver.evaluate(focusedCard)) === card, `${key} moving the focus to card ${card}`);
    }
    log(`focus by keys: ${moves.map(([key, card]) => `${key} → ${card}`).join(', ')}`);
    for (const [key, card] of [[null, 5], ['End', 63]]) {
      if (key) {
        await driver.press(key);
        await until(async () => (await driver.evaluate(focusedCard)) === card, `${key} moving the focus to card ${card}`);
      }
      await driver.press('Enter');
      const cards = await selection(driver, 64, [card]);
      assert.deepEqual(cards.groups, cliGroups(config, card), `card ${card} chosen by Enter: its lit groups`);
      assert.deepEqual(cards.pressed, [card]);
      log(`Enter on card ${card}: ${JSON.stringify(cards.groups)} = groups --card ${card}`);
      await driver.press('Escape');
      const cleared = await selection(driver, 64, []);
      assert.deepEqual(cleared.groups, {}, 'Escape clears');
    }
    await checkProblems(driver, lab, log);
  }],

  ['PP moved by keys (Home, arrows, End) gives `eval --card`\'s figures at every position', async (driver, lab, log) => {
    await driver.goto(lab.baseUrl);
    await waitForGrids(driver, lab);
    const card = 9;
    const config = fullConfig(START[64]);
    let lastValid = { ...config };
    await clickOn(driver, cardOf(64, card));
    await selection(driver, 64, [card]);
    await focus(driver, byTestId('section-64', 'slider-pp'));
    const route = [['Home', 1], ...[2, 3, 4, 5, 6, 7, 8].map((pp) => ['ArrowRight', pp]), ['ArrowLeft', 7], ['ArrowLeft', 6], ['End', 8]];
    const seen = [];
    for (const [key, pp] of route) {
      await driver.press(key);
      const verdict = cli(['eval'], { ...config, pp });
      // The slider shows the new value, and a message exactly when the CLI rejects the plan.
      const slider = await until(async () => {
        const s = await driver.evaluate(sliderIn, 'section-64', 'slider-pp');
        const settled = s.position === pp && s.valuetext === String(pp) && s.label === String(pp) && !!s.message === !!verdict.error;
        return settled ? s : { pending: s };
      }, `${key}: PP ${pp}${verdict.error ? ' rejected' : ''}`);
      assert.ok(slider.focused, 'the slider keeps the focus');
      if (verdict.ok) lastValid = { ...config, pp };
      // A rejected plan leaves the figures on the last valid one.
      const { report } = await figuresAgree(driver, 64, lastValid, card, `${key} to PP ${pp}`, [], { ...config, pp });
      seen.push(`${key} → PP ${pp}: ${verdict.error ? `rejected ("${slider.message}"; CLI: ${verdict.error}), figures stay at PP ${lastValid.pp}` : figuresLine(report)}`);
    }
    for (const line of seen) log(line);
    await checkProblems(driver, lab, log);
  }],

  ['the language switch: English leaves no CJK character but the toggle\'s 中文; Chinese comes back intact', async (driver, lab, log) => {
    await driver.goto(lab.baseUrl);
    await waitForGrids(driver, lab);
    // Dynamic text on screen too: a selected card in each grid (legend, per-card traffic).
    for (const grid of [8, 64]) {
      await clickOn(driver, cardOf(grid, 0));
      await selection(driver, grid, [0]);
    }
    const chinese = await readPage(driver);
    assert.equal(chinese.lang, 'zh-CN');
    const cjkCount = (chinese.text.match(CJK) ?? []).length;
    assert.ok(cjkCount > 200, `the page starts in Chinese (${cjkCount} CJK characters)`);

    await clickOn(driver, byTestId('lang-toggle'));
    await until(async () => (await driver.evaluate(() => document.documentElement.lang)) === 'en', '<html lang="en">');
    const english = await readPage(driver);
    assert.doesNotMatch(english.title, CJK, 'the title is English');
    assert.match(english.text, /中文/, 'the toggle still offers 中文');
    const left = [...english.text.replace('中文', '').matchAll(CJK)].map((m) => JSON.stringify(english.text.slice(Math.max(0, m.index - 15), m.index + 15)));
    assert.deepEqual(left, [], 'Chinese characters left in the English page');

    await clickOn(driver, byTestId('lang-toggle'));
    await until(async () => (await driver.evaluate(() => document.documentElement.lang)) === 'zh-CN', '<html lang="zh-CN">');
    const back = await readPage(driver);
    assert.equal(back.text, chinese.text, 'switching back restores the Chinese text');
    log(`Chinese: ${chinese.text.length} characters read (${cjkCount} CJK); English: ${english.text.length} characters, none CJK but 中文, title "${english.title}"; back to Chinese: the same text`);
    await checkProblems(driver, lab, log);
  }],

  ['a section link (#sec=…) lands on its section and stays there', async (driver, lab, log) => {
    for (const id of ['part-three', 'part-four']) {
      await driver.goto('about:blank');
      await driver.goto(`${lab.baseUrl}#sec=${id}`);
      await waitForGrids(driver, lab);
      const top = () => driver.evaluate((section) => document.getElementById(section)?.getBoundingClientRect().top ?? null, id);
      await until(async () => {
        const now = await top();
        return (now !== null && Math.abs(now) < 2) || { pending: now };
      }, `#${id} at the top of the viewport`);
      // It stays: every frame for longer than the page's own settling (12 frames), with the
      // whole page drawn, and the address still names it.
      const after = await driver.evaluate(sectionTops, id, 30);
      assert.ok(after.tops.every((t) => Math.abs(t) < 2), `#${id} moved away: tops ${after.tops.join(', ')}`);
      assert.match(after.hash, new RegExp(`(^#|&)sec=${id}(&|$)`), 'the address names the section');
      log(`#sec=${id}: its top at ${after.tops[0]} px and still within 2 px over 30 frames after data-drawn="all"; address ${after.hash}`);
    }
    await checkProblems(driver, lab, log);
  }],

  ['an embedded widget on another origin sizes its iframe from the widget\'s messages', async (driver, lab, log) => {
    // The teacher sets PP 2 on the 64-card grid by keys (TP 8, DP 4) and takes the snippet.
    await driver.goto(lab.baseUrl);
    await waitForGrids(driver, lab);
    await focus(driver, byTestId('section-64', 'slider-pp'));
    for (const [key, pp] of [['Home', 1], ['ArrowRight', 2]]) {
      await driver.press(key);
      await until(async () => (await driver.evaluate(sliderIn, 'section-64', 'slider-pp')).position === pp, `${key}: PP ${pp}`);
    }
    await figuresAgree(driver, 64, fullConfig({ ...START[64], pp: 2 }), null, 'PP 2', ['traffic']);
    await clickOn(driver, byTestId('section-64', 'embed-grid-64'));
    const snippet = await until(
      () => driver.evaluate((css) => document.querySelector(css)?.value ?? '', byTestId('section-64', 'embed-code-grid-64')),
      'the embed snippet',
    );
    assert.match(snippet, /^<iframe src="[^"]*#[^"]*embed=grid-64[^"]*"[^>]*\bdata-parallel-lab\b[^>]*><\/iframe>\s*<script>[^]*<\/script>$/);
    assert.ok(snippet.includes(`src="${lab.baseUrl}embed.html#`), `the iframe points at the lab's embed.html: ${snippet}`);

    // The course page, on another origin, holds the snippet as the lab gave it.
    const recorder = lab.record ? '<script src="/__engine-recorder.js"></script>' : '';
    lab.coursePage.body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">${recorder}<title>Lesson 7: parallelism</title><link rel="icon" href="data:,"></head>
<body><h1>Lesson 7: parallelism</h1><p>Try the grid below.</p>
${snippet}
<p>End of the lesson.</p></body></html>`;
    await driver.goto(lab.courseUrl);
    assert.notEqual(new URL(lab.courseUrl).origin, new URL(lab.baseUrl).origin);
    const iframe = 'iframe[data-parallel-lab]';
    const frame = await driver.evaluate(courseFrame);
    assert.equal(frame.count, 1);
    assert.ok(frame.title?.trim(), 'the iframe has a title');
    await until(() => driver.frameEvaluate(iframe, gridsDrawn), 'the widget drawn in the frame');
    const inside = await driver.frameEvaluate(iframe, embedContent);
    assert.deepEqual(
      { widget: inside.widget, cards: inside.cards, pp: inside.pp, dp: inside.dp, absent: inside.absent },
      { widget: 'grid-64', cards: 64, pp: '2', dp: '4', absent: [] },
      'the frame shows the 64-card grid alone, at PP 2 (DP 4)',
    );

    /** Waits until the iframe's height is the one the widget reported for its content. */
    const sized = (what, accept = () => true) =>
      until(async () => {
        const outer = await driver.evaluate(courseFrame);
        const content = await driver.frameEvaluate(iframe, embedContent);
        const ok = outer.style !== null && Math.abs(outer.style - content.content) <= 2 && !content.scrolls && accept(outer, content);
        return ok ? { outer, content } : { pending: { style: outer.style, content: content.content, scrolls: content.scrolls, width: content.width } };
      }, what);
    const wide = await sized('the iframe sized to the widget');
    assert.notEqual(wide.outer.style, frame.attribute, 'the height is the reported one, not the initial attribute');
    // The course page's column narrows (as on a phone): the widget grows taller, and the
    // iframe follows. The course page is this test's own fixture, so its width is set here
    // (no engine-specific window resizing); what is asserted is the widget's message and the
    // snippet's script acting on it.
    await driver.evaluate(() => {
      document.body.style.maxWidth = '390px';
    });
    const narrow = await sized('the iframe following the narrower widget', (outer, content) => content.width < wide.content.width && content.content > wide.content.content);
    log(`snippet pasted on ${new URL(lab.courseUrl).origin}: iframe "${frame.title}", height attribute ${frame.attribute}; widget grid-64 alone at PP 2, DP 4, 64 cards; ` +
      `frame ${wide.content.width} px wide: iframe ${wide.outer.style} px for content ${wide.content.content} px; ${narrow.content.width} px wide: ${narrow.outer.style} px for ${narrow.content.content} px; the frame never scrolls`);
    await checkProblems(driver, lab, log);
  }],
];

/**
 * Registers one test per journey for `engine`: `openDriver()` gives a fresh browser context
 * or session (see the adapter interface above); `setup`/`teardown` start and stop the engine.
 */
const JOURNEY_LIMIT_MS = 5 * 60_000;

export function registerJourneys(engine, { setup, openDriver, teardown, record = false }) {
  let lab;
  before(async () => {
    lab = await startServers({ record });
    await setup?.();
  });
  after(async () => {
    await teardown?.();
    await lab?.close();
  });
  for (const [name, journey] of JOURNEYS) {
    // A journey takes seconds; the limit only ends one whose browser has gone away (a hung
    // driver call would otherwise hold the whole run), and it fails saying so.
    test(`${engine}: ${name}`, { timeout: JOURNEY_LIMIT_MS }, async (t) => {
      const driver = await openDriver();
      try {
        await journey(driver, lab, (line) => t.diagnostic(`${engine}: ${line}`));
      } finally {
        await driver.close();
        lab.httpErrors.splice(0);
      }
    });
  }
}
