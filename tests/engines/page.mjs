// Functions that run inside the page (through an engine adapter's `evaluate`): each is
// serialized on its own, so it may use nothing from this module's scope. They read what the
// page shows in the same shapes as harness.mjs and drive.mjs (which need playwright).

export { readingText, readSection } from '../in-page.mjs';

/**
 * Whether both grids have drawn their figures and the parts below them are drawn too
 * (`<html data-drawn="all">`), as harness.mjs's waitForGrids waits for; or, in an embedded
 * widget, whether its figures are there; either once the wasm has taken over from the first
 * screen (`<html data-app="mounted">`). Returns true, or `{ pending }` saying what is missing.
 */
export function gridsDrawn() {
  const visible = (element) => !!element && element.getClientRects().length > 0;
  const root = document.documentElement;
  // The first screen in the HTML shows figures before the wasm has taken over.
  if (root.dataset.app !== 'mounted') return { pending: 'the wasm' };
  if (root.classList.contains('embedded-page')) {
    return visible(document.querySelector('[data-testid="embed-root"] [data-testid="mem-states"]')) || { pending: 'the widget' };
  }
  for (const id of ['section-8', 'section-64']) {
    if (!visible(document.querySelector(`[data-testid="${id}"] [data-testid="mem-states"]`))) return { pending: `${id}'s figures` };
  }
  return root.dataset.drawn === 'all' || { pending: `data-drawn=${root.dataset.drawn}` };
}

/** Whether the pointer rests over no card of any grid (no card matches `:hover`): true, or `{ pending }` naming the card. */
export function noCardHovered() {
  const card = document.querySelector('[data-card]:hover');
  return !card || { pending: `${card.closest('[data-testid^="grid-"]')?.dataset.testid} card ${card.dataset.card}` };
}

/** Every card of a grid: count, their indices in order, and the lit groups and selection (as harness's cardGroups). */
export function gridCards(gridTestId) {
  const grid = document.querySelector(`[data-testid="${gridTestId}"]`);
  if (!grid) return null;
  const cards = [...grid.querySelectorAll('[data-card]')];
  const groups = {};
  const selected = [];
  const pressed = [];
  for (const card of cards) {
    const value = card.getAttribute('data-groups');
    if (value) groups[card.dataset.card] = value.trim().split(/\s+/).sort().join(' ');
    if (card.getAttribute('data-selected') === 'true') selected.push(Number(card.dataset.card));
    if (card.getAttribute('aria-pressed') === 'true') pressed.push(Number(card.dataset.card));
  }
  return { count: cards.length, indices: cards.map((c) => Number(c.dataset.card)), groups, selected, pressed };
}

/**
 * Brings the grid's section `sectionTestId` on screen if it is not, and waits two frames: a
 * section far from the viewport is not rendered (`content-visibility: auto`) and its innerText
 * is empty. Then `readSection` reads it as a student sees it.
 */
export async function showSection(sectionTestId) {
  const section = document.querySelector(`[data-testid="${sectionTestId}"]`);
  if (section.getBoundingClientRect().bottom < 0 || section.getBoundingClientRect().top > innerHeight) {
    section.scrollIntoView({ behavior: 'instant', block: 'start' });
  }
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return true;
}

/**
 * A slider as the student sees it: position, aria-valuetext, its label's value and the
 * message under it (or null).
 */
export function sliderIn(sectionTestId, testId) {
  const input = document.querySelector(`[data-testid="${sectionTestId}"] [data-testid="${testId}"]`);
  const control = input.closest('.control');
  const error = control.querySelector('.control-error');
  return {
    position: Number(input.value),
    valuetext: input.getAttribute('aria-valuetext'),
    label: control.querySelector('.control-value').innerText.trim(),
    message: error ? error.innerText.trim() || error.textContent.trim() : null,
    focused: document.activeElement === input,
  };
}

/**
 * Brings the element `selector` finds to the middle of the viewport, then, once the browser
 * has drawn it there, resolves to the viewport point at its centre and whether that point hits
 * the element (or something inside it), as a person looks before pressing.
 */
export async function centreOf(selector) {
  const element = document.querySelector(selector);
  if (!element) return { pending: `no ${selector}` };
  element.scrollIntoView({ behavior: 'instant', block: 'center', inline: 'center' });
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const box = element.getBoundingClientRect();
  const x = Math.round(box.left + box.width / 2);
  const y = Math.round(box.top + box.height / 2);
  const hit = document.elementFromPoint(x, y);
  return { x, y, hits: !!hit && (hit === element || element.contains(hit)) };
}

/** Focuses the element `selector` finds (the start of a keyboard route); true when it has focus. */
export function focusOn(selector) {
  const element = document.querySelector(selector);
  element.focus();
  return document.activeElement === element;
}

/** The focused element's `data-card`, or null. */
export function focusedCard() {
  const card = document.activeElement?.getAttribute('data-card');
  return card === null || card === undefined ? null : Number(card);
}

/**
 * Where the section `id` is over the next `frames` animation frames: its top edge in each
 * (0 = at the top of the viewport), and the address's fragment at the end.
 */
export async function sectionTops(id, frames) {
  const tops = [];
  for (let i = 0; i < frames; i++) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    tops.push(Math.round(document.getElementById(id).getBoundingClientRect().top * 10) / 10);
  }
  return { tops, hash: decodeURIComponent(location.hash) };
}

/** The embedded widget's content height (its root's bottom edge) and whether its frame scrolls. */
export function embedContent() {
  const root = document.querySelector('[data-testid="embed-root"]');
  if (!root) return { pending: 'no embed-root' };
  const pp = root.querySelector('[data-testid="slider-pp"]');
  return {
    content: Math.ceil(root.getBoundingClientRect().bottom + scrollY),
    scrolls: document.documentElement.scrollHeight > innerHeight + 1,
    widget: root.getAttribute('data-widget'),
    cards: root.querySelectorAll('[data-testid="grid-64"] [data-card]').length,
    pp: pp ? pp.value : null,
    dp: root.querySelector('[data-testid="derived-dp"]')?.textContent.trim() ?? null,
    absent: ['lang-toggle', 'copy-link', 'section-8', 'grid-8', 'embed-grid-64'].filter((id) => document.querySelector(`[data-testid="${id}"]`)),
    width: innerWidth,
  };
}

/** The course page's iframe: its title, initial height attribute and style height (px, or null). */
export function courseFrame() {
  const frames = document.querySelectorAll('iframe[data-parallel-lab]');
  const frame = frames[0];
  const style = frame && /^\d+(\.\d+)?px$/.test(frame.style.height) ? parseFloat(frame.style.height) : null;
  return { count: frames.length, title: frame?.getAttribute('title') ?? null, attribute: Number(frame?.getAttribute('height')), style, width: innerWidth };
}
