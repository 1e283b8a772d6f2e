// Part of scripts/check-modules.mjs (see its header): the web crates a Cargo.toml names.

/** Crates that only make sense in a browser (or draw charts): the core must not name them. */
const WEB_CRATES = new RegExp(
  `^(${[
    'leptos([-_].*)?', 'web-sys', 'wasm-bindgen([-_].*)?', 'js-sys', 'plotters([-_].*)?',
    'gloo([-_].*)?', 'serde-wasm-bindgen', 'console_error_panic_hook', 'console_log',
    'tracing-wasm', 'wasm-logger',
  ].join('|')})$`,
);

/** The web crates a Cargo.toml depends on (any dependency table, renames followed), as
 * `table: name` lines. */
export function webDependencies(manifest) {
  const found = [];
  let table = null;
  let depTable = false;
  for (const raw of manifest.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      table = header[1];
      // [dependencies], [dev-dependencies], [target.'cfg(…)'.build-dependencies], …
      const dotted = /^(?:.*\.)?((?:dev-|build-)?dependencies)(?:\.(.+))?$/.exec(table);
      depTable = Boolean(dotted);
      if (dotted?.[2]) {
        // [dependencies.leptos]: the table is the dependency.
        const name = dotted[2].replace(/^["']|["']$/g, '');
        if (WEB_CRATES.test(name)) found.push(`[${table}]`);
        depTable = 'one';
      }
      continue;
    }
    if (!depTable) continue;
    const kv = /^("?)([A-Za-z0-9_-]+)\1\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const [, , key, value] = kv;
    if (depTable === 'one') {
      if (key === 'package') {
        const pkg = /["']([^"']+)["']/.exec(value)?.[1];
        if (pkg && WEB_CRATES.test(pkg)) found.push(`[${table}] package = ${pkg}`);
      }
      continue;
    }
    const pkg = /\bpackage\s*=\s*["']([^"']+)["']/.exec(value)?.[1];
    if (WEB_CRATES.test(key) || (pkg && WEB_CRATES.test(pkg))) {
      found.push(`[${table}] ${key}${pkg ? ` (package ${pkg})` : ''}`);
    }
  }
  return found;
}
