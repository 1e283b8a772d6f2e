#!/usr/bin/env node
// Numbers the core owns are quoted from its constants, never retyped in prose: the safe share
// (margin::SAFE_SHARE, "80%"), the DP bucket (estimate::DP_BUCKET_BYTES, "50 MB") and the
// estimate's factors (FULL_RECOMPUTE_FACTOR "4/3", TP_FULL_RECOMPUTE_BYTES "3/2",
// BACKWARD_SHARE "2/3"). This scans the shipped code of the core, the CLI and the page (comments
// and each file's `#[cfg(test)]` tail left out) for those numbers written out, and fails with
// file:line for each. The texts fill them in from the constants instead (web/src/kit/format.rs,
// crates/parallel-cli/src/usage.rs).
//
//   node scripts/check-prose.mjs              scan the repository
//   node scripts/check-prose.mjs --self-test  the scanner on its own fixtures
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Each number as prose writes it, with the constant that owns it.
const OWNED = [
  { re: /(?<![\d.%])80 ?%/, constant: 'margin::SAFE_SHARE' },
  { re: /(?<![\d.])50 ?MB\b/, constant: 'estimate::DP_BUCKET_BYTES' },
  { re: /[×x] ?4\/3\b/, constant: 'estimate::FULL_RECOMPUTE_FACTOR' },
  { re: /[×x] ?3\/2\b/, constant: 'estimate::TP_FULL_RECOMPUTE_BYTES' },
  { re: /(?<![\d/-])2\/3(?![\d/])/, constant: 'estimate::BACKWARD_SHARE' },
];

// The constants' own definitions, which quote their sources.
const OWNERS = new Set(['crates/parallel-core/src/margin.rs']);

/** Findings in one file's text: [{ line, text, constant }]. */
export function scan(source) {
  const found = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // The test tail: a `#[cfg(test)]` at the start of a line, before a `mod`.
    if (/^#\[cfg\(test\)\]/.test(line) && /^(pub(\(crate\))? )?mod /.test(lines[i + 1] ?? '')) break;
    const code = line.replace(/^\s*\/\/.*$/, '').replace(/\s\/\/[^"]*$/, '');
    for (const { re, constant } of OWNED) {
      if (re.test(code)) found.push({ line: i + 1, text: line.trim(), constant });
    }
  }
  return found;
}

function selfTest() {
  const cases = [
    ['zh: "偏紧：超过容量的 80%",', 1],
    ['en: "above {safe} of its capacity",', 0],
    ['/// Fits, but above 80% of the card.', 0],
    ['let x = 1; // 80% here is a comment', 0],
    ['"DP in 50 MB buckets"', 1],
    ['"(bytes × 3/2)"', 1],
    ['"FLOPs x 4/3"', 1],
    ['"behind the backward (2/3 of compute)"', 1],
    ['"12/3 and 2/35 are other numbers, 180%, 50 MBps"', 0],
    ['"ZeRO-2/3 keep a shard", "%E3%80%80"', 0],
    ['#[cfg(test)]\nmod tests {\n    assert_eq!(s, "80%");\n}', 0],
  ];
  let failed = 0;
  for (const [source, want] of cases) {
    const got = scan(source).length;
    if (got !== want) {
      console.error(`self-test: ${JSON.stringify(source)}: ${got} findings, wanted ${want}`);
      failed++;
    }
  }
  if (failed) process.exit(1);
  console.log(`check-prose self-test: ${cases.length} cases pass`);
}

function main() {
  const files = execFileSync('git', ['ls-files', '--', 'crates/*/src/**.rs', 'web/src/**.rs'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f.endsWith('.rs') && !OWNERS.has(f) && !/(^|\/)tests?(\.rs|\/)/.test(f));
  let count = 0;
  for (const file of files) {
    for (const f of scan(readFileSync(path.join(ROOT, file), 'utf8'))) {
      console.error(`${file}:${f.line}: quote ${f.constant} instead of writing it: ${f.text}`);
      count++;
    }
  }
  if (count) {
    console.error(`check-prose: ${count} number(s) the core owns written out in prose`);
    process.exit(1);
  }
  console.log(`check-prose: ${files.length} files, no owned number written out`);
}

if (process.argv.includes('--self-test')) selfTest();
else main();
