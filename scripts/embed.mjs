// Part of Trunk's post-build hook (scripts/post-build.mjs): builds embed.html (the `parallel-embed` binary: one widget, without
// the lesson) with the same profile as the page, and adds it to the page's build. Trunk builds
// one HTML target per run, so this runs a second `trunk build embed.html` into a folder of its
// own and copies what it wrote (embed.html and its hashed wasm, JS, CSS, JS snippets) next to
// index.html.
// That way `trunk build` and `trunk serve` both give the whole site. The inner build runs the
// hook too; PARALLEL_LAB_EMBED_BUILD tells it not to build the embed again.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Whether this is the inner build, which must not build the embed again. */
export const inner = Boolean(process.env.PARALLEL_LAB_EMBED_BUILD);

/** Builds embed.html and copies it, with its files, into `staging`. Throws when it fails. */
export function addEmbed(staging) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'parallel-lab-embed-'));
  const release = process.env.TRUNK_PROFILE === 'release';
  const args = ['build', 'embed.html', '--dist', out, ...(release ? ['--release'] : [])];
  console.log(`embed.mjs: trunk ${args.join(' ')}`);
  const run = spawnSync('trunk', args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PARALLEL_LAB_EMBED_BUILD: '1' },
  });
  if (run.status !== 0) {
    throw new Error(`embed.mjs: the embed build failed (${run.error ?? `exit ${run.status}`})`);
  }
  for (const name of readdirSync(out)) {
    // Trunk names its output after the target or index.html, depending on the version.
    // Folders too: wasm-bindgen's JS snippets are in snippets/<crate-hash>/.
    const to = name === 'index.html' ? 'embed.html' : name;
    cpSync(path.join(out, name), path.join(staging, to), { recursive: true });
  }
  rmSync(out, { recursive: true, force: true });
  console.log('embed.mjs: embed.html and its files added to the build');
}
