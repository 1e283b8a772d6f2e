// Part of scripts/check-figures.mjs (see its header): one file's sites of arithmetic over a
// figure, the names bound to figures followed through its blocks.
import { stripRust } from '../modules/rust-source.mjs';
import {
  brackets, isIdent, isNumber, tokenize, withoutTests,
} from './lexer.mjs';
import {
  ARITH_METHODS, FIGURE_ENUMS, KEYWORDS, UNIT_METHODS, UNIT_TYPES,
} from './rules.mjs';

/** One file's tokens and its sites over a figure: { tokens, found: [{ line, fn, at }] }
 * (`at` the site's token), `fields` the figure fields. */
export function sites(text, fields) {
  const tokens = tokenize(withoutTests(stripRust(text)));
  const match = brackets(tokens);
  const tok = (i) => tokens[i]?.t;
  const taints = []; // { name, depth, until }: bound in the block at `depth`, up to token `until`
  const tainted = (name, at) => taints.some((x) => x.name === name && at <= x.until);
  const taint = (name, depth, until = Infinity) => {
    if (isIdent(name) && !KEYWORDS.has(name) && name !== '_' && name !== 'self') {
      taints.push({ name, depth, until });
    }
  };

  // An operand's extent: [start, end) around a site.
  const leftOf = (j) => {
    let k = j;
    for (;;) {
      const t = tok(k);
      if (t === ')' || t === ']') {
        k = match.get(k) ?? k;
        const p = tok(k - 1);
        if (isIdent(p) || p === '!' || p === '>') { k--; continue; }
        return k;
      }
      if (t === '?' || t === '!') { k--; continue; }
      if (t === '>' && tok(k - 1) !== '-') {
        // A turbofish `::<T>` before a call.
        let depth = 0;
        let i = k;
        for (; i > 0; i--) {
          if (tok(i) === '>') depth++;
          else if (tok(i) === '<' && --depth === 0) break;
        }
        if (tok(i - 1) === '::') { k = i - 2; continue; }
        return k + 1;
      }
      if (isIdent(t) || isNumber(t)) {
        const p = tok(k - 1);
        if (p === 'as') { k -= 2; continue; }
        if (p === '.' || p === '::') { k -= 2; continue; }
        return k;
      }
      return k + 1;
    }
  };
  const rightOf = (j) => {
    let k = j;
    while (['-', '*', '&', '!', 'mut'].includes(tok(k))) k++;
    const t = tok(k);
    if (t === '(' || t === '[') k = (match.get(k) ?? k) + 1;
    else if (isIdent(t) || isNumber(t)) {
      k++;
      while (tok(k) === '::') {
        if (tok(k + 1) === '<') k = skipAngles(k + 1);
        else k += 2;
      }
      if (tok(k) === '!' && ['(', '[', '{'].includes(tok(k + 1))) k = (match.get(k + 1) ?? k) + 1;
      else if (tok(k) === '(') k = (match.get(k) ?? k) + 1;
    } else return k;
    for (;;) {
      if (tok(k) === '.' && (isIdent(tok(k + 1)) || isNumber(tok(k + 1)))) {
        k += 2;
        if (tok(k) === '::' && tok(k + 1) === '<') k = skipAngles(k + 1);
        if (tok(k) === '(') k = (match.get(k) ?? k) + 1;
      } else if (tok(k) === '[') k = (match.get(k) ?? k) + 1;
      else if (tok(k) === '?') k++;
      else if (tok(k) === 'as' && isIdent(tok(k + 1))) k += 2;
      else return k;
    }
  };
  const skipAngles = (open) => {
    let depth = 0;
    for (let i = open; i < tokens.length; i++) {
      if (tok(i) === '<') depth++;
      else if (tok(i) === '>' && --depth === 0) return i + 1;
    }
    return tokens.length;
  };
  /** Whether tokens [s, e) read a figure. */
  const readsFigure = (s, e) => {
    for (let i = Math.max(s, 0); i < e; i++) {
      const [p, t, n] = [tok(i - 1), tok(i), tok(i + 1)];
      if (!isIdent(t)) continue;
      if (UNIT_TYPES.has(t) || (constants.has(t) && p !== '.')) return true;
      if (p === '.' && n !== '(' && n !== '::' && fields.has(t)) return true;
      if (p === '.' && n === '(' && UNIT_METHODS.has(t)) return true;
      if (p !== '.' && p !== '::' && n !== '(' && n !== '::' && n !== '!' && tainted(t, i)) return true;
    }
    return false;
  };
  /** Whether the token at `i` is markup in a `view!`: the `/` of `/>`, the `-` of a
   * `data-testid` (touching the names on both sides, as no formatted Rust writes a minus). */
  const markup = (i) => {
    const [p, x, n] = [tokens[i - 1], tokens[i], tokens[i + 1]];
    if (x.t === '/' && n?.t === '>' && n.at === x.end) return true;
    return x.t === '-' && isIdent(p?.t) && isIdent(n?.t) && p.end === x.at && x.end === n.at;
  };
  /** Whether the type written in tokens [s, e) holds a unit. */
  const readsTypeUnit = (s, e) => {
    for (let k = s; k < e; k++) if (UNIT_TYPES.has(tok(k))) return true;
    return false;
  };
  /** The end of the statement or list item starting at `i`: its `;` or `,`, or the closer of
   * the list it is in. */
  const statementEnd = (i) => {
    for (let k = i; k < tokens.length; k++) {
      const t = tok(k);
      if ((t === '(' || t === '[' || t === '{') && match.has(k)) k = match.get(k);
      else if (t === ';' || t === ',' || t === ')' || t === ']' || t === '}') return k;
    }
    return tokens.length;
  };

  // The core's constants this file names: `use parallel_core::…::{NAME, …}` or in a path.
  const constants = new Set();
  for (let i = 0; i < tokens.length; i++) {
    if (tok(i) !== 'parallel_core') continue;
    const inUse = tok(i - 1) === 'use';
    for (let k = i + 1; k < tokens.length && tok(k) !== ';'; k++) {
      if (/^[A-Z][A-Z0-9_]+$/.test(tok(k))) constants.add(tok(k));
      if (!inUse && isIdent(tok(k)) && tok(k + 1) !== '::') break; // a path's last segment
    }
  }
  const found = [];
  const fnStack = []; // { name, depth }
  const bodies = new Map(); // the `{` of a function's body → its name
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tok(i);
    if (t === '{') {
      depth++;
      if (bodies.has(i)) fnStack.push({ name: bodies.get(i), depth });
    } else if (t === '}') {
      while (taints.length && taints[taints.length - 1].depth >= depth) taints.pop();
      while (fnStack.length && fnStack[fnStack.length - 1].depth >= depth) fnStack.pop();
      depth--;
    }
    if (t === 'fn' && isIdent(tok(i + 1))) {
      // Parameters typed with a unit (`b: Bytes`, `x: Option<Seconds>`) or named as a figure
      // field (`total: f64`).
      const open = tokens.findIndex((x, k) => k > i && x.t === '(');
      const close = match.get(open) ?? open;
      for (let k = open + 1; k < close; k++) {
        if (isIdent(tok(k)) && tok(k + 1) === ':') {
          const end = statementEnd(k + 2);
          if (readsTypeUnit(k + 2, end) || fields.has(tok(k))) taint(tok(k), depth + 1);
        }
      }
      // Its body: the first `{` after the parameters outside brackets (none after a `;`).
      for (let k = close + 1; k < tokens.length; k++) {
        if ((tok(k) === '(' || tok(k) === '[') && match.has(k)) k = match.get(k);
        else if (tok(k) === ';') break;
        else if (tok(k) === '{') {
          bodies.set(k, tok(i + 1));
          break;
        }
      }
    }
    if (t === '|' && ['(', ',', '=', 'move', '{', ';', '=>', 'return'].includes(tok(i - 1))) {
      // A closure's parameters typed with a unit (`|b: Bytes|`), in its body. (Not by name, as
      // a function's are: `|ratio|` is as often a pixel ratio.)
      let end = i + 1;
      while (end < tokens.length && tok(end) !== '|') {
        end = (tok(end) === '(' || tok(end) === '[') && match.has(end) ? match.get(end) + 1 : end + 1;
      }
      // Its body: a block, or an expression to the end of the argument.
      const body = tok(end + 1) === '{' ? match.get(end + 1) ?? end : statementEnd(end + 1);
      for (let k = i + 1; k < end; k++) {
        if (!isIdent(tok(k)) || tok(k - 1) === ':' || tok(k - 1) === '::') continue;
        const typed = tok(k + 1) === ':' && readsTypeUnit(k + 2, statementEnd(k + 2));
        if (typed) taint(tok(k), depth, body);
      }
    }
    if (t === 'let') {
      // `let PATTERN [: TYPE] = EXPR;`: the pattern's names are figures if EXPR reads one or
      // TYPE is a unit.
      let k = i + 1;
      const names = [];
      for (; k < tokens.length && tok(k) !== '=' && tok(k) !== ':' && tok(k) !== ';'; k++) {
        if (match.has(k) && tok(k) === '(') continue;
        if (isIdent(tok(k)) && tok(k + 1) !== '(' && tok(k + 1) !== '::' && tok(k + 1) !== '{'
          && tok(k - 1) !== '::' && /^[a-z_]/.test(tok(k))) names.push(tok(k));
      }
      let figure = false;
      if (tok(k) === ':') {
        const eq = tokens.findIndex((x, q) => q > k && (x.t === '=' || x.t === ';'));
        figure = readsTypeUnit(k + 1, eq);
        k = eq;
      }
      if (tok(k) === '=') figure ||= readsFigure(k + 1, statementEnd(k + 1));
      if (figure) for (const name of names) taint(name, depth);
    }
    if (FIGURE_ENUMS.has(t) && tok(i + 1) === '::' && isIdent(tok(i + 2)) && tok(i + 3) === '{') {
      // A pattern `PlanError::NotDivisible { gpus, tp, pp: p, .. }`: its bindings.
      const close = match.get(i + 3) ?? i + 3;
      for (let k = i + 4; k < close; k++) {
        if (!isIdent(tok(k))) continue;
        if ([',', '}', '@'].includes(tok(k + 1)) && tok(k - 1) !== '::') taint(tok(k), depth);
      }
    }

    // The sites.
    let operands = null;
    if (['+', '-', '*', '/', '%'].includes(t)) {
      const p = tok(i - 1);
      const binary = ((isIdent(p) && !KEYWORDS.has(p)) || isNumber(p) || p === ')' || p === ']' || p === '?')
        && !markup(i);
      // `text + &more` appends to a String: no arithmetic.
      const appends = t === '+' && tok(i + 1) === '&';
      if (binary && !appends && !(t === '*' && tok(i + 1) === 'const')) {
        operands = [[leftOf(i - 1), i], [i + 1, rightOf(i + 1)]];
      } else if (t === '-' && !binary && !markup(i)) operands = [[i + 1, rightOf(i + 1)]]; // a negation
    } else if (['+=', '-=', '*=', '/=', '%='].includes(t)) {
      operands = [[leftOf(i - 1), i], [i + 1, statementEnd(i + 1)]];
    } else if (t === '.' && ARITH_METHODS.has(tok(i + 1)) && (tok(i + 2) === '(' || tok(i + 2) === '::')) {
      const open = tok(i + 2) === '(' ? i + 2 : skipAngles(i + 3);
      operands = [[leftOf(i - 1), i], [open, (match.get(open) ?? open) + 1]];
    }
    if (operands) {
      const figure = operands.some(([s, e]) => readsFigure(s, e));
      found.push({ line: tokens[i].line, fn: fnStack[fnStack.length - 1]?.name ?? null, figure, at: i });
    }
  }
  return { tokens, found: found.filter((s) => s.figure) };
}
