// A scratch tree for the scripts' self-tests: a fresh folder under the system's temporary
// folder, small files written into it by relative path, and removed when the test is done.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A fresh folder named after `prefix`. Returns `{ dir, write, remove }`: `write(file, text)`
 * writes `text` at `file` below `dir`, making its folders; `remove()` deletes the whole tree.
 */
export function scratchTree(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const write = (file, text) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  const remove = () => rmSync(dir, { recursive: true, force: true });
  return { dir, write, remove };
}
