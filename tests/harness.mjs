// Shared by the end-to-end tests (`*.test.mjs`) and the benchmark (`bench.mjs`): serves the
// built page (../dist, from `trunk build --release`) as plain files on 127.0.0.1, launches
// Debian's headless Chromium through playwright-core, and records everything that went wrong
// on a page (console errors, uncaught exceptions, failed requests, HTTP errors).
//
// Not a test file itself: `node --test` only picks up `*.test.mjs`.

import http from 'node:http';
import { gzipSync, constants as zlibConstants } from 'node:zlib';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { readingText as readingInPage } from './in-page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// The built page; DIST overrides (scripts/bench.sh builds into its own folder).
export const DIST = path.resolve(process.env.DIST ?? path.join(HERE, '..', 'dist'));
export const ARTIFACTS = path.join(HERE, 'artifacts');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
// Without the networking flags Chromium keeps trying to reach outside hosts.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { viewport: { width: 1280, height: 800 } };
/** The window a student starts the lesson in (issues 36 and 37 measured the page at it). */
export const STUDENT = { viewport: { width: 1400, height: 900 } };
export const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 1,
};

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * Serves `root` as static files on 127.0.0.1 (a free port); resolves to the server.
 * `headers` are added to every response. `prefix` (e.g. "/course/parallel-lab/") puts the
 * folder under that path and answers 404 everywhere else. `files` maps extra absolute paths
 * to `{ type, body }` (e.g. a course page that embeds the lab); `root` may be null to serve
 * only those. Every request's path is appended to `server.requests`. With `gzip`, the files of
 * `root` go out gzip -9 encoded to a client that accepts it, as a static host serves them
 * (the load benchmark's network emulation counts the bytes that travel).
 */
export function serveStatic(root, headers = {}, { prefix = '/', files = {}, gzip = false } = {}) {
  const requests = [];
  const packed = new Map();
  const encode = (file, body) => {
    if (!packed.has(file)) packed.set(file, gzipSync(body, { level: zlibConstants.Z_BEST_COMPRESSION }));
    return packed.get(file);
  };
  const server = http.createServer(async (req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(pathname);
    const extra = files[pathname];
    if (extra) {
      res.writeHead(200, { ...headers, 'content-type': extra.type, 'cache-control': 'no-store' }).end(extra.body);
      return;
    }
    if (!root || !pathname.startsWith(prefix)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    let file = path.join(root, path.normalize(decodeURIComponent(pathname.slice(prefix.length - 1))));
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file);
      const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        res.writeHead(200, { ...headers, 'content-type': type, 'cache-control': 'no-store', 'content-encoding': 'gzip', vary: 'accept-encoding' }).end(encode(file, body));
        return;
      }
      res.writeHead(200, { ...headers, 'content-type': type, 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  server.requests = requests;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** The server's own address: `http://127.0.0.1:PORT`. */
export function origin(server) {
  return `http://127.0.0.1:${server.address().port}`;
}

/** Stops a server, dropping kept-alive connections. */
export function stopServer(server) {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(resolve));
}

/**
 * Starts the static server over dist/ and a headless Chromium. Call `close()` when done.
 * Resolves to `{ baseUrl, server, browser, close }`. `isolated` serves the page cross-origin
 * isolated (COOP + COEP), which gives `performance.now()` a finer resolution (the benchmark
 * wants it). `prefix` serves dist/ under that path only (sub-path hosting); `baseUrl` then
 * ends with it. `files` adds files by absolute path (see `serveStatic`). `dist` serves another
 * build than DIST (the benchmark's side-by-side comparison). `gzip` serves the files gzipped.
 */
export async function startLab({ isolated = false, prefix = '/', files = {}, dist = DIST, gzip = false } = {}) {
  await stat(path.join(dist, 'index.html')).catch(() => {
    throw new Error(`no ${dist}/index.html: run \`trunk build --release\` first`);
  });
  const headers = isolated
    ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' }
    : {};
  const server = await serveStatic(dist, headers, { prefix, files, gzip });
  const baseUrl = `${origin(server)}${prefix}`;
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  } catch (error) {
    await stopServer(server);
    throw error;
  }
  const close = async () => {
    await browser.close();
    await stopServer(server);
  };
  return { baseUrl, server, browser, close };
}

/**
 * The lab of one test file: started (`startLab(options)`) before its first test and closed
 * after its last. The object returned is filled in when the lab starts, so the file's tests
 * read `lab.baseUrl` and pass `lab` to `openPage` as they would `startLab`'s own.
 */
export function labForFile(options) {
  const lab = {};
  before(async () => {
    Object.assign(lab, await startLab(options));
  });
  after(async () => {
    await lab.close?.();
  });
  return lab;
}

/** A minimal HTML page: `title`, no favicon request, and `body` as given. */
export const htmlPage = (title, body) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head><body>${body}</body></html>`;

/**
 * The course site of one test file: a server on another port than the lab's, so another
 * origin, started before the file's first test and stopped after its last. It serves
 * `/lesson.html`, whose HTML `openCourse` sets, and `files` beside it (see `serveStatic`).
 * `course.origin` is its address once it runs.
 */
export function courseForFile(files = {}) {
  const course = { lesson: { type: 'text/html; charset=utf-8', body: '' } };
  before(async () => {
    course.server = await serveStatic(null, {}, { files: { '/lesson.html': course.lesson, ...files } });
    course.origin = origin(course.server);
  });
  after(async () => {
    if (course.server) await stopServer(course.server);
  });
  return course;
}

/**
 * Opens `course`'s lesson page holding `html` in a fresh desktop context and waits until the
 * lab's grid in the iframe `frame` (a selector) is drawn. Resolves to
 * `{ page, context, problems, inner }`, `inner` the frame's locator.
 */
export async function openCourse(lab, course, html, frame = 'iframe', options = DESKTOP) {
  course.lesson.body = html;
  const context = await lab.browser.newContext(options);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${course.origin}/lesson.html`, { waitUntil: 'load' });
  const inner = page.frameLocator(frame);
  await waitForApp(inner);
  await inner.getByTestId('mem-states').waitFor({ state: 'visible', timeout: 30_000 });
  return { page, context, problems, inner };
}

/**
 * Records on `problems` every console error, page error, failed request and HTTP error of
 * `page` (its frames included). Returns `problems`.
 */
export function watchProblems(page, problems = []) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

/**
 * Waits until the wasm has taken over from the page's first screen (drawn at build time,
 * scripts/first-screen.mjs): `<html data-app="mounted">`, set in the task that replaced it.
 * `scope` is a page or a frame locator. Until then a test id can match the first screen's
 * copies (one per language and link).
 */
export async function waitForApp(scope) {
  await scope.locator('html[data-app="mounted"]').waitFor({ state: 'attached', timeout: 30_000 });
}

/**
 * Waits until the wasm app has rendered both grids' figures, and then the parts below them,
 * which the page draws one task after another once the first frame is out
 * (`<html data-drawn="all">`; an embedded widget has no such parts).
 */
export async function waitForGrids(page, { firstScreen = true } = {}) {
  // A build from before the first screens (bench.sh --before REV) has nothing to take over from.
  if (firstScreen) await waitForApp(page);
  for (const id of ['section-8', 'section-64']) {
    await page
      .getByTestId(id)
      .getByTestId('mem-states')
      .waitFor({ state: 'visible', timeout: 30_000 });
  }
  await page.waitForFunction(
    () => document.documentElement.classList.contains('embedded-page') || document.documentElement.dataset.drawn === 'all',
    null,
    { timeout: 30_000 },
  );
}

/**
 * Opens the page in a fresh context (`options`: DESKTOP or PHONE) and waits until the wasm app
 * has rendered both grids. Resolves to `{ page, context, problems }`: `problems` collects every
 * console error, page error, failed request and HTTP error from the first request on.
 * `fragment` (e.g. "g64=tp8.pp2") is appended to the page's address after a `#`; `setup`
 * (`async (page, context) => …`) runs before the page is opened (listeners, init scripts).
 * `entry` opens another page than the lesson: 'rl.html' (the RL layout step) or 'plan.html'
 * (the planner); both have the two grids. `firstScreen: false` opens a build from before the
 * first screens (issue 53), which has no takeover to wait for.
 */
export async function openPage(lab, options = DESKTOP, { fragment, setup, entry = '', firstScreen = true } = {}) {
  const context = await lab.browser.newContext(options);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await setup?.(page, context);
  const at = `${lab.baseUrl}${entry}`;
  const url = fragment === undefined ? at : `${at}#${fragment}`;
  await page.goto(url, { waitUntil: 'load' });
  await waitForGrids(page, { firstScreen });
  return { page, context, problems };
}

/**
 * A test on a freshly opened page: `openPage(lab, options, open)` (`open`, which may be left
 * out, holds `options`, DESKTOP when absent, and `openPage`'s `fragment`, `setup`, `entry`), then
 * `body({ page, context, problems })`; after it, nothing may have gone wrong
 * (`settleAndCheck`), and the context is closed.
 */
export function pageTest(name, lab, open, body) {
  if (body === undefined) [open, body] = [{}, open];
  test(name, async () => {
    const { page, context, problems } = await openPage(lab, open.options, open);
    try {
      await body({ page, context, problems });
      await settleAndCheck(page, problems, assert);
    } finally {
      await context.close();
    }
  });
}

/** Lets late requests (favicon) and queued work settle, then asserts nothing went wrong. */
export async function settleAndCheck(page, problems, assert) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  assert.deepEqual(problems, [], 'console errors, page errors or failed requests');
}

/** Moves a range input (as a user would: `input` and `change` events, bubbling). */
export async function setRange(scope, testId, value) {
  await scope.getByTestId(testId).fill(String(value));
}

/**
 * The groups of every card of a grid: `{ groups: { card: "dp pp tp" (sorted) }, selected: [card…] }`.
 */
export async function cardGroups(grid) {
  return grid.locator('[data-card]').evaluateAll((cards) => {
    const groups = {};
    const selected = [];
    for (const card of cards) {
      const value = card.getAttribute('data-groups');
      if (value) groups[card.dataset.card] = value.trim().split(/\s+/).sort().join(' ');
      if (card.getAttribute('data-selected') === 'true') selected.push(Number(card.dataset.card));
    }
    return { groups, selected };
  });
}

/**
 * Scrolls to an element as a reader gets there: to its section first (a section far away is
 * laid out at its placeholder size, `content-visibility: auto`, so the element's own position
 * can be stale until the section is drawn), then to the element.
 */
export async function scrollToElement(locator) {
  const frames = () => locator.page().evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await locator.evaluate((element) => element.closest('section')?.scrollIntoView({ block: 'start' }));
  await frames();
  await locator.scrollIntoViewIfNeeded();
  await frames();
}

/** Visible text of a locator, whitespace collapsed (scrolled into view first, as a reader
 * does: sections far below are not rendered until they come near the viewport). */
export async function visibleText(locator) {
  const frames = () => locator.page().evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await locator.scrollIntoViewIfNeeded();
  // The browser decides what is near the viewport while it renders the next frame.
  await frames();
  let text = await locator.innerText();
  if (!text.trim() && (await locator.evaluate((element) => element.textContent.trim() !== ''))) {
    // The element's own position was stale (its section far away, at its placeholder size).
    await scrollToElement(locator);
    text = await locator.innerText();
  }
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The whole page's text as a reader sees it scrolling from top to bottom: each part of the
 * page is scrolled into view, then read (a section far from the viewport is not rendered, so
 * its `innerText` would be empty). Ends back at the top.
 */
export async function readingText(page) {
  // The pointer rests in the corner, over no card (a hovered card reads its memory out).
  await page.mouse.move(0, 0);
  return (await page.evaluate(readingInPage)).text;
}

/** CJK ideographs, CJK symbols and punctuation, fullwidth and halfwidth forms. */
export const CJK = /[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]/g;

/** Whether `text` holds a Chinese character (`CJK` without its global flag's state). */
export const hasCjk = (text) => new RegExp(CJK.source).test(text);

/** Drops a file named config.json holding `text` on `box`, as a file dragged from the desktop. */
export async function dropFile(box, text) {
  await box.evaluate((element, body) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([body], 'config.json', { type: 'application/json' }));
    element.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, text);
}
