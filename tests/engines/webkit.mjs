// The key journeys (journeys.mjs) in WebKit: WebKitGTK's WebKitWebDriver (/usr/bin, Debian's
// webkit2gtk-driver) started under `xvfb-run -a` (MiniBrowser needs a display), driven by
// selenium-webdriver over classic WebDriver; the browser is WebKitGTK's MiniBrowser.
//
// WebKit's WebDriver refuses to click SVG elements (ElementNotInteractable), so every click is
// a pointer click at the element's viewport coordinates through the actions API, as in Firefox.
// Console errors: this driver gives no log and no BiDi, so the served pages carry lab.mjs's
// recorder and its list is read back from each document (and each iframe) before it goes away.
//
// Run from tests/: `node --test engines/webkit.mjs` (scripts/test.sh runs it after Firefox's).

import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { Builder, By, Key } from 'selenium-webdriver';
import { Origin } from 'selenium-webdriver/lib/input.js';
import { registerJourneys } from './journeys.mjs';
import { until } from './lab.mjs';

const WEBDRIVER = process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver';
/** MiniBrowser of Debian's libwebkit2gtk-4.1-0: /usr/lib/<multiarch triplet>/webkit2gtk-4.1/. */
function findMiniBrowser() {
  const usual = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
  if (existsSync(usual)) return usual;
  const found = readdirSync('/usr/lib')
    .map((dir) => `/usr/lib/${dir}/webkit2gtk-4.1/MiniBrowser`)
    .find((file) => existsSync(file));
  return found ?? usual;
}
const MINIBROWSER = process.env.MINIBROWSER ?? findMiniBrowser();
const CAPABILITIES = {
  browserName: 'MiniBrowser',
  'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
};
const KEYS = {
  End: Key.END, Home: Key.HOME, Enter: Key.ENTER, Escape: Key.ESCAPE,
  ArrowLeft: Key.ARROW_LEFT, ArrowRight: Key.ARROW_RIGHT, ArrowUp: Key.ARROW_UP, ArrowDown: Key.ARROW_DOWN,
};

let server;
let serverUrl;
let serverLog = '';

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startDriver() {
  const port = await freePort();
  serverUrl = `http://127.0.0.1:${port}`;
  // Its own process group, so that stopping it stops Xvfb and the browser with it.
  server = spawn('xvfb-run', ['-a', WEBDRIVER, `--port=${port}`], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [server.stdout, server.stderr]) stream.on('data', (chunk) => { serverLog = (serverLog + chunk).slice(-4000); });
  const exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  await until(async () => {
    if (server.exitCode !== null) throw new Error(`xvfb-run ${WEBDRIVER} exited ${await exited}: ${serverLog}`);
    try {
      const status = await (await fetch(`${serverUrl}/status`)).json();
      return status.value?.ready === true || { pending: status.value };
    } catch (error) {
      return { pending: error.message };
    }
  }, `${WEBDRIVER} answering on ${serverUrl}`);
}

async function stopDriver() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  process.kill(-server.pid, 'SIGTERM');
  await exited;
}

/** Reads the recorder's list in the current document: `null` when there is no page yet. */
const RECORDED = `
  if (!/^https?:/.test(location.href)) return null;
  return window.__engineProblems ? window.__engineProblems.slice() : ['no problem recorder in ' + location.href];`;

/** A fresh WebDriver session (a new MiniBrowser) with a 1280 × 800 window. */
async function openDriver() {
  const driver = await new Builder().usingServer(serverUrl).withCapabilities(CAPABILITIES).build();
  await driver.manage().window().setRect({ width: 1280, height: 800 });
  const evaluate = (fn, ...args) => driver.executeScript(`return (${fn}).apply(null, arguments);`, ...args);
  // What the documents recorded before they were left.
  const left = [];
  /** The recorder's lists of the current document and of every iframe in it. */
  async function recorded() {
    const lists = [(await driver.executeScript(RECORDED)) ?? []];
    for (const frame of await driver.findElements(By.css('iframe'))) {
      await driver.switchTo().frame(frame);
      try {
        lists.push(((await driver.executeScript(RECORDED)) ?? []).map((line) => `(iframe) ${line}`));
      } finally {
        await driver.switchTo().defaultContent();
      }
    }
    return lists.flat();
  }
  return {
    async goto(url) {
      left.push(...(await recorded()));
      await driver.get(url);
    },
    evaluate,
    async frameEvaluate(selector, fn, ...args) {
      await driver.switchTo().frame(await driver.findElement(By.css(selector)));
      try {
        return await evaluate(fn, ...args);
      } finally {
        await driver.switchTo().defaultContent();
      }
    },
    clickAt: (x, y) => driver.actions({ async: true }).move({ x, y, origin: Origin.VIEWPORT }).click().perform(),
    pointAt: (x, y) => driver.actions({ async: true }).move({ x, y, origin: Origin.VIEWPORT }).perform(),
    async press(key) {
      const code = KEYS[key];
      if (!code) throw new Error(`no WebDriver key for ${key}`);
      await driver.actions({ async: true }).keyDown(code).keyUp(code).perform();
    },
    problems: async () => [...left, ...(await recorded())],
    close: () => driver.quit(),
  };
}

registerJourneys('webkit', { setup: startDriver, openDriver, teardown: stopDriver, record: true });
