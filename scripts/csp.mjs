// Trunk post-build hook: gives the built index.html a strict Content-Security-Policy.
//
// Trunk writes one inline <script type="module"> that loads the wasm; the policy allows it by
// its SHA-256 hash (so no 'unsafe-inline'), and WebAssembly by 'wasm-unsafe-eval' (so no
// 'unsafe-eval'). Everything else may come only from the page's own origin: no CDN, no font
// host, nothing leaves the site. Run by Trunk with TRUNK_STAGING_DIR set (see Trunk.toml).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('csp.mjs: TRUNK_STAGING_DIR is not set (run through trunk build)');
  process.exit(1);
}
const file = path.join(dir, 'index.html');
let html = readFileSync(file, 'utf8');
html = html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '');

const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
  (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
);
const policy = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
  "style-src 'self'",
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
  console.error('csp.mjs: no <meta charset> found to put the policy after');
  process.exit(1);
}
writeFileSync(file, html);
console.log(`csp.mjs: policy with ${hashes.length} script hash(es) written to index.html`);
