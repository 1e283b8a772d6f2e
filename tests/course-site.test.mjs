// Issue 53, item 3, tried as a teacher tries it: a real course site, MkDocs with the Material
// theme (built here by .tools/mkdocs, which scripts/setup.sh installs, pinned), whose lesson page
// holds the 64-card grid's snippet exactly as the lab's embed dialog gives it with the issue's
// three controls (TP, PP, m), served on another origin than the lab. In that page the widget
// shows only those controls, the grid and its figures (the default parts), answers a control
// with the CLI's figures, and its frame takes its content's height, within one screen.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STUDENT, labForFile, openPage, origin, serveStatic, settleAndCheck, stopServer, visibleText, waitForApp, watchProblems,
} from './harness.mjs';
import { START, cli } from './drive.mjs';
import { controlsShown, partsDrawn, pickThreeControls, sizedToContent } from './embedding.mjs';

const lab = labForFile();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MKDOCS = path.join(ROOT, '.tools', 'mkdocs', 'bin', 'python');

/** Builds a MkDocs Material site whose lesson page holds `snippet`; resolves to its folder. */
function buildSite(snippet) {
  if (!fs.existsSync(MKDOCS)) throw new Error(`no ${MKDOCS}: run scripts/setup.sh`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'course-site-'));
  fs.mkdirSync(path.join(dir, 'docs'));
  fs.writeFileSync(path.join(dir, 'mkdocs.yml'), [
    'site_name: 大模型训练课程',
    'theme:',
    '  name: material',
    '  language: zh',
    // Material loads Google Fonts unless told not to; the test machine reaches no such host.
    '  font: false',
    'nav:',
    '  - 第 7 课 并行: index.md',
    '',
  ].join('\n'));
  // The teacher pastes the snippet into the lesson's Markdown, between two paragraphs.
  fs.writeFileSync(path.join(dir, 'docs', 'index.md'), [
    '# 第 7 课：并行',
    '',
    '先猜一猜：把 PP 从 8 调到 1，每张卡的显存会怎样变？再在下面的网格里验证。',
    '',
    snippet,
    '',
    '本课结束。',
    '',
  ].join('\n'));
  const site = path.join(dir, 'site');
  const run = spawnSync(MKDOCS, ['-m', 'mkdocs', 'build', '--strict', '--quiet', '-d', site], { cwd: dir, encoding: 'utf8' });
  assert.equal(run.status, 0, `mkdocs build: ${run.stderr}`);
  return { dir, site };
}

let site;
let server;
after(async () => {
  if (server) await stopServer(server);
  if (site) fs.rmSync(site.dir, { recursive: true, force: true });
});

test('a MkDocs Material lesson with the three-control snippet: the widget answers, with the CLI\'s figures, in one screen', async (t) => {
  // The teacher picks TP, PP and m in the lab's embed dialog and copies the snippet.
  const full = await openPage(lab);
  const { code } = await pickThreeControls(full.page);
  const snippet = await code.inputValue();
  await settleAndCheck(full.page, full.problems, assert);
  await full.context.close();

  site = buildSite(snippet);
  const built = fs.readFileSync(path.join(site.site, 'index.html'), 'utf8');
  const src = snippet.match(/<iframe src="([^"]*)"/)[1];
  assert.ok(built.includes(`src="${src}"`), 'the site kept the snippet\'s frame as the lab gave it');
  assert.ok(built.includes('md-content'), 'the page is laid out by the Material theme');
  server = await serveStatic(site.site);
  const course = origin(server);
  assert.notEqual(course, new URL(lab.baseUrl).origin, 'the course site is on another origin');

  // A student opens the lesson in a fresh profile.
  const context = await lab.browser.newContext(STUDENT);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${course}/`, { waitUntil: 'load' });
  const iframe = page.locator('iframe[data-parallel-lab]');
  assert.equal(await iframe.count(), 1);
  const inner = page.frameLocator('iframe[data-parallel-lab]');
  await waitForApp(inner);
  const root = inner.getByTestId('embed-root');
  await root.getByTestId('mem-states').waitFor({ state: 'visible', timeout: 30_000 });
  assert.deepEqual(await controlsShown(inner), ['tp', 'pp', 'm'], 'only the three controls');
  assert.deepEqual(await partsDrawn(inner), ['grid', 'figures'], 'the default parts');

  // The frame takes its content's height, in the theme's content column, within one screen.
  const frame = await (await iframe.elementHandle()).contentFrame();
  await page.waitForFunction(() => /^\d+(\.\d+)?px$/.test(document.querySelector('iframe[data-parallel-lab]').style.height));
  const { height, inside } = await sizedToContent(iframe, frame);
  assert.ok(Math.abs(height - inside.content) <= 2, `iframe ${height}px for content ${inside.content}px`);
  assert.equal(inside.scrolls, false, 'the frame does not scroll inside');
  const { frameWidth, column } = await page.evaluate(() => ({
    frameWidth: document.querySelector('iframe[data-parallel-lab]').getBoundingClientRect().width,
    column: document.querySelector('.md-content__inner').getBoundingClientRect().width,
  }));
  assert.ok(frameWidth <= column + 0.5, `the frame (${frameWidth}px) stays in the column (${column}px)`);
  t.diagnostic(`the widget's frame: ${height} px tall, ${frameWidth} px wide, in a ${column} px column`);
  assert.ok(height <= 1000, `one screen: ${height}px at a ${column}px column, 1400 × 900`);

  // The student takes PP to its start by the Home key: the figures are the CLI's for that plan.
  await root.getByTestId('slider-pp').focus();
  await page.keyboard.press('Home');
  const plan = { ...START[64], pp: 1 };
  const want = cli(['eval'], plan).ok;
  await root.getByTestId('mem-total').and(inner.locator(`[data-bytes="${want.memory.total}"]`)).waitFor({ timeout: 30_000 });
  assert.equal(await visibleText(root.getByTestId('derived-dp')), String(want.dp), `DP at ${JSON.stringify(plan)}`);
  const moved = await sizedToContent(iframe, frame);
  assert.ok(Math.abs(moved.height - moved.inside.content) <= 2, `after PP 1: iframe ${moved.height}px for content ${moved.inside.content}px`);
  await settleAndCheck(page, problems, assert);
  await context.close();
});
