// Shared by the end-to-end tests (`*.test.mjs`) and the benchmark (`bench.mjs`): serves the
// built page (../dist, from `trunk build --release`) as plain files on 127.0.0.1, launches
// Debian's headless Chromium through playwright-core, and records everything that went wrong
// on a page (console errors, uncaught exceptions, failed requests, HTTP errors).
//
// Not a test file itself: `node --test` only picks up `*.test.mjs`.

import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

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
 * `headers` are added to every response.
 */
export function serveStatic(root, headers = {}) {
  const server = http.createServer(async (req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    let file = path.join(root, path.normalize(decodeURIComponent(pathname)));
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file);
      const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, { ...headers, 'content-type': type, 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Starts the static server over dist/ and a headless Chromium. Call `close()` when done.
 * Resolves to `{ baseUrl, browser, close }`. `isolated` serves the page cross-origin isolated
 * (COOP + COEP), which gives `performance.now()` a finer resolution (the benchmark wants it).
 */
export async function startLab({ isolated = false } = {}) {
  await stat(path.join(DIST, 'index.html')).catch(() => {
    throw new Error(`no ${DIST}/index.html: run \`trunk build --release\` first`);
  });
  const headers = isolated
    ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' }
    : {};
  const server = await serveStatic(DIST, headers);
  const baseUrl = `http://127.0.0.1:${server.address().port}/`;
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  } catch (error) {
    server.close();
    throw error;
  }
  const close = async () => {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  };
  return { baseUrl, browser, close };
}

/**
 * Opens the page in a fresh context (`options`: DESKTOP or PHONE) and waits until the wasm app
 * has rendered both grids. Resolves to `{ page, context, problems }`: `problems` collects every
 * console error, page error, failed request and HTTP error from the first request on.
 */
export async function openPage(lab, options = DESKTOP) {
  const context = await lab.browser.newContext(options);
  const page = await context.newPage();
  const problems = [];
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
  await page.goto(lab.baseUrl, { waitUntil: 'load' });
  for (const id of ['section-8', 'section-64']) {
    await page
      .getByTestId(id)
      .getByTestId('mem-states')
      .waitFor({ state: 'visible', timeout: 30_000 });
  }
  return { page, context, problems };
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

/** Visible text of a locator, whitespace collapsed. */
export async function visibleText(locator) {
  return (await locator.innerText()).replace(/\s+/g, ' ').trim();
}

/** CJK ideographs, CJK symbols and punctuation, fullwidth and halfwidth forms. */
export const CJK = /[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]/g;
