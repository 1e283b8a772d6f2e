// Layout at desktop (1280×800) and phone (390×844) sizes: the page never scrolls sideways, and
// screenshots of both grids' sections and of the whole page land in tests/artifacts/
// (gitignored) for a human to look at: {desktop,phone}-{section-8,section-64,page}.png.
// The grids show the lesson's plans with card 0 selected: part one DP 8 · ZeRO-3, part two
// TP 8 × PP 2 × DP 4 · ZeRO-1.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ARTIFACTS, DESKTOP, PHONE, STUDENT, openPage, setRange, settleAndCheck, startLab } from './harness.mjs';
import { SLIDERS, keyboardTo } from './drive.mjs';

let lab;
before(async () => {
  lab = await startLab();
  await mkdir(ARTIFACTS, { recursive: true });
});
after(async () => {
  await lab?.close();
});

/**
 * What reaches past the right edge of the viewport outside any scrolling or clipping box
 * (a table in its own scroller is fine): elements and lines of text, for a failure message.
 */
function overflowing(page, width) {
  return page.evaluate((width) => {
    const scrolls = (el) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      }
      return false;
    };
    const describe = (el) => {
      const id = el.getAttribute('data-testid') ?? el.id;
      const classes = (el.getAttribute('class') ?? '').trim().split(/\s+/).filter(Boolean);
      return [el.tagName.toLowerCase(), id && `#${id}`, ...classes.map((c) => `.${c}`)].join('');
    };
    const out = [];
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 1 && !scrolls(el)) out.push(`${describe(el)} right=${Math.round(box.right)}`);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement || scrolls(node)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const right = Math.max(0, ...[...range.getClientRects()].map((r) => r.right));
      if (right > width + 1) {
        out.push(`text in ${describe(node.parentElement)} right=${Math.round(right)}: ${JSON.stringify(node.textContent.slice(0, 60))}`);
      }
    }
    return out.slice(0, 8);
  }, width);
}

for (const [name, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  const { width, height } = options.viewport;
  test(`${name} ${width}×${height}: no sideways scroll; screenshots of both grids and the page`, async () => {
    const { page, context, problems } = await openPage(lab, options);
    const section8 = page.getByTestId('section-8');
    const section64 = page.getByTestId('section-64');
    await setRange(section64, 'slider-tp', 8);
    await setRange(section64, 'slider-pp', 2);
    await section64.getByTestId('select-zero').selectOption('1');
    for (const section of [section8, section64]) {
      const card = section.getByTestId('card-0');
      await (options.hasTouch ? card.tap() : card.click());
      assert.equal(await card.getAttribute('data-selected'), 'true');
    }
    await page.evaluate(() => document.fonts.ready);

    // Every card's labels, its rank and its coordinates ("t0 c0 p0 d0"), drawn at 7 px or
    // more on both grids: the font size times the drawing's scale on screen (a phone stands
    // the 64 cards' node boxes one a row for it).
    for (const section of [section8, section64]) {
      const smallest = await section.locator('.card-rank, .card-coords').evaluateAll((texts) => Math.min(
        ...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a),
      ));
      assert.ok(smallest >= 7, `${name}: a card label drawn at ${smallest.toFixed(1)} px`);
    }

    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(
      scrollWidth <= width + 1,
      `page is ${scrollWidth}px wide in a ${width}px viewport; past the edge: ${(await overflowing(page, width)).join('; ')}`,
    );

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-page.png`), fullPage: true });
    // No `style` option here: Playwright would inject a <style> element, which the page's
    // Content-Security-Policy rightly refuses (style-src allows only the page's own style).
    await section8.screenshot({ path: path.join(ARTIFACTS, `${name}-section-8.png`) });
    await section64.screenshot({ path: path.join(ARTIFACTS, `${name}-section-64.png`) });

    await settleAndCheck(page, problems, assert);
    await context.close();
  });
}

// On a phone the traffic table is wider than the screen: a student scrolls it sideways (here with
// the arrow keys, after tapping it), then moves a slider that adds or removes one of its rows.
// The table is redrawn for its new rows and must stay where the student scrolled it.
test('phone: the traffic table keeps its sideways scroll when a slider adds or removes a row', async () => {
  const { page, context, problems } = await openPage(lab, PHONE);
  const section = page.getByTestId('section-64');
  const tp = SLIDERS.find((s) => s.field === 'tp');
  await keyboardTo(section, tp, 8, 'ends');
  const box = section.locator('.grid-lab-traffic .table-scroll');
  await box.scrollIntoViewIfNeeded();
  const { scrollWidth, clientWidth } = await box.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  assert.ok(scrollWidth > clientWidth + 100, `the table fits (${scrollWidth} ≤ ${clientWidth} + 100): nothing to scroll`);
  await box.tap();
  // Arrow keys scroll smoothly: a key press starts a scroll, `scrollend` says it is over. Two
  // presses (about 40 px each) stay within the 100 px the box can scroll, so each one scrolls.
  await box.evaluate((el) => {
    el.scrollDone = true;
    const running = () => (el.scrollDone = false);
    document.addEventListener('keydown', running, true);
    el.addEventListener('scroll', running);
    el.addEventListener('scrollend', () => (el.scrollDone = true));
  });
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
  await box.evaluate((el) => new Promise((resolve) => {
    const check = () => (el.scrollDone ? resolve() : requestAnimationFrame(check));
    check();
  }));
  const scrolled = await box.evaluate((el) => el.scrollLeft);
  assert.ok(scrolled > 40, `two presses of → scrolled the table ${scrolled}px`);
  // TP down to 1 (its row goes) and back up to 8 (it comes back), a key press at a time; a
  // table narrower than the scroll stops at its end, as a browser does.
  const slider = section.getByTestId('slider-tp');
  await slider.focus();
  for (const [key, end, row] of [['ArrowLeft', 1, 0], ['ArrowRight', 8, 1]]) {
    for (let i = 0; i < 7; i++) {
      await page.keyboard.press(key);
      const value = Number(await slider.inputValue());
      const [left, max] = await box.evaluate((el) => [el.scrollLeft, el.scrollWidth - el.clientWidth]);
      assert.equal(left, Math.min(scrolled, max), `TP ${value}: the table was scrolled to ${scrolled}px (at most ${max})`);
    }
    assert.equal(Number(await slider.inputValue()), end);
    assert.equal(await section.getByTestId('traffic-tp').count(), row, `TP ${end}: ${row ? 'a' : 'no'} TP row`);
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});

// With one stage there is no schedule to draw: the note that says so stands once, where the
// drawing would be, not a second time as its caption.
test('PP = 1: the schedule says "a single stage" once', async () => {
  let seen = 0;
  for (const entry of ['', 'rl.html', 'plan.html']) {
    const { page, context, problems } = await openPage(lab, DESKTOP, { entry });
    await page.getByTestId('lang-toggle').click();
    for (const grid of ['8', '64']) {
      const section = page.getByTestId(`section-${grid}`);
      await keyboardTo(section, SLIDERS.find((s) => s.field === 'pp'), 1);
      const text = await section.innerText();
      const times = text.split('PP = 1: a single stage, no pipeline and no bubble.').length - 1;
      assert.ok(times <= 1, `${entry || 'index.html'} grid ${grid}: the note ${times} times`);
      seen += times;
    }
    await settleAndCheck(page, problems, assert);
    await context.close();
  }
  assert.ok(seen > 0, 'some page draws the schedule');
});

// What a person sees of the controls, on the RL page (every control) at 1,400 × 900 and on a
// phone, in both languages: a switch's box sits beside its label, no select cuts the text of
// any of its options, and a card's "!" (over its capacity) overlaps none of the card's texts.
test('switches beside their labels, selects wide enough for their options, the "!" clear of the texts', async () => {
  for (const options of [STUDENT, PHONE]) {
    const { page, context, problems } = await openPage(lab, options, { entry: 'rl.html' });
    for (const lang of ['zh', 'en']) {
      if (lang === 'en') await page.getByTestId('lang-toggle').click();
      const where = `${options.viewport.width}×${options.viewport.height} ${lang}`;
      for (const id of ['toggle-offload', 'toggle-rollout']) {
        const box = page.getByTestId(id).first();
        const [b, l] = [await box.boundingBox(), await box.locator('xpath=following-sibling::label[1]').boundingBox()];
        assert.ok(b.x + b.width <= l.x, `${where} ${id}: the box (right ${b.x + b.width}) is left of its label (${l.x})`);
        const [bc, lc] = [b.y + b.height / 2, l.y + l.height / 2];
        assert.ok(Math.abs(bc - lc) <= l.height / 2, `${where} ${id}: the box and its label on one line`);
      }
      const cut = await page.evaluate(() => {
        const out = [];
        const ctx = document.createElement('canvas').getContext('2d');
        for (const select of document.querySelectorAll('.controls select')) {
          if (!select.offsetParent) continue; // behind a closed disclosure
          const style = getComputedStyle(select);
          ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          // Room for the text: the box less its padding, border and the arrow (about 1.5em).
          const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
            - 1.5 * parseFloat(style.fontSize);
          for (const option of select.options) {
            const width = ctx.measureText(option.text).width;
            if (width > room) out.push(`${select.dataset.testid}: "${option.text}" ${Math.round(width)} > ${Math.round(room)}`);
          }
        }
        return out;
      });
      assert.deepEqual(cut, [], `${where}: selects that cut their options`);
    }
    await settleAndCheck(page, problems, assert);
    await context.close();
  }
  // A card over its capacity: the 8-card grid at PP 1 with selective recompute.
  const { page, context, problems } = await openPage(lab, DESKTOP, { fragment: 'g8=tp1.pp1.selective' });
  const card = page.getByTestId('grid-8').getByTestId('card-0');
  await card.locator('.card-over').waitFor();
  // The ink of each text (canvas measureText at the text's own font, from its baseline and
  // anchor): what a person sees, not the line boxes, which overlap by design.
  const overlaps = await card.evaluate((g) => {
    const ctx = document.createElement('canvas').getContext('2d');
    const ink = (t) => {
      const style = getComputedStyle(t);
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const m = ctx.measureText(t.textContent);
      const x = Number(t.getAttribute('x'));
      const y = Number(t.getAttribute('y'));
      const left = t.getAttribute('text-anchor') === 'end' ? x - m.width : x;
      return { left, right: left + m.width, top: y - m.actualBoundingBoxAscent, bottom: y + m.actualBoundingBoxDescent };
    };
    const mark = ink(g.querySelector('.card-over'));
    return [...g.querySelectorAll('text:not(.card-over)')]
      .filter((t) => t.textContent.trim() !== '')
      .map((t) => [t.getAttribute('class'), ink(t)])
      .filter(([, r]) => r.left < mark.right && mark.left < r.right && r.top < mark.bottom && mark.top < r.bottom)
      .map(([c, r]) => `${c} ${JSON.stringify(r)} against ${JSON.stringify(mark)}`);
  });
  assert.deepEqual(overlaps, [], 'the "!" overlaps no text of its card');
  await settleAndCheck(page, problems, assert);
  await context.close();
});

// On a phone the traffic table scrolls sideways, but what a row is about stays in view before
// any scroll: its dimension, its bytes per card and its link, on both grids.
test('phone: each traffic row shows its bytes and link without scrolling the table', async () => {
  const { page, context, problems } = await openPage(lab, PHONE);
  const { width } = PHONE.viewport;
  for (const gpus of [8, 64]) {
    const table = page.getByTestId(`section-${gpus}`).locator('.grid-lab-traffic table');
    await table.scrollIntoViewIfNeeded();
    const rows = await table.evaluate((t) => [...t.querySelectorAll('tbody tr[data-testid^="traffic-"]')].map((tr) => ({
      dim: tr.dataset.testid,
      cells: [...tr.children].slice(0, 3).map((c) => ({ text: c.textContent.trim(), right: c.getBoundingClientRect().right })),
    })));
    assert.ok(rows.length > 0, `grid-${gpus} has traffic rows`);
    for (const row of rows) {
      assert.match(row.cells[1].text, /GB$/, `${row.dim}: the second column is the bytes`);
      for (const cell of row.cells) {
        assert.ok(cell.right <= width + 1, `${row.dim}: "${cell.text}" ends at ${Math.round(cell.right)} px, past the ${width} px screen`);
      }
    }
  }
  await settleAndCheck(page, problems, assert);
  await context.close();
});
