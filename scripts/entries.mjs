// Part of Trunk's post-build hook (scripts/post-build.mjs): builds the entry points other than
// index.html (the lesson) with the same profile, and adds each to the lesson's build:
// embed.html (one widget, the `parallel-embed` binary), rl.html (the RL layout step,
// `parallel-rl`) and plan.html (the planner, `parallel-plan`). Each has its own wasm, holding
// only what that entry point draws. Trunk builds one HTML target per run, so this runs one more
// `trunk build ENTRY` per entry point, each into a folder of its own, and copies what it wrote
// (the page and its hashed wasm, JS and JS snippets) next to index.html.
// That way `trunk build` and `trunk serve` both give the whole site. The inner builds run the
// hook too; PARALLEL_LAB_EMBED_BUILD tells them not to build the entry points again.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The entry points built here, beside index.html. */
export const ENTRIES = ['embed.html', 'rl.html', 'plan.html'];

/** Whether this is an inner build, which must not build the entry points again. */
export const inner = Boolean(process.env.PARALLEL_LAB_EMBED_BUILD);

/** Builds `entry` and copies it, with its files, into `staging`. Throws when it fails. */
function addEntry(staging, entry) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'parallel-lab-entry-'));
  const release = process.env.TRUNK_PROFILE === 'release';
  const args = ['build', entry, '--dist', out, ...(release ? ['--release'] : [])];
  console.log(`entries.mjs: trunk ${args.join(' ')}`);
  const run = spawnSync('trunk', args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PARALLEL_LAB_EMBED_BUILD: '1' },
  });
  if (run.status !== 0) {
    throw new Error(`entries.mjs: the ${entry} build failed (${run.error ?? `exit ${run.status}`})`);
  }
  for (const name of readdirSync(out)) {
    // Trunk names its output after the target or index.html, depending on the version.
    // Folders too: wasm-bindgen's JS snippets are in snippets/<crate-hash>/.
    const to = name === 'index.html' ? entry : name;
    cpSync(path.join(out, name), path.join(staging, to), { recursive: true });
  }
  rmSync(out, { recursive: true, force: true });
  console.log(`entries.mjs: ${entry} and its files added to the build`);
}

/** Builds every entry point of `ENTRIES` into `staging`, one after another. */
export function addEntries(staging) {
  for (const entry of ENTRIES) addEntry(staging, entry);
}
