// The built page (../dist) served for the Firefox and WebKit journeys, and what every engine
// adapter (firefox.mjs, webkit.mjs) shares: the problem recorder, the HTTP error log, polling.
//
// Not a test file itself: scripts/test.sh runs `node --test engines/firefox.mjs
// engines/webkit.mjs` from tests/ (names that the Chromium stage's bare `node --test` skips).

import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DIST, origin, serveStatic, stopServer } from '../harness.mjs';

/** Where the recorder below is served, on the lab's origin and on the course page's. */
export const RECORDER_PATH = '/__engine-recorder.js';

/**
 * Records, inside the page, what would show in its console as an error: console.error calls,
 * uncaught exceptions (a wasm trap is one), unhandled rejections, resources that failed to load
 * and CSP violations, into `window.__engineProblems`.
 *
 * Why: WebKitGTK 2.50's WebKitWebDriver has neither WebDriver BiDi (a session asking for
 * `webSocketUrl: true` fails with "Failed to match capabilities") nor a log endpoint
 * (`/session/…/se/log`: "Unknown command"), classic WebDriver cannot run a script before the
 * page's own, and MiniBrowser's `--enable-write-console-messages-to-stdout=true` prints nothing
 * in automation mode (measured). So the test server puts this script first into the two
 * entry points' <head>, right after their CSP (a same-origin script, which `script-src 'self'`
 * allows), where it runs before anything of the page's. It only records; the page's console
 * gets every call as before. HTTP errors are caught by the server itself (`httpErrors`).
 */
export const RECORDER = `(function () {
  if (window.__engineProblems) return;
  var log = (window.__engineProblems = []);
  var text = function (value) {
    try { return value instanceof Error ? String(value) + (value.stack ? ' ' + value.stack : '') : typeof value === 'string' ? value : JSON.stringify(value); }
    catch (e) { return String(value); }
  };
  var error = console.error;
  console.error = function () {
    log.push('console error: ' + Array.prototype.map.call(arguments, text).join(' '));
    return error.apply(console, arguments);
  };
  window.addEventListener('error', function (event) {
    var target = event.target;
    if (target && target !== window && target.tagName) {
      log.push('failed to load: <' + target.tagName.toLowerCase() + '> ' + (target.src || target.href || ''));
    } else {
      log.push('page error: ' + event.message + ' (' + event.filename + ':' + event.lineno + ')');
    }
  }, true);
  window.addEventListener('unhandledrejection', function (event) {
    log.push('unhandled rejection: ' + text(event.reason));
  });
  document.addEventListener('securitypolicyviolation', function (event) {
    log.push('CSP violation: ' + event.violatedDirective + ' blocked ' + event.blockedURI);
  });
})();
`;

/** `html` with the recorder's <script> first: after the CSP meta tag, else right after <head>. */
export function withRecorder(html) {
  const tag = `<script src="${RECORDER_PATH}"></script>`;
  const csp = html.match(/<meta http-equiv="Content-Security-Policy"[^>]*>/i);
  if (csp) return html.replace(csp[0], `${csp[0]}\n    ${tag}`);
  if (!/<head>/i.test(html)) throw new Error('no <head> to put the recorder into');
  return html.replace(/<head>/i, `<head>\n    ${tag}`);
}

/**
 * Logs every response of `server` with a status ≥ 400 on `log` (engines that cannot report
 * failed requests themselves still fail on them).
 */
function logHttpErrors(server, log, counts) {
  server.on('request', (request, response) => {
    counts.open += 1;
    response.on('close', () => {
      counts.open -= 1;
      if (response.statusCode >= 400) log.push(`HTTP ${response.statusCode}: ${request.url}`);
    });
  });
}

/**
 * Serves dist/ on 127.0.0.1 and a course site on another port (another origin) whose
 * `/lesson.html` is `lab.coursePage.body`. `record` serves the entry points with the recorder
 * (WebKit). Resolves to `{ baseUrl, courseUrl, coursePage, httpErrors, requests, close }`;
 * `requests.open` counts the requests not answered yet.
 */
export async function startServers({ record = false } = {}) {
  await stat(path.join(DIST, 'index.html')).catch(() => {
    throw new Error(`no ${DIST}/index.html: run \`trunk build --release\` first`);
  });
  const html = { type: 'text/html; charset=utf-8' };
  const script = { type: 'text/javascript; charset=utf-8', body: RECORDER };
  const files = {};
  if (record) {
    // Read at each request (serveStatic reads `body` when it answers), as dist/'s other files
    // are: a rebuild of dist/ while the tests run must not leave stale asset names.
    const entry = (name) => ({ ...html, get body() { return withRecorder(readFileSync(path.join(DIST, name), 'utf8')); } });
    Object.assign(files, {
      '/': entry('index.html'),
      '/index.html': entry('index.html'),
      '/embed.html': entry('embed.html'),
      [RECORDER_PATH]: script,
    });
  }
  const coursePage = { ...html, body: '' };
  const httpErrors = [];
  const requests = { open: 0 };
  const server = await serveStatic(DIST, {}, { files });
  const course = await serveStatic(null, {}, { files: { '/lesson.html': coursePage, [RECORDER_PATH]: script } });
  logHttpErrors(server, httpErrors, requests);
  logHttpErrors(course, httpErrors, requests);
  return {
    baseUrl: `${origin(server)}/`,
    courseUrl: `${origin(course)}/lesson.html`,
    coursePage,
    record,
    httpErrors,
    requests,
    close: async () => {
      await stopServer(server);
      await stopServer(course);
    },
  };
}

/**
 * Polls `check()` until it returns a truthy value, which it resolves to; after `timeout` ms
 * throws, naming `what` and the last value seen. The journeys wait for states this way, never
 * for a length of time; the timeout is only there to end a test whose state never comes.
 */
export async function until(check, what, { timeout = 30_000, interval = 50 } = {}) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    last = await check();
    if (last && !last.pending) return last;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}; last seen: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
