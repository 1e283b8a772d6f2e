// Part of scripts/check-figures.mjs (see its header): the scanner on its own fixtures, each
// case a function body and the lines it must flag.
import { check } from './check.mjs';
import { figureFields } from './rules.mjs';

/** Runs the fixtures; prints and returns whether each case held. */
export function selfTest() {
  const fields = figureFields();
  const failures = [];
  for (const f of ['total', 'capacity', 'bytes', 'seconds', 'ratio', 'share', 'step_s', 'mfu', 'kv_cache', 'memory']) {
    if (!fields.has(f)) failures.push(`the core's figure fields hold \`${f}\``);
  }
  for (const f of ['fits', 'tight', 'dim', 'link', 'warnings', 'label']) {
    if (fields.has(f)) failures.push(`\`${f}\` is not a figure field`);
  }
  const wrap = (body) => `fn page(m: &Memory, r: &Report, lang: Lang) -> String {\n${body}\n}\n`;
  // [what, body, lines flagged (from 1, the body's first line being 2)]
  const cases = [
    ['a ratio of two fields', 'let s = m.total.get() / m.capacity.get();', [2]],
    ['a unit conversion', 'let gb = r.memory.total.gb() * 1000.0;', [2]],
    ['a figure bound to a name', 'let b = r.comm[0].bytes;\nlet x = b.get() + 1.0;', [3]],
    ['a unit parameter', '}\nfn g(b: Bytes) -> f64 {\n    b.get().powi(2)', [4]],
    ['a closure parameter', 'let f = |s: Seconds| s.get() * 1e3;', [2]],
    ['max over floats', 'let top = 1.0_f64.max(m.total.get());', [2]],
    ['a sum of traffic', 'let all = r.comm.iter().map(|t| t.bytes).sum::<Bytes>();', [2]],
    ['a compound assignment', 'let mut t = 0.0;\nt += r.estimate.step_s.get();', [3]],
    ['an error\'s numbers', 'match e { PlanError::NotDivisible { tp, pp, .. } => u64::from(*tp) * u64::from(*pp), _ => 0 }', [2]],
    ['a unit built in the page', 'let x = Bytes::new(1.0) * 2.0;', [2]],
    ['a cast', 'let x = r.bubble.ratio as f32 * 100.0;', [2]],
    ['a negation', 'let x = Seconds::new(-r.estimate.step_s.get());', [2]],
    ['a core constant', 'use parallel_core::evolution::{EFFECTIVE_FLOPS, X};\nlet t = EFFECTIVE_FLOPS / 1e12;', [3]],
    ['a core constant by its path', 'let s = parallel_core::margin::SAFE_SHARE * 100.0;', [2]],
    ['a constant of the page', 'const MAX: f64 = 2.0;\nlet s = MAX * 100.0;', []],
    ['a parameter named as a figure', '}\nfn g(output_max_abs: f64) -> f64 {\n    output_max_abs.max(1.0)', [4]],
    ['a warning\'s numbers', 'if let Warning::ZigzagPadding { cp, .. } = w { let n = 2 * u64::from(cp); }', [2]],
    ['a function whose type holds a `;`', '}\nfn g(b: Bytes) -> [(u8, f64); 2] {\n    [(0, b.gb() * 2.0), (1, 0.0)]', [4]],
    ['index arithmetic', 'let i = rank + 1;\nlet w = width * 0.5 - 2.0;', []],
    ['text appended', 'let s = lang.pick("a", "b").to_string() + &format::bytes(m.total);', []],
    ['markup in a view', 'view! { <td data-testid="x" data-bytes=m.total.get().to_string() /> }', []],
    ['a closure\'s pixel ratio', 'let r = w.map(|ratio| ratio * 2.0).unwrap_or(1.0).clamp(1.0, 4.0);', []],
    ['a signal read', 'let n = lang.get().len() + 1;', []],
    ['text and comments', 'let s = "total / capacity * 2"; // m.total * 2\n/* r.comm[0].bytes + 1 */', []],
    ['formatting without arithmetic', 'let s = format!("{} of {}", m.total, m.capacity);', []],
    ['a comparison', 'let fits = m.total <= m.capacity;', []],
    ['a reference and a deref', 'let x = &m.total;\nlet y = *x;', []],
    ['a test module', '}\n#[cfg(test)]\nmod tests {\n    fn t(m: Memory) { let _ = m.total.get() * 2.0; }', []],
    ['a name out of scope', '{ let b = m.total; }\nlet b = 3.0;\nlet c = b * 2.0;', []],
    ['a reasoned allow', 'let h = m.total.gb() * 3.0; // figures: the bar\'s pixel height', []],
    ['an allow above', '// figures: the bar\'s pixel height\nlet h = m.total.gb()\n    * 3.0;', []],
  ];
  for (const [what, body, want] of cases) {
    const { flagged, problems } = check([['a.rs', wrap(body)]], fields, [], []);
    const got = flagged.map((f) => f.line);
    if (got.join() !== want.join() || problems.length) {
      failures.push(`${what}: flagged lines [${got}] (wanted [${want}]) ${problems.join('; ')}`);
    }
  }
  // Exceptions and allow comments that do not hold.
  const later = check([['p.rs', wrap('let s = m.total.get() / 2.0;')]], fields, [],
    [{ file: 'p.rs', fn: 'page', reason: 'to move' }, { file: 'p.rs', fn: 'gone', reason: 'moved' }]);
  if (later.waiting.length !== 1 || later.flagged.length || later.problems.join() !== 'PENDING: p.rs fn gone excuses no site: remove it') {
    failures.push(`pending: ${JSON.stringify(later)}`);
  }
  const bad = check([
    ['a.rs', wrap('let h = m.total.gb() * 3.0; // figures:')],
    ['b.rs', wrap('let i = 1 + 2; // figures: nothing to excuse')],
    ['c.rs', wrap('let s = m.total.get() / 2.0;')],
    ['d.rs', wrap('let s = m.total.get() / 2.0;')],
    ['lib.rs', '#[cfg(test)]\n#[allow(clippy::unwrap_used)]\nmod tests;\n'],
    ['tests.rs', wrap('let s = m.total.get() / 2.0;')],
  ], fields, [
    { file: 'c.rs', fn: 'page', reason: 'pixels' },
    { file: 'c.rs', fn: 'other', reason: 'stale' },
    { file: 'd.rs', reason: '' },
  ], []);
  const want = ['a.rs:2: `// figures:` needs its reason', 'b.rs:2: `// figures:` excuses no site here',
    'EXCEPTIONS: c.rs fn other excuses no site: remove it', 'EXCEPTIONS: d.rs  needs its reason'];
  if (bad.problems.join('\n') !== want.join('\n')) failures.push(`problems: ${bad.problems.join('; ')}`);
  const flaggedFiles = bad.flagged.map((f) => f.file).join(' ');
  if (flaggedFiles !== 'a.rs d.rs') failures.push(`flagged: ${flaggedFiles} (wanted a.rs d.rs: a reasonless allow and a reasonless exception excuse nothing, a test module is skipped)`);
  if (failures.length) {
    console.error('check-figures self-test: FAILED');
    for (const f of failures) console.error(`  ${f}`);
    return false;
  }
  console.log(`check-figures self-test: ${cases.length + 2} cases pass`);
  return true;
}
