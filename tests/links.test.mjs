// The page's state in its URL fragment (codec: crates/parallel-core/src/link.rs): a permalink
// opens with its plan, selected card and language; moving a slider writes the fragment back,
// pushing a history entry for changes at least 1 s apart, so Back and Forward step through
// them; the header's "copy link" copies the whole address; a hostile link loads what is
// valid and names the rest in a dismissable notice, as text only.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CJK, cardGroups, labForFile, openPage, setRange, settleAndCheck, visibleText } from './harness.mjs';

// The 64-card grid at TP 8 × PP 2 (DP 4), ZeRO-1, card 0 selected.
const PERMALINK = 'g64=tp8.pp2.z1&c64=0';
// A new history entry needs a pause of at least this long after the previous write.
const PAUSE_MS = 1100;

const lab = labForFile();

/** Card 0's groups at TP 8 × PP 2 × DP 4 on 64 cards: 1–7 tp, 8 pp, 16/32/48 dp. */
function card0Groups() {
  const groups = { 0: 'dp pp tp' };
  for (let card = 1; card <= 7; card++) groups[card] = 'tp';
  groups[8] = 'pp';
  for (const card of [16, 32, 48]) groups[card] = 'dp';
  return { groups, selected: [0] };
}

const hash = (page) => page.evaluate(() => decodeURIComponent(location.hash));
const historyLength = (page) => page.evaluate(() => history.length);

/** Scrolls `locator` to the middle of the viewport at once (the page's CSS scrolls smoothly). */
const scrollTo = (locator) => locator.evaluate((el) => el.scrollIntoView({ behavior: 'instant', block: 'center' }));

/** Waits until location.hash (decoded) matches `pattern`. */
async function waitForHash(page, pattern) {
  await page.waitForFunction((source) => new RegExp(source).test(decodeURIComponent(location.hash)), pattern.source);
}

test('a permalink opens with its plan and card 0 selected; slider changes 1 s apart are history entries for Back and Forward', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { fragment: PERMALINK });
  // A link written the lab's way is kept as it is. Read before anything scrolls: once the
  // reader (or visibleText below) scrolls to part two, the page writes that section into the
  // address (`&sec=part-two`), as it should.
  assert.equal(await hash(page), `#${PERMALINK}`);
  const section = page.getByTestId('section-64');
  assert.equal(await section.getByTestId('slider-tp').inputValue(), '8');
  assert.equal(await section.getByTestId('slider-pp').inputValue(), '2');
  assert.equal(await section.getByTestId('select-zero').inputValue(), '1');
  assert.equal(await visibleText(section.getByTestId('derived-dp')), '4', 'DP = 64 ÷ (8 · 2)');
  assert.deepEqual(await cardGroups(section.getByTestId('grid-64')), card0Groups());
  // The other grid is where the lesson starts, and the page is in Chinese.
  assert.deepEqual(await cardGroups(page.getByTestId('grid-8')), { groups: {}, selected: [] });
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  assert.equal(await page.getByTestId('link-notice').count(), 0, 'nothing in the link was ignored');
  // The plan and the card stay in the address, whatever section the scrolling wrote after them.
  assert.match(await hash(page), /^#g64=tp8\.pp2\.z1&c64=0(&sec=[a-z-]+)?$/);

  // Scroll to the slider first, as a student does: the section in view is written in place
  // (no new entry). Let that write age past the pause before moving the slider (moving it at
  // once: see the test below).
  const entries = await historyLength(page);
  const slider = section.getByTestId('slider-m');
  const bubble = section.getByTestId('bubble');
  await scrollTo(slider);
  await waitForHash(page, /&sec=part-/);
  await page.waitForTimeout(PAUSE_MS);
  assert.equal(await historyLength(page), entries, 'scrolling adds no history entry');

  await setRange(section, 'slider-m', 32);
  await waitForHash(page, /^#g64=tp8\.pp2\.m32\.z1&c64=0(&|$)/);
  assert.equal(Number(await bubble.getAttribute('data-ratio')), 0.03125);
  await page.waitForTimeout(PAUSE_MS);
  await setRange(section, 'slider-m', 16);
  await waitForHash(page, /^#g64=tp8\.pp2\.m16\.z1&c64=0(&|$)/);
  assert.equal(await historyLength(page), entries + 2, 'one history entry per change');

  await page.goBack();
  await waitForHash(page, /\.m32\./);
  assert.equal(await slider.inputValue(), '32');
  assert.equal(Number(await bubble.getAttribute('data-ratio')), 0.03125);
  assert.deepEqual(await cardGroups(section.getByTestId('grid-64')), card0Groups(), 'card 0 stays selected');

  await page.goBack();
  await waitForHash(page, /^#g64=tp8\.pp2\.z1&c64=0(&|$)/);
  assert.equal(await slider.inputValue(), '8');
  assert.equal(Number(await bubble.getAttribute('data-ratio')), 0.125);

  await page.goForward();
  await waitForHash(page, /\.m32\./);
  assert.equal(await slider.inputValue(), '32');
  assert.equal(Number(await bubble.getAttribute('data-ratio')), 0.03125);

  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('&lang=en opens in English; editing the fragment in place (hashchange) applies the new link', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { fragment: `${PERMALINK}&lang=en` });
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  assert.doesNotMatch(await page.title(), CJK, 'the title is English');
  assert.doesNotMatch(await visibleText(page.getByTestId('section-64')), CJK, 'part two is in English');
  assert.deepEqual(await cardGroups(page.getByTestId('grid-64')), card0Groups());

  // Same document, new fragment: back to Chinese, PP 4 on 64 cards, no card selected.
  await page.evaluate(() => {
    location.hash = 'g64=tp8.pp4';
  });
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  const section = page.getByTestId('section-64');
  assert.equal(await section.getByTestId('slider-pp').inputValue(), '4');
  assert.equal(await visibleText(section.getByTestId('derived-dp')), '2');
  assert.deepEqual(await cardGroups(page.getByTestId('grid-64')), { groups: {}, selected: [] });

  await settleAndCheck(page, problems, assert);
  await context.close();
});

test(
  'a change made right after scrolling into another section still gets its own history entry',
  async () => {
    const { page, context, problems } = await openPage(lab, undefined, { fragment: PERMALINK });
    const section = page.getByTestId('section-64');
    await scrollTo(section.getByTestId('slider-m'));
    await page.waitForTimeout(PAUSE_MS);
    await setRange(section, 'slider-m', 32);
    await waitForHash(page, /\.m32\./);
    await page.waitForTimeout(PAUSE_MS);
    // The student scrolls on to part three and back (the section in view changes twice), then
    // moves the slider at once.
    await scrollTo(page.locator('#part-three'));
    await waitForHash(page, /sec=part-three/);
    await scrollTo(section.getByTestId('slider-m'));
    await waitForHash(page, /sec=part-(one|two)/);
    await setRange(section, 'slider-m', 16);
    await waitForHash(page, /\.m16\./);

    await page.goBack();
    await waitForHash(page, /^(?!.*\.m16\.)/);
    assert.match(await hash(page), /\.m32\./, 'Back returns to m = 32, the state before the last change');
    assert.equal(await section.getByTestId('slider-m').inputValue(), '32');

    await settleAndCheck(page, problems, assert);
    await context.close();
  },
);

test(
  'opening a link not written the lab\'s way adds no history entry',
  async () => {
    const context = await lab.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${lab.baseUrl}#lang=en&g64=pp2.tp8`);
    await page.getByTestId('section-64').getByTestId('mem-states').waitFor();
    await waitForHash(page, /^#g64=tp8\.pp2&lang=en$/);
    assert.equal(await historyLength(page), 2, 'about:blank and the lab: the rewrite replaces its entry');
    await context.close();
  },
);

test(
  'every section a link can name (sec=…) is on the page: sec=counting-note opens at the counting note',
  async () => {
    const { page, context, problems } = await openPage(lab, undefined, { fragment: 'sec=counting-note' });
    const sections = ['intro', 'part-one', 'part-two', 'part-three', 'part-four', 'evolution', 'counting-note'];
    const missing = await page.evaluate((ids) => ids.filter((id) => !document.getElementById(id)), sections);
    assert.deepEqual(missing, [], 'sections without an element of that id');
    await page.waitForFunction(() => Math.abs(document.getElementById('counting-note')?.getBoundingClientRect().top ?? 1e9) < 2);
    await settleAndCheck(page, problems, assert);
    await context.close();
  },
);

test('copy link puts the whole address on the clipboard, or shows it in a field when the clipboard refuses', async () => {
  const { page, context, problems } = await openPage(lab, undefined, {
    fragment: `${PERMALINK}&lang=en`,
    setup: (_page, context) => context.grantPermissions(['clipboard-read', 'clipboard-write']),
  });
  await page.getByTestId('copy-link').click();
  await page.waitForFunction(async () => (await navigator.clipboard.readText()) === location.href);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${lab.baseUrl}#${PERMALINK}&lang=en`);
  assert.equal(await page.getByTestId('copy-link-text').count(), 0, 'no fallback when the copy worked');
  await settleAndCheck(page, problems, assert);
  await context.close();

  // A browser whose clipboard refuses: the address is shown instead, for a manual copy.
  const refused = await openPage(lab, undefined, {
    fragment: PERMALINK,
    setup: (page) =>
      page.addInitScript(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));
      }),
  });
  await refused.page.getByTestId('copy-link').click();
  const field = refused.page.getByTestId('copy-link-text');
  await field.waitFor({ state: 'visible' });
  assert.equal(await field.inputValue(), `${lab.baseUrl}#${PERMALINK}`);
  await settleAndCheck(refused.page, refused.problems, assert);
  await refused.context.close();
});

test('a hostile link loads its valid parts and names the rest in a notice, as text, with no dialog', async () => {
  const hostile =
    'g8=tp3.pp2.%3Cscript%3Ealert(1)%3C/script%3E&c64=999&x=%FF%FE&zero=NaN&' + 'x'.repeat(100 * 1024);
  const dialogs = [];
  const { page, context, problems } = await openPage(lab, undefined, {
    fragment: hostile,
    setup: (page) =>
      page.on('dialog', (dialog) => {
        dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        dialog.dismiss().catch(() => {});
      }),
  });
  const notice = page.getByTestId('link-notice');
  await notice.waitFor({ state: 'visible' });
  const text = await visibleText(notice);
  for (const part of ['g8: tp3', 'g8: <script>alert(1)', 'c64=999', 'x=\ufffd\ufffd', 'zero=NaN', 'xxxxxxxxxxxxxxxx']) {
    assert.ok(text.includes(part), `the notice names ${JSON.stringify(part)}: ${text}`);
  }
  assert.ok(text.length < 1000, `the notice quotes excerpts, not the 100 KB (${text.length} characters)`);
  // As text: the notice holds only its own markup, and no script anywhere carries the payload.
  const tags = await notice.evaluate((el) => [...new Set([...el.querySelectorAll('*')].map((e) => e.localName))].sort());
  assert.deepEqual(tags, ['button', 'li', 'p', 'strong', 'ul']);
  assert.equal(
    await page.evaluate(() => [...document.querySelectorAll('script')].filter((s) => s.textContent.includes('alert')).length),
    0,
  );

  // The valid part applied: PP 2 on 8 cards (TP 3 ignored), DP 4; card 999 ignored.
  const section8 = page.getByTestId('section-8');
  assert.equal(await section8.getByTestId('slider-pp').inputValue(), '2');
  assert.equal(await section8.getByTestId('slider-tp').inputValue(), '1');
  assert.equal(await visibleText(section8.getByTestId('derived-dp')), '4');
  assert.deepEqual(await cardGroups(page.getByTestId('grid-64')), { groups: {}, selected: [] });

  await page.getByTestId('link-notice-dismiss').click();
  await notice.waitFor({ state: 'hidden' });
  assert.equal(await notice.count(), 0);

  await settleAndCheck(page, problems, assert);
  assert.deepEqual(dialogs, [], 'no dialog opened');
  await context.close();
});
