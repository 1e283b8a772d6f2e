// Part of scripts/check-figures.mjs (see its header): the sites of a set of files weighed against
// the allow comments and the EXCEPTIONS and PENDING lists.
import { stripRust } from '../modules/rust-source.mjs';
import { testModules } from './lexer.mjs';
import { EXCEPTIONS, PENDING } from './rules.mjs';
import { sites } from './sites.mjs';

/** The allow comments of a file: [{ line, reason, covers: (site) => bool }]; a comment with
 * no reason has `reason` ''. */
function allows(text, tokens) {
  const lines = text.split('\n');
  const out = [];
  const code = stripRust(text).split('\n');
  lines.forEach((raw, i) => {
    const m = /\/\/\s*figures:(.*)$/.exec(raw);
    if (!m) return;
    const reason = m[1].trim();
    const line = i + 1;
    if (code[i].trim() !== '') {
      out.push({ line, reason, covers: (site) => site.line === line });
      return;
    }
    // Alone on its line: the statement that starts on the next line with code.
    const first = tokens.findIndex((x) => x.line > line);
    if (first < 0) {
      out.push({ line, reason, covers: () => false });
      return;
    }
    let end = first;
    for (let depth = 0; end < tokens.length; end++) {
      const t = tokens[end].t;
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') {
        if (--depth < 0) break;
      } else if ((t === ';' || t === ',') && depth === 0) break;
    }
    out.push({ line, reason, covers: (site) => site.at >= first && site.at <= end });
  });
  return out;
}

/** Checks files [[rel, text]]: { flagged, excused, waiting (pending), problems } (problems:
 * allow comments without a reason or covering nothing, list entries excusing nothing). */
export function check(files, fields, exceptions = EXCEPTIONS, pending = PENDING) {
  const isTest = testModules(files);
  const flagged = [];
  const excused = [];
  const waiting = [];
  const problems = [];
  const listed = [...exceptions, ...pending];
  const used = new Set();
  for (const [rel, text] of files) {
    if (isTest(rel) || !rel.endsWith('.rs')) continue;
    const { tokens, found } = sites(text, fields);
    const comments = allows(text, tokens);
    const usedComments = new Set();
    const seen = new Set();
    for (const site of found) {
      const key = `${rel}:${site.line}`;
      const comment = comments.find((c) => c.covers(site));
      const exception = listed.find((x) => x.file === rel && (!x.fn || x.fn === site.fn)
        && x.reason?.length >= 3);
      if (comment) usedComments.add(comment);
      if (exception) used.add(exception);
      if (seen.has(key)) continue;
      seen.add(key);
      const where = { file: rel, line: site.line, fn: site.fn, text: text.split('\n')[site.line - 1].trim() };
      if (comment && comment.reason.length >= 3) excused.push({ ...where, reason: comment.reason });
      else if (exception) (pending.includes(exception) ? waiting : excused).push({ ...where, reason: exception.reason });
      else flagged.push(where);
    }
    for (const c of comments) {
      if (c.reason.length < 3) problems.push(`${rel}:${c.line}: \`// figures:\` needs its reason`);
      else if (!usedComments.has(c)) problems.push(`${rel}:${c.line}: \`// figures:\` excuses no site here`);
    }
  }
  for (const x of listed) {
    const list = pending.includes(x) ? 'PENDING' : 'EXCEPTIONS';
    if (!(x.reason?.length >= 3)) problems.push(`${list}: ${x.file} ${x.fn ?? ''} needs its reason`);
    else if (!used.has(x)) problems.push(`${list}: ${x.file}${x.fn ? ` fn ${x.fn}` : ''} excuses no site: remove it`);
  }
  return { flagged, excused, waiting, problems };
}
