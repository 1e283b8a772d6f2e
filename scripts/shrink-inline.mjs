// Trunk post-build step: the classic inline scripts of each built page (landing.js, inlined by
// Trunk's rel="inline") lose their whole-line comments, blank lines and indentation, which
// would otherwise ship in every page. The source keeps its comments (web/src/landing.rs runs
// the source under Node.js); only the copy in dist/ is shrunk. Trunk's own module script is
// left as it is. A script with a backtick keeps its indentation (a template literal's text).
// Runs before scripts/csp.mjs, which hashes the scripts as shipped.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** `source` without whole-line `//` comments, blank lines and (unless it has a backtick) indentation. */
export function shrink(source) {
  const keepIndent = source.includes('`');
  return source
    .split('\n')
    .filter((line) => !/^\s*(\/\/.*)?$/.test(line))
    .map((line) => (keepIndent ? line : line.trimStart()))
    .join('\n');
}

/** Shrinks the classic inline scripts of every page of `dir`; returns the bytes saved. */
export function shrinkInlineScripts(dir) {
  let saved = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.html'))) {
    const file = path.join(dir, name);
    const html = readFileSync(file, 'utf8');
    const out = html.replace(/(<script(?![^>]*\b(?:src|type)=)[^>]*>)([\s\S]*?)(<\/script>)/g, (_, open, body, close) => {
      const small = `\n${shrink(body)}\n`;
      saved += body.length - small.length;
      return open + small + close;
    });
    writeFileSync(file, out);
  }
  console.log(`shrink-inline.mjs: ${saved} bytes of comments and indentation left out of inline scripts`);
  return saved;
}

if (process.argv.includes('--self-test')) {
  const cases = [
    ['  // a comment\n  var a = 1; // kept\n\n  var b = "//";\n', 'var a = 1; // kept\nvar b = "//";'],
    ['var t = `\n  x`;\n// gone\n', 'var t = `\n  x`;'],
  ];
  for (const [input, want] of cases) {
    const got = shrink(input);
    if (got !== want) {
      console.error(`shrink-inline.mjs self-test: ${JSON.stringify(input)} gave ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      process.exit(1);
    }
  }
  console.log(`shrink-inline.mjs self-test: ${cases.length} cases`);
}
