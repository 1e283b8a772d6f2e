// Hosting: dist/ works from a sub-path of a static host (relative asset URLs), under a strict
// Content-Security-Policy (a meta tag: scripts only from the page's origin, the inline loader
// by its hash, WebAssembly by 'wasm-unsafe-eval'; no 'unsafe-eval' or 'unsafe-inline'), and
// its service worker lets a reload work offline after the first visit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DIST, labForFile, openPage, origin, settleAndCheck, visibleText, waitForGrids, watchProblems,
} from './harness.mjs';

const PREFIX = '/course/parallel-lab/';
// Trunk's entry points, the sources of dist/'s pages.
const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const lab = labForFile({ prefix: PREFIX });

/** The Content-Security-Policy meta tag's directives: { name: [source…] }. */
function cspDirectives(html) {
  const metas = [...html.matchAll(/<meta\s[^>]*http-equiv="Content-Security-Policy"[^>]*>/gi)];
  assert.equal(metas.length, 1, 'one CSP meta tag');
  const content = /\bcontent="([^"]*)"/.exec(metas[0][0])?.[1];
  assert.ok(content, 'the CSP meta tag has a content attribute');
  const directives = {};
  for (const part of content.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives[name] = sources;
  }
  return { content, directives };
}

/**
 * What Trunk writes for an entry point's `<link data-trunk>` tags (the source, ../index.html or
 * ../embed.html): `inline` one inline script (landing.js) or, for a `.css` file, a `<style>`
 * (scripts/shrink-inline.mjs then makes the styles one); `rust` an inline loader script, its
 * JS module (modulepreload), the loader of its split modules (modulepreload, added by
 * scripts/split.mjs) and its wasm (preload); `icon` and `css` their file, hashed;
 * `copy-file` nothing. The URLs, in order, as patterns.
 */
function trunkOutput(source) {
  const scripts = [];
  const styles = [];
  const urls = [];
  const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const hashed = (file) => {
    const { name, ext } = path.parse(file);
    return new RegExp(`^\\./${literal(name)}-[0-9a-f]{1,16}${literal(ext)}$`);
  };
  for (const [tag] of source.matchAll(/<link\s+data-trunk\b[^>]*>/g)) {
    const rel = /\brel="([^"]*)"/.exec(tag)?.[1];
    const href = /\bhref="([^"]*)"/.exec(tag)?.[1];
    if (rel === 'inline' && href.endsWith('.css')) styles.push(href);
    else if (rel === 'inline') scripts.push(href);
    else if (rel === 'icon' || rel === 'css') urls.push(hashed(href));
    else if (rel === 'rust') {
      const bin = /\bdata-bin="([^"]*)"/.exec(tag)[1];
      scripts.push(`${bin} loader`);
      // Its JS module, the loader of its split modules (scripts/split.mjs), its wasm.
      urls.push(
        new RegExp(`^\\./${literal(bin)}-[0-9a-f]{1,16}\\.js$`),
        new RegExp(`^\\./${literal(bin)}-[0-9a-f]{1,16}-split\\.js$`),
        new RegExp(`^\\./${literal(bin)}-[0-9a-f]{1,16}_bg\\.wasm$`),
      );
    } else if (rel !== 'copy-file') throw new Error(`a data-trunk rel this test does not know: ${tag}`);
  }
  return { scripts, styles, urls };
}

for (const name of ['index.html', 'embed.html']) {
test(`dist/${name} has a strict CSP meta tag and only relative asset URLs`, async () => {
  const html = await readFile(path.join(DIST, name), 'utf8');
  const { content, directives } = cspDirectives(html);
  assert.ok(content.includes("'wasm-unsafe-eval'"), content);
  assert.ok(!content.includes("'unsafe-eval'"), `no 'unsafe-eval': ${content}`);
  assert.ok(!content.includes("'unsafe-inline'"), `no 'unsafe-inline': ${content}`);
  assert.ok(!/(^|\s)\*(\s|;|$)/.test(content), `no wildcard source: ${content}`);
  assert.deepEqual(directives['default-src'], ["'self'"]);

  // script-src: 'self', 'wasm-unsafe-eval' and the hash of every inline script, nothing else.
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
  );
  const want = trunkOutput(await readFile(path.join(SOURCE, name), 'utf8'));
  assert.equal(inline.length, want.scripts.length, `inline scripts: one for each of ${want.scripts.join(', ')}`);
  assert.deepEqual(
    [...directives['script-src']].sort(),
    ["'self'", "'wasm-unsafe-eval'", ...inline].sort(),
    'script-src allows the page itself, wasm and the inline scripts by hash',
  );

  // style-src: 'self', the hash of the one <style> that the inlined stylesheet files became,
  // and ('unsafe-hashes') the hash of each `style` attribute the first screens hold (a memory
  // bar's width), nothing else (no 'unsafe-inline': any other `style` attribute is refused).
  const styleBlocks = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
  assert.equal(styleBlocks.length, want.styles.length > 0 ? 1 : 0, `one <style> for ${want.styles.join(', ')}`);
  const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const attributes = [...new Set([...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) => sha(m[1])))];
  assert.ok(attributes.length > 0, 'the first screens draw memory bars');
  assert.deepEqual(
    [...directives['style-src']].sort(),
    ["'self'", ...styleBlocks.map(sha), "'unsafe-hashes'", ...attributes].sort(),
    'style-src allows the page itself, its one inline style and its first screens\' style attributes by hash',
  );
  // Each inlined file is in it: its first rule, as the shrunk copy writes it.
  for (const file of want.styles) {
    const source = await readFile(path.join(SOURCE, file), 'utf8');
    const firstRule = source.replace(/\/\*[\s\S]*?\*\//g, '').trim().split('\n')[0].trim();
    assert.ok(styleBlocks[0].includes(firstRule), `${file}'s first rule (${firstRule}) is in the page's <style>`);
  }

  // Every asset URL is relative to the page, so dist/ works from any folder.
  // Exactly the URLs its source's data-trunk links make, each a file dist/ holds.
  // (The body's links are the first screen's: pages and sections, not assets.)
  const head = html.slice(0, html.indexOf('</head>'));
  const urls = [...head.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((m) => m[1]);
  assert.equal(urls.length, want.urls.length, `asset URLs: ${urls}; expected ${want.urls.join(', ')}`);
  for (const [i, url] of urls.entries()) {
    assert.match(url, want.urls[i], `asset URL ${i + 1}`);
    await stat(path.join(DIST, url)).catch(() => assert.fail(`${url} is not in dist/`));
  }
  assert.ok(!/from\s+'\//.test(html) && !/module_or_path:\s*'\//.test(html), 'the loader imports relatively');
});
}

test('served under /course/parallel-lab/ only: the page works, every request stays there, no CSP violation', async () => {
  const base = origin(lab.server);
  // Nothing at the host's root: any absolute asset URL would fail.
  for (const url of [`${base}/`, `${base}/index.html`, `${base}/sw.js`]) {
    assert.equal((await fetch(url)).status, 404, url);
  }

  const requests = [];
  const served = lab.server.requests.length;
  const { page, context, problems } = await openPage(lab, undefined, {
    setup: async (page, context) => {
      context.on('request', (request) => requests.push(request.url()));
      await page.addInitScript(() => {
        window.__cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`),
        );
      });
    },
  });
  assert.equal(page.url(), `${base}${PREFIX}`);
  assert.equal(await page.getByTestId('grid-8').locator('[data-card]').count(), 8);
  assert.equal(await page.getByTestId('grid-64').locator('[data-card]').count(), 64);
  assert.equal(await visibleText(page.getByTestId('section-8').getByTestId('mem-states')), '55.6 GB');
  assert.equal(Number(await page.getByTestId('section-64').getByTestId('bubble').getAttribute('data-ratio')), 0.875);

  // The service worker registers from the sub-path, for the sub-path.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(scope, `${base}${PREFIX}`);

  await settleAndCheck(page, problems, assert);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'CSP violations');
  const elsewhere = requests.filter((url) => !url.startsWith(`${base}${PREFIX}`));
  assert.deepEqual(elsewhere, [], 'requests that left the page’s folder or origin');
  const outside = lab.server.requests.slice(served).filter((p) => !p.startsWith(PREFIX));
  assert.deepEqual(outside, [], 'paths the server was asked for outside the sub-path');
  await context.close();
});

test('after the first visit a reload works offline, from the service worker', async () => {
  const { page, context, problems } = await openPage(lab, undefined, { fragment: 'g64=tp8.pp2.z1&c64=0' });
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await page.reload({ waitUntil: 'load' });
  }
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null);
  await page.getByTestId('section-64').getByTestId('mem-states').waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForLoadState('networkidle');

  await context.setOffline(true);
  const served = lab.server.requests.length;
  await page.reload({ waitUntil: 'load' });
  for (const id of ['section-8', 'section-64']) {
    await page.getByTestId(id).getByTestId('mem-states').waitFor({ state: 'visible', timeout: 30_000 });
  }
  assert.equal(await page.evaluate(() => navigator.onLine), false, 'the browser is offline');
  assert.deepEqual(lab.server.requests.slice(served), [], 'nothing reached the server: the reload came from the cache');

  // Both grids drawn and computing, the link's state restored.
  assert.equal(await page.getByTestId('grid-8').locator('[data-card]').count(), 8);
  assert.equal(await page.getByTestId('grid-64').locator('[data-card]').count(), 64);
  assert.equal(await visibleText(page.getByTestId('section-8').getByTestId('mem-states')), '55.6 GB');
  const section = page.getByTestId('section-64');
  assert.equal(await visibleText(section.getByTestId('derived-dp')), '4');
  assert.equal(Number(await section.getByTestId('bubble').getAttribute('data-ratio')), 0.125);
  await section.getByTestId('slider-m').fill('32');
  assert.equal(Number(await section.getByTestId('bubble').getAttribute('data-ratio')), 0.03125);
  // The parts drawn after the first frame too: the first visit cached their split modules.
  await page.waitForFunction(() => document.documentElement.dataset.drawn === 'all', null, { timeout: 30_000 });
  assert.equal(await page.getByTestId('section-decisions').count(), 1, 'part four, from its split module');
  assert.ok((await page.locator('.grid-lab-charts canvas').count()) > 0, 'the charts, from their split module');
  assert.deepEqual(lab.server.requests.slice(served), [], 'the split modules came from the cache');

  // An embedded widget works offline too: the first visit cached embed.html and its files.
  await page.goto(`${lab.baseUrl}embed.html#g64=tp8.pp2.z1&embed=grid-64`, { waitUntil: 'load' });
  const widget = page.getByTestId('embed-root');
  await widget.getByTestId('mem-states').waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(await visibleText(widget.getByTestId('derived-dp')), '4');
  assert.equal(await widget.getByTestId('grid-64').locator('[data-card]').count(), 64);
  assert.deepEqual(lab.server.requests.slice(served), [], 'the embed came from the cache as well');

  await settleAndCheck(page, problems, assert);
  await context.close();
});

test('embed.html without a widget in its link opens the whole page with the same link', async () => {
  const context = await lab.browser.newContext();
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${lab.baseUrl}embed.html#g64=tp4.pp2`, { waitUntil: 'load' });
  await waitForGrids(page);
  assert.match(page.url(), /\/index\.html#g64=tp4\.pp2$/);
  assert.equal(await page.getByTestId('section-64').getByTestId('slider-pp').inputValue(), '2');
  assert.equal(await page.getByTestId('section-intro').count(), 1, 'the whole page, not a widget');
  // Leaving embed.html at once may cancel what the browser had already started fetching for
  // it (its stylesheet, icon or wasm): a cancelled request is the redirect, not a failure.
  const leftBehind = (problem) => /^request failed: .*\(net::ERR_ABORTED\)$/.test(problem);
  problems.splice(0, problems.length, ...problems.filter((problem) => !leftBehind(problem)));
  await settleAndCheck(page, problems, assert);
  await context.close();
});
