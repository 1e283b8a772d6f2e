// Part of scripts/check-modules.mjs (see its header): Rust source read lexically: comments and strings
// blanked, then each file's `mod` declarations, `use` leaves and inline paths.

/** `src` with comments, strings and char literals blanked out (newlines kept, so line numbers
 * hold). Lifetimes (`'a`) are kept. */
export function stripRust(src) {
  const out = [];
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  let i = 0;
  const n = src.length;
  const identChar = (c) => c !== undefined && /[A-Za-z0-9_]/.test(c);
  while (i < n) {
    const c = src[i];
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      let j = src.indexOf('\n', i);
      if (j < 0) j = n;
      out.push(blank(src.slice(i, j)));
      i = j;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (src[j] === '/' && src[j + 1] === '*') { depth++; j += 2; }
        else if (src[j] === '*' && src[j + 1] === '/') { depth--; j += 2; }
        else j++;
      }
      out.push(blank(src.slice(i, j)));
      i = j;
    } else if ((c === 'r' || (c === 'b' && next === 'r')) && !identChar(src[i - 1])
      && /^b?r#*"/.test(src.slice(i, i + 300))) {
      // A raw string: r"…", r#"…"#, br##"…"##.
      const m = /^b?r(#*)"/.exec(src.slice(i));
      const close = `"${m[1]}`;
      let j = src.indexOf(close, i + m[0].length);
      j = j < 0 ? n : j + close.length;
      out.push(blank(src.slice(i, j)));
      i = j;
    } else if (c === '"' || (c === 'b' && next === '"' && !identChar(src[i - 1]))) {
      let j = c === '"' ? i + 1 : i + 2;
      while (j < n && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      j = Math.min(j + 1, n);
      out.push(blank(src.slice(i, j)));
      i = j;
    } else if (c === '\'') {
      const m = /^'(?:\\(?:[nrt\\0'"]|x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\})|[^\\'\n])'/u.exec(
        src.slice(i, i + 12),
      );
      if (m) {
        out.push(blank(m[0]));
        i += m[0].length;
      } else {
        out.push(c); // a lifetime or a label
        i++;
      }
    } else {
      out.push(c);
      i++;
    }
  }
  return out.join('');
}

/** The line (from 1) of offset `at` in `text`. */
function lineOf(text, at) {
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * A use tree (`a::b::{c, d as e, f::*, self}`) read into leaves: `{ path, alias }` (alias
 * `null` for a glob `*`). `tokens` are identifiers, `::`, `{`, `}`, `,`, `*`.
 */
function useLeaves(tokens) {
  let pos = 0;
  const leaves = [];
  const peek = () => tokens[pos];
  const take = () => tokens[pos++];
  function tree(prefix) {
    if (peek() === '{') {
      take();
      while (peek() !== undefined && peek() !== '}') {
        tree(prefix);
        if (peek() === ',') take();
      }
      take();
      return;
    }
    if (peek() === '*') {
      take();
      leaves.push({ path: prefix, alias: null });
      return;
    }
    const segs = [...prefix];
    for (;;) {
      const t = take();
      if (t === undefined || !/^\$?[A-Za-z_]\w*$/.test(t)) return;
      segs.push(t);
      if (peek() === '::') {
        take();
        if (peek() === '{' || peek() === '*') {
          tree(segs);
          return;
        }
        continue;
      }
      break;
    }
    let alias = segs[segs.length - 1];
    if (peek() === 'as') {
      take();
      alias = take();
    }
    if (alias === 'self') {
      segs.pop();
      alias = segs[segs.length - 1];
    }
    if (alias !== '_') leaves.push({ path: segs, alias });
    else leaves.push({ path: segs, alias: null, anonymous: true });
  }
  if (peek() === '::') take(); // `use ::extern_crate::…`
  tree([]);
  return leaves;
}

/**
 * One file's module-level facts: for each module it holds (its own, `''`, and inline ones by
 * their path inside the file, `'tests'`): child modules declared (`mod x;` or `mod x { … }`),
 * use declarations, items defined, and paths written in code, each with its line.
 */
export function scanFile(text) {
  const src = stripRust(text);
  const modules = new Map();
  const module = (key) => {
    if (!modules.has(key)) {
      modules.set(key, { children: new Map(), uses: [], defs: new Set(), paths: [] });
    }
    return modules.get(key);
  };
  module('');
  const stack = []; // open braces: the inline module a brace opens, or null
  const current = () => stack.filter((s) => s !== null).join('::');
  const re = new RegExp(
    [
      String.raw`(\{)`,
      String.raw`(\})`,
      String.raw`\bmod\s+([A-Za-z_]\w*)\s*([;{])`,
      String.raw`\b(use)\b`,
      String.raw`\b(?:struct|enum|fn|trait|type|union)\s+([A-Za-z_]\w*)`,
      String.raw`\b(?:const|static)\s+(?:mut\s+)?([A-Za-z_]\w*)\s*:`,
      String.raw`\bmacro_rules!\s*([A-Za-z_]\w*)`,
      String.raw`((?:\$crate|[A-Za-z_]\w*)(?:\s*::\s*[A-Za-z_]\w*)+)`,
    ].join('|'),
    'g',
  );
  let m;
  while ((m = re.exec(src)) !== null) {
    const here = module(current());
    if (m[1]) stack.push(null);
    else if (m[2]) stack.pop();
    else if (m[3]) {
      const prefix = current();
      here.children.set(m[3], { inline: m[4] === '{', line: lineOf(src, m.index) });
      if (m[4] === '{') {
        module(prefix ? `${prefix}::${m[3]}` : m[3]);
        stack.push(m[3]);
      }
    } else if (m[5]) {
      const end = src.indexOf(';', re.lastIndex);
      const body = src.slice(re.lastIndex, end < 0 ? src.length : end);
      const tokens = body.match(/::|\$?[A-Za-z_]\w*|[{},*]/g) ?? [];
      // `use<'a>` (precise capturing) and the like: not a declaration.
      if (tokens.length > 0 && /^\s*(?:::|[A-Za-z_${])/.test(body)) {
        const line = lineOf(src, m.index);
        for (const leaf of useLeaves(tokens)) here.uses.push({ ...leaf, line });
        re.lastIndex = end < 0 ? src.length : end + 1;
      }
    } else if (m[6] || m[7] || m[8]) {
      // Items at the module's own level only: a method in an `impl` is not a module's item.
      const atModuleLevel = stack.length === 0 || stack[stack.length - 1] !== null;
      if (atModuleLevel) here.defs.add(m[6] || m[7] || m[8]);
    } else if (m[9]) {
      const segs = m[9].split(/\s*::\s*/);
      here.paths.push({ path: segs, line: lineOf(src, m.index) });
    }
  }
  return modules;
}
