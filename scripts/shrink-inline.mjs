// Trunk post-build step: what each built page ships beyond its markup is left out of it.
// - the classic inline scripts (landing.js, Trunk's rel="inline") lose their whole-line
//   comments, blank lines and indentation;
// - the stylesheet (assets/style/*.css, one <style> per file) becomes one <style>, without
//   comments, indentation or blank lines;
// - the source pages' HTML comments (notes for whoever edits index.html or embed.html) go;
//   the text of scripts and styles is left to the two steps above.
// The sources keep their comments (web/src/state/landing.rs runs landing.js's source under Node.js);
// only the copies in dist/ are shrunk. Trunk's own module script is left as it is. A script
// with a backtick keeps its indentation (a template literal's text). Runs before
// scripts/csp.mjs, which hashes the scripts and the style as shipped.
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

/**
 * `css` without `/* … *\/` comments, indentation, trailing spaces and blank lines. Throws on a
 * quoted string that holds `/*`, where a comment could not be told from text.
 */
export function shrinkCss(css) {
  if (/(["'])[^"'\n]*\/\*[^"'\n]*\1/.test(css)) {
    throw new Error('shrink-inline.mjs: a CSS string holds "/*"; its comments cannot be stripped safely');
  }
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

/** `html` with its consecutive `<style>` elements as one, shrunk; and the bytes it saved. */
export function shrinkStyles(html) {
  let saved = 0;
  const out = html.replace(/<style>[\s\S]*?<\/style>(?:\s*<style>[\s\S]*?<\/style>)*/g, (run) => {
    const css = [...run.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
    const small = `<style>\n${shrinkCss(css)}\n</style>`;
    saved += run.length - small.length;
    return small;
  });
  return { html: out, saved };
}

/** `html` without its `<!-- … -->` comments, outside scripts and styles. */
export function dropComments(html) {
  return html
    .split(/(<(script|style)\b[\s\S]*?<\/\2>)/)
    .map((part, i) => {
      if (i % 3 === 1) return part;
      if (i % 3 === 2) return '';
      // A comment on lines of its own goes with them; any other, alone.
      return part.replace(/\n[ \t]*<!--[\s\S]*?-->(?=[ \t]*\n)/g, '').replace(/<!--[\s\S]*?-->/g, '');
    })
    .join('');
}

/** Shrinks the classic inline scripts and the styles of every page of `dir`, and drops its HTML
 * comments; returns the bytes saved. */
export function shrinkPages(dir) {
  let saved = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.html'))) {
    const file = path.join(dir, name);
    const html = readFileSync(file, 'utf8');
    const scripts = html.replace(/(<script(?![^>]*\b(?:src|type)=)[^>]*>)([\s\S]*?)(<\/script>)/g, (_, open, body, close) => {
      const small = `\n${shrink(body)}\n`;
      saved += body.length - small.length;
      return open + small + close;
    });
    const styles = shrinkStyles(scripts);
    const out = dropComments(styles.html);
    saved += styles.saved + styles.html.length - out.length;
    writeFileSync(file, out);
  }
  console.log(`shrink-inline.mjs: ${saved} bytes of comments and indentation left out of inline scripts, styles and HTML`);
  return saved;
}

if (process.argv.includes('--self-test')) {
  const cases = [
    [shrink, '  // a comment\n  var a = 1; // kept\n\n  var b = "//";\n', 'var a = 1; // kept\nvar b = "//";'],
    [shrink, 'var t = `\n  x`;\n// gone\n', 'var t = `\n  x`;'],
    [shrinkCss, '/* a\n * b */\n.a {\n  color: red; /* c */\n}\n\n.b::before { content: "→ "; }\n', '.a {\ncolor: red;\n}\n.b::before { content: "→ "; }'],
    [
      dropComments,
      '<head>\n    <!-- a\n  note -->\n    <script>var a = "<!-- kept -->";</script><style>.a{}</style><!--x--><p>b</p></head>',
      '<head>\n    <script>var a = "<!-- kept -->";</script><style>.a{}</style><p>b</p></head>',
    ],
    [
      (html) => shrinkStyles(html).html,
      '<head><style>/* one */\n.a { x: 1; }\n</style>\n    <style>\n  .b { y: 2; }\n</style><p>\n  kept\n</p></head>',
      '<head><style>\n.a { x: 1; }\n.b { y: 2; }\n</style><p>\n  kept\n</p></head>',
    ],
  ];
  for (const [fn, input, want] of cases) {
    const got = fn(input);
    if (got !== want) {
      console.error(`shrink-inline.mjs self-test: ${fn.name}(${JSON.stringify(input)}) gave ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      process.exit(1);
    }
  }
  let refused = false;
  try {
    shrinkCss('.a::before { content: "/* x */"; }');
  } catch {
    refused = true;
  }
  if (!refused) {
    console.error('shrink-inline.mjs self-test: a "/*" inside a CSS string was not refused');
    process.exit(1);
  }
  console.log(`shrink-inline.mjs self-test: ${cases.length + 1} cases`);
}
