#!/usr/bin/env bash
# Runs every test of Parallel Lab, stopping at the first failure:
#   1. scripts/setup.sh                      (installs what is missing; seconds when warm)
#   2. cargo fmt --check                     formatting, the whole workspace
#      scripts/check-modules.mjs             no import circle between the source files of the core
#                                            or of the page, no web crate in the core
#      scripts/check-architecture.mjs        ARCHITECTURE.md names every module and public module,
#                                            every file path, function and test id of its
#                                            "where is X" table exists, under 2,500 words
#      scripts/check-prose.mjs               numbers the core owns (80%, 50 MB, 4/3…) quoted from
#                                            its constants, never written out in prose
#      scripts/check-doc-tests.mjs           every test docs/formulas.md names exists
#      scripts/shrink-inline.mjs --self-test the build step that strips the pages' comments
#      cargo clippy -D warnings              lints: native (every crate, the prerender) and wasm
#      cargo doc (parallel-core)             the core's API docs, every link resolving
#      cargo test                            native: parallel-core + parallel-cli
#      cargo test -p parallel-web --lib      native: the page's pure helpers and charts (SVG)
#      python3 -m unittest (scripts/gpu-check) the GPU check's program, no GPU needed
#   3. cargo test --target wasm32-unknown-unknown -p parallel-web
#                                            wasm-bindgen-test in headless Chromium
#   4. trunk build --release                 dist/, the page as static files (release_env: std
#                                            with panic=immediate-abort, checked: no panic
#                                            locations left in the wasm; each page's wasm split
#                                            at its split points, scripts/split.mjs)
#      python -m unittest (tests/megatron)   the CLI's Megatron-LM lines judged by Megatron-Core's
#                                            own code (.tools/py): verdicts, rank groups, FLOPs
#      python -m unittest (tests/deepspeed)  the CLI's DeepSpeed launches judged by DeepSpeed's own
#                                            code (.tools/py): verdicts, batch sizes, ZeRO, dtypes
#   5. node --test (in tests/)               dist/ served on 127.0.0.1, opened in Chromium; the
#                                            controls' tests compare it with target/debug/parallel-lab
#   6. node --test engines/… (in tests/)     the key journeys in Firefox ESR (WebDriver BiDi) and
#                                            WebKit (WebKitWebDriver under xvfb-run), against the CLI
# Ends with one line adding up the tests that the runners counted.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LOGS="$ROOT/target/test-logs"
mkdir -p "$LOGS"

STARTED=$SECONDS
TIMES=()

# disk: what the run has written (the build folder, the installed tools) and what is left free,
# in MB; a full disk stops a stage with a compiler's or a browser's own error.
disk() {
    printf 'disk: target %s MB, .tools %s MB, %s MB free\n' "$(du -sm "$ROOT/target" 2>/dev/null | cut -f1)" \
        "$(du -sm "$ROOT/.tools" 2>/dev/null | cut -f1)" "$(df -Pm "$ROOT" | awk 'NR == 2 { print $4 }')"
}

# stage NAME LOG COMMAND...: runs COMMAND, its output shown and kept in LOG; stops on failure.
stage() {
    local name=$1 log=$2 start=$SECONDS rc=0
    shift 2
    printf '\n===== %s =====\n$ %s\n' "$name" "$*"
    "$@" 2>&1 | tee "$LOGS/$log" || rc=${PIPESTATUS[0]}
    if [ "$rc" -ne 0 ]; then
        printf '\ntest.sh: FAILED at "%s" (exit %s). Output: %s\n' "$name" "$rc" "$LOGS/$log" >&2
        disk >&2
        exit "$rc"
    fi
    TIMES+=("$(printf '%-28s %4d s' "$name" $((SECONDS - start)))")
}

stage "setup" setup.log "$ROOT/scripts/setup.sh"
disk
# shellcheck source=/dev/null
source "$ROOT/.tools/env.sh"
export TRUNK_SKIP_VERSION_CHECK=true
# The wasm test runner takes the first webdriver it finds on PATH: make it Chromium's.
CHROMEDRIVER="$(command -v chromedriver || echo /usr/bin/chromedriver)"
export CHROMEDRIVER

stage "format (cargo fmt)" fmt.log cargo fmt --all --check
# Import circles from `use`/`super::`/`mod` paths, read without a build (and the script's own
# fixtures first), in the core and in the page.
# Then ARCHITECTURE.md against the tree (its module lists, API boundary, file paths, its "where
# is X" table's files, functions and test ids, and its length).
module_checks() {
    node scripts/check-modules.mjs --self-test &&
        node scripts/check-modules.mjs --strict crates/parallel-core/src --strict web/src --rooms web/src \
            --no-web-deps crates/parallel-core/Cargo.toml &&
        node scripts/check-architecture.mjs --self-test &&
        node scripts/check-architecture.mjs &&
        node scripts/check-prose.mjs --self-test &&
        node scripts/check-prose.mjs &&
        node scripts/check-figures.mjs --self-test &&
        node scripts/check-figures.mjs &&
        node scripts/check-doc-tests.mjs --self-test &&
        node scripts/check-doc-tests.mjs
}
stage "modules (import circles, ARCHITECTURE.md)" modules.log module_checks
stage "build scripts' self-tests" scripts.log node scripts/shrink-inline.mjs --self-test
stage "lints, native (clippy)" clippy.log cargo clippy --workspace --all-targets -- -D warnings
# The first screens' renderer (web/src/bin/prerender.rs) builds only with its feature.
stage "lints, the prerender (clippy)" clippy-prerender.log cargo clippy -p parallel-web --features prerender --all-targets -- -D warnings
# The core's API documentation: every intra-doc link resolves, nothing private is linked.
stage "core docs (cargo doc)" doc.log env RUSTDOCFLAGS="-D warnings" cargo doc -p parallel-core --no-deps
if wasm_env cargo clippy --version >/dev/null 2>&1; then
    stage "lints, wasm (clippy)" clippy-wasm.log \
        wasm_env cargo clippy -p parallel-web --target wasm32-unknown-unknown --all-targets -- -D warnings
    # embed.html's build: without the default `js-api` feature.
    stage "lints, wasm embed (clippy)" clippy-wasm-embed.log \
        wasm_env cargo clippy -p parallel-web --target wasm32-unknown-unknown --no-default-features --all-targets -- -D warnings
else
    # Debian's rustc-web (the fallback for a missing rustup wasm target) has no clippy.
    printf '\ntest.sh: note: no clippy in the wasm toolchain (%s): wasm lints not run\n' "$PARALLEL_WASM_TOOLCHAIN"
fi
stage "native tests (cargo test)" native.log cargo test
stage "native page tests" native-web.log cargo test -p parallel-web --lib
# The GPU check's program, without a GPU (and without PyTorch when it is absent): the workload
# it reads, the layers it derives and its refusals.
stage "GPU check program (python)" gpu-check.log \
    python3 -m unittest discover -s scripts/gpu-check -v
stage "wasm tests (Chromium)" wasm.log \
    wasm_env cargo test --target wasm32-unknown-unknown -p parallel-web
stage "release build (trunk)" trunk.log release_env trunk build --release
# With release_env's panic=immediate-abort the shipped wasm holds no panic location (a source
# file's path): if one is there, the page was built with the prebuilt std after all.
no_panic_locations() {
    local wasm found=0
    # Each page's module and its split modules (scripts/split.mjs).
    for wasm in dist/*.wasm; do
        local n
        n="$(grep -a -o -E '[A-Za-z0-9_]+\.rs' "$wasm" | wc -l)"
        printf '%s: %s source paths\n' "$(basename "$wasm")" "$n"
        [ "$n" -eq 0 ] || found=1
    done
    return "$found"
}
if [ ${#PARALLEL_RELEASE_ENV[@]} -gt 0 ]; then
    stage "no panic paths in the wasm" release-check.log no_panic_locations
fi
stage "command line for e2e" cli.log cargo build -p parallel-cli
# The lab's Megatron-LM launch lines against Megatron-Core's own code (issue 49): 600 seeded
# random plans (the seed is printed; PARALLEL_LAB_SEED replays), each line parsed and validated
# by Megatron's argument code, its rank groups formed by initialize_model_parallel under a fake
# torch.distributed, its FLOPs by num_floating_point_operations; about 30 s on 2 cores.
stage "engine's own code (Megatron-Core)" megatron.log \
    env PYTHONDONTWRITEBYTECODE=1 "$ROOT/.tools/py/bin/python" -m unittest discover -s tests/megatron -v
# The lab's DeepSpeed launches against DeepSpeed 0.19.8's own code (issue 56): 300 seeded random
# plans (the seed is printed; PARALLEL_LAB_SEED replays), each line through DeepSpeed's runner,
# its config through DeepSpeedConfig and the engine's optimizer checks under a fake
# deepspeed.comm; about 15 s on 2 cores.
stage "engine's own code (DeepSpeed)" deepspeed.log \
    env PYTHONDONTWRITEBYTECODE=1 "$ROOT/.tools/py/bin/python" -m unittest discover -s tests/deepspeed -v
stage "end-to-end (node --test)" e2e.log bash -c 'cd tests && node --test'
stage "engines (Firefox, WebKit)" engines.log bash -c 'cd tests && node --test engines/firefox.mjs engines/webkit.mjs'

printf '\n===== summary =====\n'
for line in "${TIMES[@]}"; do printf '%s\n' "$line"; done
printf '%-28s %4d s\n' "total" $((SECONDS - STARTED))
disk
for wasm in dist/*.wasm; do
    printf '%-28s %s bytes raw, %s gzipped\n' "$(basename "$wasm")" \
        "$(wc -c <"$wasm")" "$(gzip -9c "$wasm" | wc -c)"
done
# cargo: "test result: ok. 12 passed; 0 failed; ..."; node: "ℹ pass 3" / "ℹ fail 0".
awk '
    /^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
    $2 == "pass" && $1 ~ /^(ℹ|#)$/ { p += $3 }
    $2 == "fail" && $1 ~ /^(ℹ|#)$/ { f += $3 }
    /^Ran [0-9]+ tests? in/ { p += $2 }
    END { printf "tests: %d passed, %d failed\n", p, f }
' "$LOGS/native.log" "$LOGS/native-web.log" "$LOGS/gpu-check.log" "$LOGS/wasm.log" "$LOGS/megatron.log" "$LOGS/deepspeed.log" \
    "$LOGS/e2e.log" "$LOGS/engines.log"
