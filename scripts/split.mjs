// Part of Trunk's post-build hook (scripts/post-build.mjs): each page's wasm split at its split
// points (web/src/state/split.rs), so that the module a page waits for before its controls
// answer holds only what its first screen needs, and each part drawn later is fetched when it
// is drawn.
//
// Trunk 0.21 runs wasm-bindgen itself, on the whole module, and a split must come before it
// (trunk-rs/trunk#1022). So, for each module of this build that cargo linked for the splitter
// (a release build: release_env's `--cfg wasm_split -Clink-args=--emit-relocs`), this does
// again what Trunk did, as cargo-leptos's `--split` does (its src/compile/front.rs):
//   0. the other pages' split points are left out (`withoutOrphanExports`);
//   1. wasm-split-cli (wasm_split_cli_support 0.2.3, scripts/setup.sh) cuts cargo's output
//      into the main module, one module per split point's name (and modules of code two of
//      them share), and the JS that fetches them (`__wasm_split.js`);
//   2. wasm-bindgen, with `--keep-lld-exports` (the split modules import the main module's
//      functions, memory and table by those names), writes the page's JS and wasm;
//   3. wasm-opt -Oz (the page's `data-wasm-opt="z"`) shrinks the main module and each split one;
// and puts them under Trunk's hashed names in its staging folder: the main module's JS and
// wasm replace Trunk's (their integrity in the page is written again), the loader is
// `<stem>-split.js` (preloaded with the page's module, since that module imports it, and
// naming the split modules in `data-split-modules` for the service worker's offline copy), and
// the split modules are `<stem>-<name>.wasm`, `<stem>` being Trunk's `<bin>-<hash>`.
// A module without split points of its own (the planner's search worker) goes through the same
// steps, the splitter then only dropping what the other pages' split points alone reach.
// A debug build is left as Trunk wrote it.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The unsigned LEB128 number at `at` in `bytes`: [value, the offset after it]. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
    shift += 7;
  }
}

/** `value` as unsigned LEB128. */
function toLeb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Buffer.from(out);
}

/** The name at `at` in `bytes`: [text, the offset after it]. */
function wasmName(bytes, at) {
  const [length, start] = leb(bytes, at);
  return [bytes.toString('utf8', start, start + length), start + length];
}

/** The offset after an import's description of `kind` at `at` (wasm 2.0's kinds). */
function skipImport(bytes, kind, at) {
  const limits = (from) => {
    const flags = bytes[from];
    const [, after] = leb(bytes, from + 1);
    return flags & 1 ? leb(bytes, after)[1] : after;
  };
  if (kind === 0) return leb(bytes, at)[1]; // a function: its type
  if (kind === 1) return limits(at + 1); // a table: its element type, its limits
  if (kind === 2) return limits(at); // a memory
  if (kind === 3) return at + 2; // a global: its type, mutable or not
  if (kind === 4) return leb(bytes, at + 1)[1]; // a tag
  throw new Error(`split.mjs: an import of kind ${kind} this step does not know`);
}

/** The split points `wasm` calls: its imports `__wasm_split_00<module>00_import_<id>_<name>`. */
function splitImports(wasm) {
  const imports = new Set();
  let at = 8;
  while (at < wasm.length) {
    const [size, body] = leb(wasm, at + 1);
    if (wasm[at] === 2) {
      let [count, cursor] = leb(wasm, body);
      for (; count > 0; count--) {
        let field;
        [, cursor] = wasmName(wasm, cursor);
        [field, cursor] = wasmName(wasm, cursor);
        cursor = skipImport(wasm, wasm[cursor], cursor + 1);
        if (field.startsWith('__wasm_split_00')) imports.add(field);
      }
    }
    at = body + size;
  }
  return imports;
}

/** Whether `wasm` was linked for the splitter (`--emit-relocs`: it has a `linking` section). */
function linkedForSplit(wasm) {
  let at = 8;
  while (at < wasm.length) {
    const [size, body] = leb(wasm, at + 1);
    if (wasm[at] === 0 && wasmName(wasm, body)[0] === 'linking') return true;
    at = body + size;
  }
  return false;
}

/**
 * `wasm` without the split points' exports that no split point's import calls. Every split
 * point's body is an export (`#[no_mangle]`), so every page's wasm has every page's; the
 * splitter keeps an export it finds no import for in the main module, with all it reaches, so
 * those another page's split points are dropped here (wasm-opt then removes their code).
 * Offsets inside other sections do not move, so the relocations stay valid.
 */
export function withoutOrphanExports(wasm) {
  const imports = splitImports(wasm);
  const parts = [wasm.subarray(0, 8)];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = leb(wasm, at + 1);
    const end = body + size;
    if (id === 7) {
      const kept = [];
      let [count, cursor] = leb(wasm, body);
      for (; count > 0; count--) {
        const start = cursor;
        let name;
        [name, cursor] = wasmName(wasm, cursor);
        cursor = leb(wasm, cursor + 1)[1];
        const split = name.match(/^__wasm_split_00(.+)00_export_(.+)$/);
        if (!split || imports.has(`__wasm_split_00${split[1]}00_import_${split[2]}`)) {
          kept.push(wasm.subarray(start, cursor));
        }
      }
      const payload = Buffer.concat([toLeb(kept.length), ...kept]);
      parts.push(Buffer.from([7]), toLeb(payload.length), payload);
    } else {
      parts.push(wasm.subarray(at, end));
    }
    at = end;
  }
  return Buffer.concat(parts);
}

/**
 * wasm-opt's warning for each name subsection it does not know (Rust's, in the split modules'
 * name sections, which -Oz drops anyway): one line per module, left out of the build's log.
 */
const KNOWN_WARNING = /^warning: unknown name subsection with id \d+ at \d+$/;

/** Runs `command` with `args`; throws, naming the step, when it fails. */
function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  const said = (result.stderr ?? '').split('\n').filter((line) => line && !KNOWN_WARNING.test(line));
  if (said.length > 0) console.error(said.join('\n'));
  if (result.status !== 0) {
    throw new Error(`split.mjs: ${command} ${args.join(' ')} failed (${result.error ?? `exit ${result.status}`})`);
  }
}

/** The integrity attribute's value for `bytes`, as Trunk writes it (sha384). */
function integrity(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** Cargo's target folder (CARGO_TARGET_DIR, the Debian toolchain's included). */
function targetDir() {
  const result = spawnSync('cargo', ['metadata', '--format-version', '1', '--no-deps', '--offline'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (result.status !== 0) throw new Error(`split.mjs: cargo metadata failed: ${result.stderr}`);
  return JSON.parse(result.stdout).target_directory;
}

/** The cargo profile of this build's page (its `data-cargo-profile-release`), for release. */
function profile() {
  const html = readFileSync(process.env.TRUNK_HTML_FILE ?? 'index.html', 'utf8');
  const named = html.match(/data-cargo-profile-release="([^"]+)"/);
  return named ? named[1] : 'release';
}

/** Sets `attribute` of the tag whose `href` is `href` in `html`. */
function setAttribute(html, href, attribute, value) {
  const tag = new RegExp(`<link[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`);
  const found = html.match(tag);
  if (!found) throw new Error(`split.mjs: no <link> for ${href} in the page`);
  const edited = found[0].replace(new RegExp(`${attribute}="[^"]*"`), `${attribute}="${value}"`);
  return html.replace(found[0], edited);
}

/** The HTML pages in `staging` that load `file`, each with `edit` applied. */
function editPages(staging, file, edit) {
  for (const page of readdirSync(staging).filter((name) => name.endsWith('.html'))) {
    const at = path.join(staging, page);
    const html = readFileSync(at, 'utf8');
    if (html.includes(`href="./${file}"`)) writeFileSync(at, edit(html));
  }
}

/**
 * Builds again, from cargo's `source`, the module Trunk wrote as `<stem>.js` and
 * `<stem>_bg.wasm` (wasm-bindgen's `target`, as Trunk chose it): split at its split points, or,
 * with none (the planner's search worker), only without the other pages' (which the splitter
 * drops with all they alone reach, as the linker would have).
 */
function splitModule(staging, stem, source, target) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'parallel-lab-split-'));
  try {
    const cut = path.join(work, 'cut');
    const bound = path.join(work, 'bound');
    const input = path.join(work, 'input.wasm');
    writeFileSync(input, withoutOrphanExports(readFileSync(source)));
    run('wasm-split-cli', [input, cut, '--out-name', stem]);
    // A worker draws nothing: a split point the splitter finds in it is one only the other
    // pages' dropped code reaches (a page's code it shares, say a view with an embed button),
    // never called; it gets no module (below, its loader's functions are stubs).
    const names = target !== 'web' ? [] : readdirSync(cut)
      .filter((name) => name.endsWith('.wasm') && name !== `${stem}.wasm`)
      .map((name) => name.slice(0, -'.wasm'.length))
      .sort();
    run('wasm-bindgen', ['--target', target, '--no-typescript', ...(names.length ? ['--keep-lld-exports'] : []),
      '--out-dir', bound, '--out-name', stem, path.join(cut, `${stem}.wasm`)]);
    run('wasm-opt', [`--output=${path.join(staging, `${stem}_bg.wasm`)}`, '-Oz', path.join(bound, `${stem}_bg.wasm`)]);
    if (existsSync(path.join(bound, 'snippets'))) {
      cpSync(path.join(bound, 'snippets'), path.join(staging, 'snippets'), { recursive: true });
    }
    let main = readFileSync(path.join(bound, `${stem}.js`), 'utf8');
    let preload = '';
    if (names.length > 0) {
      let loader = readFileSync(path.join(cut, '__wasm_split.js'), 'utf8');
      for (const name of names) {
        run('wasm-opt', [`--output=${path.join(staging, `${stem}-${name}.wasm`)}`, '-Oz', path.join(cut, `${name}.wasm`)]);
        loader = loader.replaceAll(`"./${name}.wasm"`, `"./${stem}-${name}.wasm"`);
      }
      const loaderName = `${stem}-split.js`;
      writeFileSync(path.join(staging, loaderName), loader);
      // The page's module imports the loader (the import's specifier only: the key of the
      // imports object is the wasm's import module name and stays).
      main = main.replaceAll('from "./__wasm_split.js"', `from "./${loaderName}"`);
      const modules = names.map((name) => `./${stem}-${name}.wasm`).join(' ');
      preload = `<link rel="modulepreload" href="./${loaderName}" crossorigin="anonymous" ` +
        `integrity="${integrity(Buffer.from(loader))}" data-split-modules="${modules}">`;
    }
    // The worker's JS (`no-modules`) would `require` the loader it has no use for: each of its
    // functions is one that says so instead, and is never called.
    main = main.replaceAll(
      'require("./__wasm_split.js")',
      'new Proxy({}, { get: () => () => { throw new Error("a worker has no split modules"); } })',
    );
    writeFileSync(path.join(staging, `${stem}.js`), main);
    const wasm = readFileSync(path.join(staging, `${stem}_bg.wasm`));
    editPages(staging, `${stem}.js`, (html) => {
      const edited = setAttribute(setAttribute(html, `./${stem}.js`, 'integrity', integrity(Buffer.from(main))),
        `./${stem}_bg.wasm`, 'integrity', integrity(wasm));
      return preload ? edited.replace(/<link rel="modulepreload"[^>]*>/, (tag) => `${tag}\n${preload}`) : edited;
    });
    console.log(`split.mjs: ${stem}: its module and ${names.length} split modules`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Builds again every module of this build (in `staging`) that was linked for the splitter. */
export function splitPages(staging) {
  if (process.env.TRUNK_PROFILE !== 'release') return;
  const folder = path.join(targetDir(), 'wasm32-unknown-unknown', profile());
  for (const name of readdirSync(staging)) {
    const module = name.match(/^((.+?)(?:-[0-9a-f]+)?)_bg\.wasm$/);
    if (!module) continue;
    const [, stem, bin] = module;
    const source = path.join(folder, `${bin}.wasm`);
    if (!existsSync(source) || !linkedForSplit(readFileSync(source))) continue;
    // Trunk's JS for a page is an ES module; a worker's (`data-type="worker"`) is not.
    const js = readFileSync(path.join(staging, `${stem}.js`), 'utf8');
    splitModule(staging, stem, source, /^export /m.test(js) ? 'web' : 'no-modules');
  }
}
