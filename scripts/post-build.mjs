// Trunk's post-build hook (Trunk.toml), run with TRUNK_STAGING_DIR set: first this build's wasm
// is split at its page's split points (scripts/split.mjs; each inner build splits its own), then
// the other entry points (embed.html, rl.html, plan.html) are built and added next to index.html
// (scripts/entries.mjs; not inside those inner builds), then each page's first screen is
// rendered into it (scripts/first-screen.mjs; also not inside the inner builds), then the pages'
// inline scripts, stylesheet and markup lose their comments (scripts/shrink-inline.mjs) and
// every page gets its Content-Security-Policy (scripts/csp.mjs), which hashes them as shipped.
// One hook, so the steps run in this order (Trunk starts the hooks of one stage side by side).
import { addEntries, inner } from './entries.mjs';
import { writePolicies } from './csp.mjs';
import { writeFirstScreens } from './first-screen.mjs';
import { shrinkPages } from './shrink-inline.mjs';
import { splitPages } from './split.mjs';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('post-build.mjs: TRUNK_STAGING_DIR is not set (run through trunk build)');
  process.exit(1);
}
try {
  splitPages(staging);
  if (!inner) {
    addEntries(staging);
    writeFirstScreens(staging);
  }
  shrinkPages(staging);
  writePolicies(staging);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
