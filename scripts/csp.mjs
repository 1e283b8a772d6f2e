// Trunk post-build hook: gives each built page (index.html, embed.html) a strict
// Content-Security-Policy.
//
// Trunk writes one inline <script type="module"> that loads the wasm; the policy allows it, the
// other inline scripts and the page's one <style> (assets/style/, inlined) by their SHA-256
// hashes (so no 'unsafe-inline'), the `style` attributes of the first screens rendered into the
// page (scripts/first-screen.mjs: a memory bar's width) by theirs ('unsafe-hashes': any other
// `style` attribute stays refused), and WebAssembly by
// 'wasm-unsafe-eval' (so no 'unsafe-eval'). Everything else may come only from the page's own
// origin: no CDN, no font host, nothing leaves the site. Called by scripts/post-build.mjs,
// Trunk's post-build hook.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes the policy into every page of `dir`. Throws when a page has no `<meta charset>`. */
export function writePolicies(dir) {
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.html'))) {
    const file = path.join(dir, name);
    let html = readFileSync(file, 'utf8');
    html = html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '');

    const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => sha(m[1]));
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha(m[1]));
    const attributes = [...new Set([...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) => sha(m[1])))];
    if (attributes.length > 0) styles.push("'unsafe-hashes'", ...attributes);
    const policy = [
      "default-src 'self'",
      `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
      `style-src 'self' ${styles.join(' ')}`.trim(),
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "worker-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'none'",
    ].join('; ');
    const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
    html = html.replace(/(<meta charset="utf-8"\s*\/?>)/i, `$1\n    ${meta}`);
    if (!html.includes(meta)) {
      throw new Error(`csp.mjs: no <meta charset> in ${name} to put the policy after`);
    }
    writeFileSync(file, html);
    console.log(`csp.mjs: policy with ${hashes.length} script and ${styles.length} style hash(es) written to ${name}`);
  }
}
