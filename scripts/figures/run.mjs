// Part of scripts/check-figures.mjs (see its header): scans web/src and words the result.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { check } from './check.mjs';
import { rustFiles } from './lexer.mjs';
import { figureFields, ROOT, WEB } from './rules.mjs';

/** Scans web/src (`--verbose`: listing each excused site too); returns whether it passed. */
export function run(argv) {
  const files = rustFiles(path.join(ROOT, WEB))
    .map((f) => [path.relative(ROOT, f), readFileSync(f, 'utf8')]);
  const { flagged, excused, waiting, problems } = check(files, figureFields());
  if (argv.includes('--verbose')) {
    for (const e of excused) console.log(`${e.file}:${e.line}: excused (${e.reason}): ${e.text}`);
  }
  for (const w of waiting) console.log(`${w.file}:${w.line}: pending, to move into the core: ${w.reason}`);
  for (const f of flagged) {
    console.error(`${f.file}:${f.line}: arithmetic over a core figure${f.fn ? ` in fn ${f.fn}` : ''}: ${f.text}`);
  }
  for (const p of problems) console.error(p);
  if (flagged.length || problems.length) {
    console.error(`check-figures: ${flagged.length} site(s) computing on the core's figures in ${WEB}: `
      + 'move each into the core (a pub fn with a test), or give it `// figures: <reason>`');
    return false;
  }
  console.log(`check-figures: ${files.length} files, no figure computed (${excused.length} site(s) excused with `
    + `a reason, ${waiting.length} pending)`);
  return true;
}
