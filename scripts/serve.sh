#!/usr/bin/env bash
# Serves the page with live rebuilds on http://127.0.0.1:8080 (release build: small wasm).
# Runs scripts/setup.sh first, so it works on a fresh machine. Extra arguments go to trunk.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
"$ROOT/scripts/setup.sh"
# shellcheck source=/dev/null
source "$ROOT/.tools/env.sh"
echo "==> trunk serve --release: http://127.0.0.1:8080 (Ctrl-C stops)"
exec env "${PARALLEL_WASM_ENV[@]}" "${PARALLEL_RELEASE_ENV[@]}" trunk serve --release "$@"
