// No text is drawn over other text, and no box cuts its own text off, anywhere on the lesson
// page, at 1,280 × 800, at the 1,400 × 900 a student starts at, and on a 390 × 844 phone:
// every visible line of text (HTML and the device grids' SVG, in both languages) is measured,
// and any two lines of different text nodes that cross by more than 2 px both ways fail the
// test with their words and where they are. The page is walked to the bottom first, so that
// the parts drawn late are drawn; both grids have a card selected (their groups lit).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, STUDENT, labForFile, openPage, settleAndCheck } from './harness.mjs';

const lab = labForFile();

/** Pairs of crossing lines of text on the whole page, in page coordinates (at most 10). */
function crossings(page) {
  return page.evaluate(() => {
    const hidden = (el) => {
      // Not drawn: the contents of a closed <details> (all but its summary), or anything the
      // browser itself says is not visible.
      const closed = el.closest('details:not([open])');
      if (closed && !el.closest('summary')) return true;
      if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return true;
      for (let a = el; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return true;
        // Visually hidden text for screen readers (a 1 px clipped box).
        if (s.position === 'absolute' && a.getBoundingClientRect().width <= 1) return true;
      }
      return false;
    };
    const lines = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.trim();
      const el = node.parentElement;
      if (!text || !el || el.closest('select, option, textarea, script, style, [popover]') || hidden(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width < 1 || r.height < 1) continue;
        lines.push({ node, text: text.slice(0, 40), x0: r.left + scrollX, x1: r.right + scrollX, y0: r.top + scrollY, y1: r.bottom + scrollY });
      }
    }
    lines.sort((a, b) => a.y0 - b.y0);
    const out = [];
    for (let i = 0; i < lines.length && out.length < 10; i++) {
      const a = lines[i];
      for (let j = i + 1; j < lines.length && lines[j].y0 < a.y1 - 2; j++) {
        const b = lines[j];
        if (a.node === b.node) continue;
        const dx = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
        const dy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
        if (dx > 2 && dy > 2) {
          const where = (l) => `${JSON.stringify(l.text)} at (${Math.round(l.x0)}, ${Math.round(l.y0)})`;
          out.push(`${where(a)} × ${where(b)}`);
        }
      }
    }
    return out;
  });
}

/**
 * Elements that cut their own text off: a visible box that clips its overflow (hidden or
 * clip, not a scroller a reader can move) while its content is wider or taller than it, and
 * text ending in an ellipsis the browser drew. Returns at most 10, with their words.
 */
function cutOff(page) {
  return page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      if (out.length >= 10) break;
      if (!el.textContent.trim() || el.closest('details:not([open])') && !el.closest('summary')) continue;
      if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) continue;
      const s = getComputedStyle(el);
      const clips = (v) => v === 'hidden' || v === 'clip';
      const wide = clips(s.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const tall = clips(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
      // The visually hidden text for screen readers clips on purpose.
      if (el.classList.contains('sr-only')) continue;
      if (wide || tall || (s.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)) {
        out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${el.textContent.trim().slice(0, 50)}" ${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight}`);
      }
    }
    return out;
  });
}

for (const [name, options] of [['desktop', DESKTOP], ['student', STUDENT], ['phone', PHONE]]) {
  for (const lang of ['zh', 'en']) {
    test(`${name} (${lang}): no text crosses other text or is cut off anywhere on the page`, async () => {
      const { page, context, problems } = await openPage(lab, options, { fragment: `lang=${lang}&c8=0&c64=0` });
      // Walk down to the bottom, screen by screen, so that every part is drawn.
      const height = options.viewport.height;
      for (let y = 0; ; y += height) {
        await page.evaluate((to) => window.scrollTo(0, to), y);
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        const bottom = await page.evaluate(() => document.documentElement.scrollHeight);
        if (y + height >= bottom) break;
      }
      await page.evaluate(() => document.fonts.ready);
      const found = await crossings(page);
      assert.deepEqual(found, [], `text over text:\n${found.join('\n')}`);
      const cut = await cutOff(page);
      assert.deepEqual(cut, [], `text cut off by its box:\n${cut.join('\n')}`);
      await settleAndCheck(page, problems, assert);
      await context.close();
    });
  }
}
