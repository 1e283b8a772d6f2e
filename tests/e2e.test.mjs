// End to end: the built page (../dist, from `trunk build --release`) served as plain files on
// 127.0.0.1 and opened in headless Chromium. Checks the model-states figure, that nothing
// failed to load and that the console stayed clean; leaves a screenshot in tests/artifacts/.
//
// Run: `node --test` in tests/ (scripts/test.sh does). CHROMIUM overrides /usr/bin/chromium.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DIST = path.resolve(HERE, '..', 'dist');
const ARTIFACTS = path.join(HERE, 'artifacts');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
// Without the networking flags Chromium keeps trying to reach outside hosts.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Model states per card, lesson start plan (8 GPUs, ZeRO-3, default model):
// 27,781,427,952 parameters × 16 bytes / 8 cards.
const MODEL_STATES_BYTES = '55562855904';

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

/** Serves `root` as static files on 127.0.0.1 (a free port); resolves to the server. */
function serveStatic(root) {
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
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

let server;
let baseUrl;
let profileDir;
let context;

before(async () => {
  await stat(path.join(DIST, 'index.html')).catch(() => {
    throw new Error(`no ${DIST}/index.html: run \`trunk build --release\` first`);
  });
  server = await serveStatic(DIST);
  baseUrl = `http://127.0.0.1:${server.address().port}/`;
  profileDir = await mkdtemp(path.join(os.tmpdir(), 'parallel-lab-chromium-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1024, height: 640 },
  });
});

after(async () => {
  await context?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  if (profileDir) await rm(profileDir, { recursive: true, force: true });
});

test('the built page shows the model states per card, with no errors', async () => {
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

  await page.goto(baseUrl, { waitUntil: 'load' });
  const figure = page.locator('[data-testid="mem-states"]');
  await figure.waitFor({ state: 'visible', timeout: 30_000 });

  assert.equal(await figure.getAttribute('data-bytes'), MODEL_STATES_BYTES);
  assert.equal((await figure.textContent())?.trim(), '55.6 GB');
  assert.match(await page.title(), /并行实验室/);
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');

  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'page.png'), fullPage: true });

  // Let late requests (favicon) settle before judging the console and the network.
  await page.waitForLoadState('networkidle');
  assert.deepEqual(problems, [], 'the page loaded with errors');
  await page.close();
});
