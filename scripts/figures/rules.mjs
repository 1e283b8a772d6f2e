// Part of scripts/check-figures.mjs (see its header): what counts as a figure (the core's report
// structs, the unit types and methods, the methods that compute) and the lists of functions
// excused from the check, each with its reason.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripRust } from '../modules/rust-source.mjs';
import { closing, rustFiles } from './lexer.mjs';

/** The repository root, and the folders under it: the page scanned, the core read for fields. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB = 'web/src';
const CORE = 'crates/parallel-core/src';

/** Functions of web/src that compute on figures by design, each with its reason: a chart's
 * pixel maths (its axes, the positions of what it draws) and layout. */
export const EXCEPTIONS = [
  { file: 'web/src/kit/charts/balance.rs', fn: 'draw', reason: 'pixels: the axes\' ends over the points and the capacity' },
  { file: 'web/src/kit/charts/bubble.rs', fn: 'draw', reason: 'pixels: the log axis in percent, the points on it' },
  { file: 'web/src/kit/charts/check_plot.rs', fn: 'draw_panel', reason: 'pixels: a panel\'s log axes and its points' },
  { file: 'web/src/kit/charts/check_plot.rs', fn: 'summary', reason: 'the chart in words (aria-label): the range of its axis' },
  { file: 'web/src/kit/charts/memory.rs', fn: 'draw', reason: 'pixels: the axis top, the stacked bars\' bases' },
  { file: 'web/src/kit/charts/ratios.rs', fn: 'y_range', reason: 'pixels: the log axis\'s ends' },
  { file: 'web/src/kit/charts/ratios.rs', fn: 'draw_points', reason: 'pixels: a point on the log axis' },
  { file: 'web/src/kit/charts/schedule.rs', fn: 'draw', reason: 'pixels: the timeline\'s rows and ticks' },
  { file: 'web/src/kit/charts/stages/draw.rs', fn: 'of', reason: 'pixels: the axis top over the stacked bars' },
  { file: 'web/src/kit/charts/stages/draw.rs', fn: 'fit', reason: 'layout: which names under the bars fit' },
  { file: 'web/src/kit/charts/traffic.rs', fn: 'positive_range', reason: 'pixels: the axis\'s range' },
  { file: 'web/src/kit/charts/traffic.rs', fn: 'traffic_series', reason: 'pixels: a log axis when the bars span one' },
];

/** Figures still computed in the page, in files other work holds (issue 51): reported on each
 * run without failing it, each until it moves (then its entry, excusing nothing, fails). */
export const PENDING = [
];

/** The core's report structs: their numeric fields (and fields holding another of them) are
 * figures. */
const REPORT_STRUCTS = [
  'Report', 'Memory', 'ModelStates', 'Activations', 'HostMemory', 'StageMemory', 'Traffic',
  'Bubble', 'Estimate', 'KernelSplit', 'LayerKernels', 'CommTime', 'RolloutReport',
  'EvolutionFigures', 'TpBench', 'Timeline', 'MeasuredRow', 'RunRow', 'CheckRow', 'Predicted',
  'LayerFigures', 'Found',
];
export const UNIT_TYPES = new Set(['Bytes', 'Seconds', 'BytesPerSec']);
export const UNIT_METHODS = new Set(['gb', 'gib', 'gbps']);
/** Enums whose variants carry a plan's numbers: names bound in their patterns are figures. */
export const FIGURE_ENUMS = new Set(['PlanError', 'Warning']);
/** Methods that compute: a call on a figure, or with one as an argument, is a site. */
export const ARITH_METHODS = new Set([
  'powi', 'powf', 'sqrt', 'cbrt', 'exp', 'ln', 'log', 'log2', 'log10', 'recip', 'max',
  'min', 'clamp', 'mul_add', 'hypot', 'sum', 'product', 'fold', 'div_ceil', 'abs_diff',
  'div_euclid', 'rem_euclid', 'saturating_add', 'saturating_sub', 'saturating_mul',
  'checked_add', 'checked_sub', 'checked_mul', 'checked_div', 'wrapping_add', 'wrapping_sub',
  'wrapping_mul',
]);
const NUMERIC = /^(?:f32|f64|u8|u16|u32|u64|u128|usize|i8|i16|i32|i64|i128|isize)$/;
/** Words after which a `-` or `*` is unary, not an operator. */
export const KEYWORDS = new Set([
  'return', 'in', 'let', 'if', 'else', 'match', 'while', 'for', 'loop', 'mut', 'move', 'as',
  'break', 'continue', 'where', 'impl', 'dyn', 'ref', 'fn', 'pub', 'use', 'const', 'static',
]);

/** The figure fields: each numeric field of a `REPORT_STRUCTS` struct in the core's sources. */
export function figureFields(coreDir = path.join(ROOT, CORE)) {
  const fields = new Set();
  const typeIsFigure = (type) => {
    const words = type.match(/[A-Za-z_]\w*/g) ?? [];
    return words.some((w) => NUMERIC.test(w) || UNIT_TYPES.has(w) || REPORT_STRUCTS.includes(w));
  };
  for (const file of rustFiles(coreDir)) {
    const src = stripRust(readFileSync(file, 'utf8'));
    const re = /\bpub struct ([A-Za-z_]\w*)\b[^;{(]*\{/g;
    let m;
    while ((m = re.exec(src)) !== null) {
      if (!REPORT_STRUCTS.includes(m[1])) continue;
      const body = src.slice(re.lastIndex, closing(src, re.lastIndex - 1));
      for (const f of body.matchAll(/\bpub ([a-z_][a-z0-9_]*)\s*:\s*([^,]+),/g)) {
        if (typeIsFigure(f[2])) fields.add(f[1]);
      }
    }
  }
  return fields;
}
