// Part of Trunk's post-build hook (scripts/post-build.mjs), issue 53: each page's first screen,
// rendered at build time by the same components the wasm draws with (web/src/bin/prerender.rs,
// run natively here), is written into the page where its source marks it
// (`<div data-first-screen-here></div>`), so the page reads before the wasm arrives and with
// JavaScript off.
//
// A page gets one copy per screen and language (index.html: its defaults; embed.html: each
// grid widget at its defaults), each `<div class="first-screen" data-screen="I">` (display:
// contents, so the layout is the app's), and the rules that show the one its link asks for:
// assets/landing.js sets `<html data-screen>` to I before anything is painted, from the screens
// listed in `<html data-screens>`, or to "-" for a link no screen was drawn from (then the
// loading line shows). Without JavaScript the page's own default, in Chinese, shows.
// The wasm removes all of it in the task that mounts the app (web/src/pages/mod.rs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MARK = '<div data-first-screen-here></div>';

/** The environment for a native cargo run: without the wasm and release builds' variables. */
function nativeEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(CARGO_UNSTABLE_|CARGO_TARGET_DIR$|RUSTC_BOOTSTRAP$|RUSTUP_TOOLCHAIN$)/.test(key)) delete env[key];
  }
  return env;
}

/** What web/src/bin/prerender.rs prints: per page file, its screens and its loading line. */
export function renderScreens() {
  const args = ['run', '--quiet', '--offline', '-p', 'parallel-web', '--features', 'prerender', '--bin', 'parallel-prerender'];
  console.log(`first-screen.mjs: cargo ${args.join(' ')}`);
  const run = spawnSync('cargo', args, { cwd: root, env: nativeEnv(), encoding: 'utf8', maxBuffer: 256 << 20 });
  if (run.status !== 0) {
    throw new Error(`first-screen.mjs: the first screens were not rendered (${run.error ?? `exit ${run.status}`})\n${(run.stderr ?? '').slice(-4000)}`);
  }
  return JSON.parse(run.stdout);
}

/** Escapes text for a double-quoted HTML attribute. */
function attribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The page's links (`keys`, in order) and its screens, each with its index in
 * `<html data-screen>`: screen I is key I/2 in its two languages.
 */
export function layout(screens) {
  const keys = [...new Set(screens.map((s) => s.key))];
  return { keys, screens: screens.map((s) => ({ ...s, index: keys.indexOf(s.key) * 2 + (s.lang === 'en' ? 1 : 0) })) };
}

/**
 * A screen's markup without Leptos's comments (`<!>` and `<!--…-->`, the marks its own
 * hydration would use; this page mounts afresh, and comments neither show nor lay out).
 */
export function withoutComments(html) {
  return html.replace(/<!--[\s\S]*?-->|<!>/g, '');
}

/** The attributes that name an element by its id (the app's labels and ARIA references). */
const REFERENCES = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls'];

/**
 * A copy's markup with each id, and each reference to one, given `suffix`: the copies repeat
 * the app's ids, and in a document the first element with an id wins, so without it a label
 * or an ARIA name in any copy but the first would name an element of the first, hidden, copy.
 * Attribute values are escaped (`&quot;`), so the pattern cannot match inside text.
 */
export function withOwnIds(html, suffix) {
  const names = new RegExp(` (id|${REFERENCES.join('|')})="([^"]*)"`, 'g');
  return html.replace(names, (_, name, value) => {
    const ids = value.split(/\s+/).filter(Boolean).map((id) => `${id}${suffix}`);
    return ` ${name}="${ids.join(' ')}"`;
  });
}

/** `html` (a built page) with its first screens, their rules and their list written in. */
export function withScreens(html, page) {
  if (!html.includes(MARK)) throw new Error(`first-screen.mjs: a page has no ${MARK}`);
  const { keys, screens } = layout(page.screens);
  // The copy shown with JavaScript off: the page's default in Chinese.
  const fallback = screens.find((s) => s.key === '' && s.lang !== 'en');
  const keeper = fallback ?? screens[0];
  const copies = screens
    .map((s) => {
      // One copy keeps the app's ids: the one shown with JavaScript off, or the first.
      const body = withoutComments(s.html);
      const own = s === keeper ? body : withOwnIds(body, `--screen-${s.index}`);
      return `<div class="first-screen" data-screen="${s.index}" data-lang="${attribute(s.lang)}">${own}</div>`;
    })
    .join('');
  const shown = screens.map((s) => `html[data-screen="${s.index}"] .first-screen[data-screen="${s.index}"]`);
  if (fallback) shown.push(`html:not([data-screen]) .first-screen[data-screen="${fallback.index}"]`);
  const rules = `\n${shown.join(',\n')} { display: contents; }\n`;
  const out = html
    .replace(MARK, () => withoutComments(page.loading) + copies)
    .replace(/<html\b/, () => `<html data-screens="${attribute(keys.join(' '))}"`)
    .replace(/<\/style>/, () => `${rules}</style>`);
  if (out === html || !out.includes(rules)) throw new Error('first-screen.mjs: a page has no <style> for the screens\' rules');
  return out;
}

/** Writes every built page's first screens into it, in `staging`. */
export function writeFirstScreens(staging) {
  const pages = renderScreens();
  for (const [file, page] of Object.entries(pages)) {
    const at = path.join(staging, file);
    if (!existsSync(at)) throw new Error(`first-screen.mjs: ${file} was not built`);
    const html = withScreens(readFileSync(at, 'utf8'), page);
    writeFileSync(at, html);
    console.log(`first-screen.mjs: ${file}: ${page.screens.length} screen(s), ${html.length} bytes`);
  }
}
