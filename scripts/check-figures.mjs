#!/usr/bin/env node
// No figure is computed in the web crate (issue 51): the page formats the core's numbers, it
// does no arithmetic on them. This lexes the shipped code of web/src (comments, strings and
// `#[cfg(test)]` items and modules left out) and fails, with file:line, on each site of
// arithmetic over a figure of the core:
//   - a site: a binary `+ - * / %` (not `text + &more`, a String appended to), a negation, a
//     compound `+= -= *= /= %=`, or a numeric method (`ARITH_METHODS`: `.powi(`, `.sqrt(`,
//     `.max(`, `.min(`, `.sum(`, `.fold(` …; not `.abs()` nor `.round()`, a sign or digits
//     dropped for display). Its operands are the expressions either side (a path, call or
//     group with its `.field`, `.method(…)`, `[…]`, `?`, `as T`), or the method's receiver and
//     arguments. Precedence is not followed: a site is flagged when an operand reads a figure;
//   - a figure: a unit type (`Bytes`, `Seconds`, `BytesPerSec`) or a unit's `.gb()`, `.gib()`,
//     `.gbps()`; a numeric field of a report struct of the core (`REPORT_STRUCTS`: `Report`,
//     `Memory`, `StageMemory`, `Traffic`, `Estimate`, `Bubble`, `RolloutReport` …; the fields
//     are read from crates/parallel-core/src, so a new one is covered); a constant the file
//     takes from `parallel_core`; a name bound to a figure (`let x = m.total;`), a parameter
//     typed with a unit or named as a figure field (`output_max_abs: f64`), a binding of a
//     `PlanError::…` or `Warning::…` pattern (the plan's numbers of a reason).
// Each exception carries its reason, and one that excuses nothing fails:
//   - an allow comment `// figures: <reason>` at the end of the site's line, or alone on the
//     line before the statement it covers (to its `;`, or its `,` in a list);
//   - `EXCEPTIONS` (figures/rules.mjs): a function of a file (a chart's pixel maths), with its
//     reason;
//   - `PENDING`: figures still to move, in files other work holds: listed on each run, not
//     failing it.
//
//   node scripts/check-figures.mjs              scan web/src
//   node scripts/check-figures.mjs --verbose    also list each excused site and its reason
//   node scripts/check-figures.mjs --self-test  the scanner on its own fixtures
//
// The check lives in scripts/figures/: lexer.mjs (Rust without comments, strings or test code),
// rules.mjs (what counts as a figure; EXCEPTIONS and PENDING), sites.mjs (one file's sites),
// check.mjs (sites against the allow comments and the lists), run.mjs, self-test.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './figures/run.mjs';
import { selfTest } from './figures/self-test.mjs';

export { check } from './figures/check.mjs';
export { testModules } from './figures/lexer.mjs';
export { EXCEPTIONS, figureFields, PENDING } from './figures/rules.mjs';
export { sites } from './figures/sites.mjs';

function main(argv) {
  if (argv.includes('--self-test')) return selfTest();
  return run(argv);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2)) ? 0 : 1;
}
