#!/usr/bin/env bash
# Benchmarks the page as shipped: builds it in release mode (trunk build --release) into its own
# folder, target/bench-dist, so that a concurrent `trunk build` or `trunk serve` writing dist/
# cannot change what is measured, then runs tests/bench.mjs on it in headless Chromium:
# slider-to-DOM latency on the 64-card grid (p50/p95/max) and the gzipped size of the HTML
# (with its CSS) + wasm + JS.
#
#   scripts/bench.sh [--no-build] [bench.mjs options: --n 200 --warmup 20 --json FILE --strict]
#
# With `--before REV` (a commit, tag or branch), two builds side by side in one run instead:
# REV, checked out into target/bench-before-src and built into target/bench-before (the same
# target directory, so only the lab's own crates are compiled again), and the working tree,
# built into target/bench-dist; then tests/bench-compare.mjs measures both, interleaved.
#
#   scripts/bench.sh --before REV [bench-compare.mjs options: --n 100 --loads 7 --json FILE --strict]
#
# With `--load` first, the load benchmark instead (tests/bench-load.mjs, issue 53): each page
# served gzipped, loaded cold at Slow 4G and Fast 4G, first text, grid drawn and interactive,
# median of 5; of the working tree, or with `--before REV` of REV and the working tree.
#
#   scripts/bench.sh --load [--before REV] [bench-load.mjs options: --runs 5 --json FILE]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="$ROOT/target/bench-dist"

BUILD=1
BEFORE=""
LOAD=0
if [ "${1:-}" = "--load" ]; then
    LOAD=1
    shift
fi
if [ "${1:-}" = "--no-build" ]; then
    BUILD=0
    shift
elif [ "${1:-}" = "--before" ]; then
    BEFORE="${2:?--before needs a revision}"
    shift 2
fi

[ -f "$ROOT/.tools/env.sh" ] || "$ROOT/scripts/setup.sh"
# shellcheck source=/dev/null
source "$ROOT/.tools/env.sh"
export TRUNK_SKIP_VERSION_CHECK=true
[ -d "$ROOT/tests/node_modules/playwright-core" ] || (cd "$ROOT/tests" && npm ci --no-audit --no-fund)

if [ -n "$BEFORE" ]; then
    SRC="$ROOT/target/bench-before-src"
    echo "bench.sh: $BEFORE into $SRC, built into target/bench-before"
    git worktree remove --force "$SRC" 2>/dev/null || rm -rf "$SRC"
    git worktree prune
    git worktree add --detach "$SRC" "$BEFORE"
    (cd "$SRC" && CARGO_TARGET_DIR="$ROOT/target" release_env trunk build --release --dist "$ROOT/target/bench-before")
    git worktree remove --force "$SRC"
    echo "bench.sh: the working tree, built into target/bench-dist"
    release_env trunk build --release --dist "$OUT"
    if [ "$LOAD" = 1 ]; then
        exec node "$ROOT/tests/bench-load.mjs" --before "$ROOT/target/bench-before" --after "$OUT" "$@"
    fi
    exec node "$ROOT/tests/bench-compare.mjs" --before "$ROOT/target/bench-before" --after "$OUT" "$@"
fi

if [ "$BUILD" = 1 ]; then
    echo "bench.sh: trunk build --release --dist target/bench-dist"
    release_env trunk build --release --dist "$OUT"
fi
if [ "$LOAD" = 1 ]; then
    DIST="${DIST:-$OUT}" exec node "$ROOT/tests/bench-load.mjs" "$@"
fi
DIST="${DIST:-$OUT}" node "$ROOT/tests/bench.mjs" "$@"
