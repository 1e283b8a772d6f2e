// Part of scripts/check-figures.mjs (see its header): Rust read lexically, without comments,
// strings or test code: the files of a folder, `#[cfg(test)]` items and modules, tokens and
// their matching brackets.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { stripRust } from '../modules/rust-source.mjs';

/** The offset of the `}` that closes the `{` at `open`. */
export function closing(src, open) {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === '{') depth++;
    else if (src[i] === '}' && --depth === 0) return i;
  }
  return src.length;
}

/** The `.rs` files under `dir`, sorted. */
export function rustFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...rustFiles(p));
    else if (entry.name.endsWith('.rs')) out.push(p);
  }
  return out.sort();
}

/** `src` (already stripped) with each item under a `#[cfg(…test…)]` (not `not(test)`) blanked:
 * from the attribute to the item's `;` or its closing `}`. */
export function withoutTests(src) {
  const re = /#\[cfg\(([^\]]*)\)\]/g;
  let out = src;
  let m;
  while ((m = re.exec(src)) !== null) {
    if (!/\btest\b/.test(m[1]) || /not\(\s*test\b/.test(m[1])) continue;
    let end = re.lastIndex;
    while (end < src.length && src[end] !== ';' && src[end] !== '{') end++;
    end = src[end] === '{' ? closing(src, end) + 1 : end + 1;
    out = out.slice(0, m.index) + src.slice(m.index, end).replace(/[^\n]/g, ' ') + out.slice(end);
  }
  return out;
}

/** The module files a crate declares under `#[cfg(test)]` (`mod tests;`), relative to `dir`:
 * they and the folder below them are test code. */
export function testModules(files) {
  const tests = [];
  for (const [rel, text] of files) {
    const re = /#\[cfg\(([^\]]*)\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_]\w*)\s*;/g;
    for (const m of stripRust(text).matchAll(re)) {
      if (!/\btest\b/.test(m[1]) || /not\(\s*test\b/.test(m[1])) continue;
      const base = path.basename(rel);
      const dir = ['mod.rs', 'lib.rs', 'main.rs'].includes(base) ? path.dirname(rel) : rel.slice(0, -3);
      tests.push(path.join(dir, `${m[2]}.rs`), path.join(dir, m[2]) + path.sep);
    }
  }
  return (rel) => tests.some((t) => rel === t || (t.endsWith(path.sep) && rel.startsWith(t)));
}

/** Tokens of stripped source: { t, line, at, end } (`at`, `end`: its offsets). */
export function tokenize(src) {
  const re = /[A-Za-z_]\w*|'[A-Za-z_]\w*|\d[\d_]*(?:\.(?![.A-Za-z_])[\d_]*)?(?:[eE][+-]?\d+)?[A-Za-z0-9_]*|::|->|=>|==|!=|<=|>=|&&|\|\||\+=|-=|\*=|\/=|%=|\.\.=|\.\.|\S/g;
  const tokens = [];
  let line = 1;
  let last = 0;
  let m;
  while ((m = re.exec(src)) !== null) {
    for (let i = last; i < m.index; i++) if (src.charCodeAt(i) === 10) line++;
    last = m.index;
    tokens.push({ t: m[0], line, at: m.index, end: m.index + m[0].length });
  }
  return tokens;
}

export const isIdent = (t) => t !== undefined && /^[A-Za-z_]\w*$/.test(t);
export const isNumber = (t) => t !== undefined && /^\d/.test(t);

/** Indexes of matching brackets, both ways. */
export function brackets(tokens) {
  const match = new Map();
  const stack = [];
  const pairs = { ')': '(', ']': '[', '}': '{' };
  tokens.forEach(({ t }, i) => {
    if (t === '(' || t === '[' || t === '{') stack.push(i);
    else if (pairs[t]) {
      while (stack.length && tokens[stack[stack.length - 1]].t !== pairs[t]) stack.pop();
      const open = stack.pop();
      if (open !== undefined) {
        match.set(open, i);
        match.set(i, open);
      }
    }
  });
  return match;
}
