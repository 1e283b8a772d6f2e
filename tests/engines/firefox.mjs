// The key journeys (journeys.mjs) in Firefox ESR (/usr/bin/firefox-esr, or FIREFOX=…), driven
// over WebDriver BiDi by puppeteer-core: no driver or browser download (PUPPETEER_SKIP_DOWNLOAD).
// Console errors and page errors come from the engine itself (puppeteer's `console` and
// `pageerror` events, frames included), failed requests from `requestfailed`.
//
// Run from tests/: `node --test engines/firefox.mjs` (scripts/test.sh runs it after Chromium's).

import puppeteer from 'puppeteer-core';
import { registerJourneys } from './journeys.mjs';

const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
// The window's size (headless): puppeteer's setViewport also sends
// emulation.setScreenOrientationOverride, which Firefox 140 rejects ("unknown command").
const WINDOW = ['--width=1280', '--height=800'];

let browser;

/** A fresh browser context (its own cookies, storage and service workers) with one page. */
async function openDriver() {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message ?? error}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return {
    goto: (url) => page.goto(url, { waitUntil: 'load' }),
    evaluate: (fn, ...args) => page.evaluate(fn, ...args),
    async frameEvaluate(selector, fn, ...args) {
      const element = await page.$(selector);
      if (!element) throw new Error(`no ${selector}`);
      const frame = await element.contentFrame();
      return frame.evaluate(fn, ...args);
    },
    clickAt: (x, y) => page.mouse.click(x, y),
    pointAt: (x, y) => page.mouse.move(x, y),
    press: (key) => page.keyboard.press(key),
    problems: async () => [...problems],
    close: () => context.close(),
  };
}

registerJourneys('firefox', {
  async setup() {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      defaultViewport: null,
      args: WINDOW,
      // Keep Firefox from reaching outside hosts (updates, telemetry, remote settings).
      extraPrefsFirefox: {
        'app.update.disabledForTesting': true,
        'browser.safebrowsing.update.enabled': false,
        'datareporting.policy.dataSubmissionEnabled': false,
        'network.captive-portal-service.enabled': false,
        'network.connectivity-service.enabled': false,
        'services.settings.server': 'http://127.0.0.1:9/',
      },
    });
  },
  openDriver,
  teardown: () => browser?.close(),
});
