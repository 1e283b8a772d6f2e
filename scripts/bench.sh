#!/usr/bin/env bash
# Benchmarks the page as shipped: builds it in release mode (trunk build --release) into its own
# folder, target/bench-dist, so that a concurrent `trunk build` or `trunk serve` writing dist/
# cannot change what is measured, then runs tests/bench.mjs on it in headless Chromium:
# slider-to-DOM latency on the 64-card grid (p50/p95/max) and the gzipped size of the HTML
# (with its CSS) + wasm + JS.
#
#   scripts/bench.sh [--no-build] [bench.mjs options: --n 200 --warmup 20 --json FILE --strict]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="$ROOT/target/bench-dist"

BUILD=1
if [ "${1:-}" = "--no-build" ]; then
    BUILD=0
    shift
fi

[ -f "$ROOT/.tools/env.sh" ] || "$ROOT/scripts/setup.sh"
# shellcheck source=/dev/null
source "$ROOT/.tools/env.sh"
export TRUNK_SKIP_VERSION_CHECK=true
[ -d "$ROOT/tests/node_modules/playwright-core" ] || (cd "$ROOT/tests" && npm ci --no-audit --no-fund)

if [ "$BUILD" = 1 ]; then
    echo "bench.sh: trunk build --release --dist target/bench-dist"
    release_env trunk build --release --dist "$OUT"
fi
DIST="${DIST:-$OUT}" node "$ROOT/tests/bench.mjs" "$@"
