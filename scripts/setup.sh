#!/usr/bin/env bash
# Installs what building and testing Parallel Lab needs, and skips whatever is already there,
# so a second run only checks and takes seconds. Safe without a terminal (CI=true, no stdin).
#
#   rustfmt, clippy       rustup components (formatting and lint checks)
#   Rust std for wasm32   rustup target (timeout 180 s); fallback: Debian's rustc-web 1.96
#   trunk 0.21.14         cargo install --locked
#   wasm-bindgen-cli      cargo install, the same version as wasm-bindgen in Cargo.lock
#   wasm-split-cli        cargo install wasm_split_cli_support 0.2.3 (splits the page's wasm)
#   wasm-opt              npm binaryen@132 in .tools/ (never Debian's binaryen 108)
#   chromium + driver     apt, only when missing, with a small CJK font (fonts-wqy-microhei)
#   playwright-core       npm ci in tests/ (no browser download: the tests use /usr/bin/chromium)
#   firefox-esr, webkit2gtk-driver, xvfb
#                         apt, only when missing: the Firefox and WebKit journeys (tests/engines/),
#                         with puppeteer-core and selenium-webdriver from tests/package-lock.json
#   rust-src              rustup component (timeout 180 s): the release build compiles std
#                         itself, with panic=immediate-abort (a smaller page)
#   crates                cargo fetch (Trunk builds offline)
#   torch 2.15.0, numpy, packaging, typing_extensions, megatron-core 0.19.2
#                         pip (pinned) in a venv at .tools/py: tests/megatron runs Megatron-LM's
#                         own checks, rank groups and FLOPs on the lab's launch lines (CPU only;
#                         PyPI's torch brings its CUDA libraries, about 5 GB)
#   deepspeed 0.19.8 and its import-time packages
#                         pip (pinned, DS_BUILD_OPS=0: no op compiled) in the same venv:
#                         tests/deepspeed runs DeepSpeed's own runner, DeepSpeedConfig and engine
#                         checks on the lab's DeepSpeed launches (about 30 MB)
#   mkdocs 1.6.1, mkdocs-material 9.8.2 and what they import
#                         pip (pinned) in a venv at .tools/mkdocs: tests/course-site builds a
#                         real MkDocs Material course site that embeds the lab (about 15 MB)
#
# Writes .tools/env.sh, sourced by scripts/test.sh and scripts/serve.sh: PATH for the tools,
# PARALLEL_WASM_ENV, the variables that wasm builds (and only they) need, and
# PARALLEL_RELEASE_ENV, those of the shipped page's build on top of them.
#
# PARALLEL_LAB_DEBIAN_RUST=1 takes the Debian fallback even where rustup's target works.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
# tests/megatron's Python (.tools/py): Megatron-Core and what its imports need, pinned.
TORCH_VERSION=2.15.0
MEGATRON_CORE_VERSION=0.19.2
PY_PACKAGES=("torch==$TORCH_VERSION" numpy==2.4.6 packaging==26.4 typing_extensions==4.16.0)
# tests/deepspeed's DeepSpeed, and what `import deepspeed.runtime.config` needs of its
# requirements.txt (which pins none; ninja and py-cpuinfo are for building and CPU ops only),
# pinned with pydantic's own dependencies.
DEEPSPEED_VERSION=0.19.8
DS_PACKAGES=(pydantic==2.14.4 pydantic_core==2.50.5 annotated-types==0.8.0 typing-inspection==0.4.5
    hjson==3.1.0 psutil==7.2.2 tqdm==4.70.1 msgpack==1.2.4 einops==0.8.2)
# tests/course-site's MkDocs Material (.tools/mkdocs, a venv of its own: its Jinja2 and
# packaging must not move the engines' pins), with everything it installs, pinned.
MKDOCS_PACKAGES=(mkdocs==1.6.1 mkdocs-material==9.8.2 babel==2.19.0 backrefs==8.3.1
    certifi==2026.10.19.post1 charset-normalizer==3.5.3 click==8.5.1 colorama==0.4.6
    ghp-import==2.1.0 idna==3.21 Jinja2==3.1.6 Markdown==3.11.4 MarkupSafe==3.0.4
    mergedeep==1.3.4 mkdocs-get-deps==0.2.2 mkdocs-material-extensions==1.3.1 packaging==26.4
    paginate==0.5.7 pathspec==1.1.1 platformdirs==4.14.9 Pygments==2.21.0
    pymdown-extensions==13.1.2 python-dateutil==4.0.0 PyYAML==6.0.4 pyyaml_env_tag==1.1
    requests==2.34.2 tzdata==2026.6 urllib3==2.8.0 watchdog==7.1.1)
WASM_TARGET=wasm32-unknown-unknown
RUSTUP_TIMEOUT=180
DEBIAN_RUST_PACKAGES=(rustc-web cargo-web rust-web-src rust-web-llvm lld-22)

# ~/.cargo/bin before /usr/bin: Debian's rustc-web also installs /usr/bin/cargo and rustc.
export PATH="$HOME/.cargo/bin:$PATH"
export DEBIAN_FRONTEND=noninteractive
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export TRUNK_SKIP_VERSION_CHECK=true

STARTED=$SECONDS
step() { printf '==> %s\n' "$*"; }
have() { printf '    ok: %s\n' "$*"; }
warn() { printf 'setup.sh: warning: %s\n' "$*" >&2; }
die() {
    printf 'setup.sh: error: %s\n' "$*" >&2
    exit 1
}

SUDO=()
if [ "$(id -u)" -ne 0 ]; then SUDO=(sudo); fi

APT_UPDATED=0
# apt_install PACKAGE...: installs those of the packages that are not installed yet.
apt_install() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null || die "apt-get not found; install by hand: ${missing[*]}"
    if [ "$APT_UPDATED" = 0 ]; then
        step "apt-get update"
        "${SUDO[@]}" apt-get update -q
        APT_UPDATED=1
    fi
    step "apt-get install ${missing[*]}"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}

# The version that Cargo.lock resolves for a crate.
lock_version() {
    awk -v want="\"$1\"" '$1 == "name" && $3 == want { getline; gsub(/"/, "", $3); print $3; exit }' \
        "$ROOT/Cargo.lock"
}

# ---------------------------------------------------------------------------------------
step "Rust toolchain"
command -v rustup >/dev/null && command -v cargo >/dev/null ||
    die "rustup and cargo are needed: install Rust with rustup (https://rustup.rs), then re-run"
have "$(cargo --version)"
# rustfmt and clippy: scripts/test.sh checks formatting and lints.
if cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1; then
    have "$(cargo fmt --version), $(cargo clippy --version)"
else
    step "rustup component add rustfmt clippy"
    rustup component add rustfmt clippy
fi

# True when the default rustup toolchain has a std for wasm32-unknown-unknown.
rustup_wasm_std() {
    local libdir
    libdir="$(env -u RUSTUP_TOOLCHAIN rustc --print target-libdir --target "$WASM_TARGET" 2>/dev/null)" ||
        return 1
    compgen -G "$libdir/libstd-*.rlib" >/dev/null
}

# What an earlier run chose, so that a machine on the fallback does not wait for rustup again.
PREVIOUS_TOOLCHAIN="$(sed -n 's/^PARALLEL_WASM_TOOLCHAIN=//p' "$TOOLS/env.sh" 2>/dev/null || true)"

WASM_TOOLCHAIN=rustup
if [ "${PARALLEL_LAB_DEBIAN_RUST:-0}" = 1 ]; then
    WASM_TOOLCHAIN=debian
    step "PARALLEL_LAB_DEBIAN_RUST=1: wasm builds use Debian's Rust"
elif rustup_wasm_std; then
    have "std for $WASM_TARGET (rustup)"
elif [ "$PREVIOUS_TOOLCHAIN" = debian ]; then
    WASM_TOOLCHAIN=debian
    have "wasm builds stay on Debian's Rust, as an earlier run chose (delete .tools/env.sh to retry rustup)"
else
    step "rustup target add $WASM_TARGET (timeout ${RUSTUP_TIMEOUT}s)"
    timeout "$RUSTUP_TIMEOUT" rustup target add "$WASM_TARGET" ||
        warn "rustup target add failed or timed out"
    if rustup_wasm_std; then
        have "std for $WASM_TARGET (rustup)"
    else
        warn "no libstd-*.rlib for $WASM_TARGET from rustup: falling back to Debian's Rust"
        WASM_TOOLCHAIN=debian
    fi
fi

WASM_ENV_LINE='PARALLEL_WASM_ENV=()'
if [ "$WASM_TOOLCHAIN" = debian ]; then
    apt_install "${DEBIAN_RUST_PACKAGES[@]}"
    if rustup toolchain list | grep -q '^debian'; then
        have "rustup toolchain 'debian' (linked to /usr)"
    else
        step "rustup toolchain link debian /usr"
        rustup toolchain link debian /usr
    fi
    # std is compiled from /usr/lib/rustlib/src/rust/library by build-std. Its own target dir
    # keeps the two rustc versions from invalidating each other's artifacts.
    WASM_ENV_LINE='PARALLEL_WASM_ENV=(RUSTUP_TOOLCHAIN=debian RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort "CARGO_TARGET_DIR=$PARALLEL_LAB_ROOT/target/debian")'
    have "wasm builds: $(RUSTUP_TOOLCHAIN=debian rustc --version) with build-std"
fi

# ---------------------------------------------------------------------------------------
# The shipped page's std is compiled from source with panic=immediate-abort: a panic traps at
# once, so no panic message, location or its formatting code is in the page's wasm (about
# 23 KB gzipped less for the page, 20 KB for an embed). Only release builds (trunk build
# --release, through release_env) use it; the wasm tests keep their panic messages. It needs
# std's sources (rustup's rust-src; Debian's rust-web-src above) and RUSTC_BOOTSTRAP for the
# unstable flags. Without them the page is built as before, only larger.
# Where this rustc takes them, three more shrink the page by about 11 KB gzipped (as do an
# embed and the other pages): std built with its `optimize_for_size` feature,
# -Zfmt-debug=shallow (a derived Debug writes its type's name only; hand-written ones stay, so
# serde's "invalid type: string \"8\"" keeps its value: `none` would blank it) and
# -Zlocation-detail=none (no file and line strings).
step "std sources for the release build (build-std with panic=immediate-abort)"
if [ "$WASM_TOOLCHAIN" = debian ]; then
    RUST_FOR_WASM=(env RUSTUP_TOOLCHAIN=debian)
else
    RUST_FOR_WASM=(env -u RUSTUP_TOOLCHAIN)
fi
# True when the wasm builds' rustc has std's sources.
std_sources() {
    [ -f "$("${RUST_FOR_WASM[@]}" rustc --print sysroot)/lib/rustlib/src/rust/library/std/Cargo.toml" ]
}
if [ "$WASM_TOOLCHAIN" = rustup ]; then
    if std_sources; then
        have "rust-src (rustup)"
    else
        step "rustup component add rust-src (timeout ${RUSTUP_TIMEOUT}s)"
        timeout "$RUSTUP_TIMEOUT" rustup component add rust-src || warn "rustup component add rust-src failed or timed out"
    fi
fi
RELEASE_ENV_LINE='PARALLEL_RELEASE_ENV=()'
SIZE_FLAGS='-Zfmt-debug=shallow -Zlocation-detail=none'
# True when this rustc takes `-Zunstable-options -Cpanic=immediate-abort` and the flags given.
takes() {
    # shellcheck disable=SC2086 # the flags are words
    "${RUST_FOR_WASM[@]}" RUSTC_BOOTSTRAP=1 rustc -Zunstable-options -Cpanic=immediate-abort $1 \
        --target "$WASM_TARGET" --print cfg >/dev/null 2>&1
}
# Every release build for the page splits its wasm at the page's split points
# (web/src/state/split.rs): `--cfg wasm_split` turns them on, and the linker keeps its
# relocations for wasm-split-cli (scripts/split.mjs), as cargo-leptos's `--split` does.
SPLIT_FLAGS='--cfg wasm_split -Clink-args=--emit-relocs'
if std_sources && takes "$SIZE_FLAGS"; then
    # Cargo adds these target rustflags to .cargo/config.toml's (erase_components stays there).
    RELEASE_ENV_LINE="PARALLEL_RELEASE_ENV=(RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size \"CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS=-Zunstable-options -Cpanic=immediate-abort $SIZE_FLAGS $SPLIT_FLAGS\")"
    have "release builds: std from source for size, panic=immediate-abort, $SIZE_FLAGS, split"
elif std_sources && takes ""; then
    RELEASE_ENV_LINE="PARALLEL_RELEASE_ENV=(RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \"CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS=-Zunstable-options -Cpanic=immediate-abort $SPLIT_FLAGS\")"
    have "release builds: std from source, panic=immediate-abort, split"
else
    RELEASE_ENV_LINE="PARALLEL_RELEASE_ENV=(\"CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS=$SPLIT_FLAGS\")"
    warn "no std sources or no -Cpanic=immediate-abort in $("${RUST_FOR_WASM[@]}" rustc --version): release builds keep the prebuilt std (a larger page)"
fi

# ---------------------------------------------------------------------------------------
step "Crates (cargo fetch)"
(cd "$ROOT" && cargo fetch --quiet)
if [ "$WASM_TOOLCHAIN" = debian ] || [[ "$RELEASE_ENV_LINE" == *BUILD_STD* ]]; then
    # build-std needs the std library's own dependencies too.
    (cd "$ROOT" && "${RUST_FOR_WASM[@]}" RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
        cargo fetch --quiet --target "$WASM_TARGET")
fi
have "Cargo.lock resolved, crates downloaded"

# ---------------------------------------------------------------------------------------
step "trunk $TRUNK_VERSION"
if [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; then
    have "trunk $TRUNK_VERSION"
else
    step "cargo install trunk --version $TRUNK_VERSION --locked (about 8 minutes on 2 cores)"
    cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# ---------------------------------------------------------------------------------------
WASM_BINDGEN_VERSION="$(lock_version wasm-bindgen)"
[ -n "$WASM_BINDGEN_VERSION" ] || die "no wasm-bindgen in Cargo.lock"
step "wasm-bindgen-cli $WASM_BINDGEN_VERSION (the version in Cargo.lock)"
if [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $WASM_BINDGEN_VERSION" ] &&
    command -v wasm-bindgen-test-runner >/dev/null; then
    have "wasm-bindgen $WASM_BINDGEN_VERSION and wasm-bindgen-test-runner"
else
    step "cargo install wasm-bindgen-cli --version $WASM_BINDGEN_VERSION (about 3 minutes)"
    # Some releases' own lockfiles name crate versions missing from the registry: retry unlocked.
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked ||
        {
            warn "--locked failed; retrying without it"
            cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
        }
fi

# ---------------------------------------------------------------------------------------
# The release build's splitter (scripts/split.mjs): of the 0.2 line cargo-leptos's --split uses, for
# split points of wasm_split_helpers 0.2 (Leptos 0.8's).
WASM_SPLIT_VERSION=0.2.3
step "wasm-split-cli $WASM_SPLIT_VERSION"
if cargo install --list | grep -q "^wasm_split_cli_support v$WASM_SPLIT_VERSION:" && command -v wasm-split-cli >/dev/null; then
    have "wasm-split-cli $WASM_SPLIT_VERSION"
else
    step "cargo install wasm_split_cli_support --version $WASM_SPLIT_VERSION --features build-binary (about 2 minutes)"
    cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked
fi

# ---------------------------------------------------------------------------------------
step "Node.js and npm"
if command -v node >/dev/null && command -v npm >/dev/null; then
    have "node $(node --version), npm $(npm --version)"
else
    apt_install nodejs npm
fi

step "wasm-opt (npm binaryen@$BINARYEN_VERSION in .tools/)"
WASM_OPT="$TOOLS/node_modules/.bin/wasm-opt"
if [ -x "$WASM_OPT" ] && "$WASM_OPT" --version 2>/dev/null | grep -q "(version_$BINARYEN_VERSION)"; then
    have "$("$WASM_OPT" --version)"
else
    mkdir -p "$TOOLS"
    npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error "binaryen@$BINARYEN_VERSION"
    "$WASM_OPT" --version | grep -q "(version_$BINARYEN_VERSION)" || die "wasm-opt is not version $BINARYEN_VERSION"
fi

# ---------------------------------------------------------------------------------------
step "Chromium, chromedriver and a CJK font for screenshots (apt)"
apt_install chromium chromium-driver fonts-wqy-microhei
have "$(/usr/bin/chromium --version 2>/dev/null | tail -n 1)"

step "playwright-core for the end-to-end tests (npm ci in tests/)"
STAMP="$ROOT/tests/node_modules/.package-lock.json"
if [ -d "$ROOT/tests/node_modules/playwright-core" ] && [ "$STAMP" -nt "$ROOT/tests/package-lock.json" ]; then
    have "playwright-core $(node -p 'require("'"$ROOT"'/tests/node_modules/playwright-core/package.json").version')"
else
    (cd "$ROOT/tests" && npm ci --no-audit --no-fund --loglevel=error)
fi

# ---------------------------------------------------------------------------------------
# Two more engines for tests/engines/: Firefox ESR driven over WebDriver BiDi by puppeteer-core,
# and WebKitGTK's MiniBrowser driven by WebKitWebDriver under Xvfb (it needs a display).
step "Firefox ESR, WebKitGTK's WebDriver and Xvfb for the engine journeys (apt)"
apt_install firefox-esr webkit2gtk-driver xvfb ||
    die "could not install firefox-esr webkit2gtk-driver xvfb (Debian packages); elsewhere install Firefox ESR, WebKitGTK's WebKitWebDriver and MiniBrowser, and Xvfb, and point the tests at them with FIREFOX=, WEBKIT_WEBDRIVER=, MINIBROWSER="
have "$(/usr/bin/firefox-esr --version 2>/dev/null)"
MINIBROWSER="$(compgen -G '/usr/lib/*/webkit2gtk-4.1/MiniBrowser' | head -n 1 || true)"
[ -x /usr/bin/WebKitWebDriver ] && [ -n "$MINIBROWSER" ] ||
    die "webkit2gtk-driver is installed but /usr/bin/WebKitWebDriver or /usr/lib/*/webkit2gtk-4.1/MiniBrowser is missing"
have "WebKitWebDriver $(dpkg-query -W -f='${Version}' webkit2gtk-driver), $MINIBROWSER, $(command -v xvfb-run)"

step "puppeteer-core and selenium-webdriver for the engine journeys (tests/node_modules)"
if [ -d "$ROOT/tests/node_modules/puppeteer-core" ] && [ -d "$ROOT/tests/node_modules/selenium-webdriver" ]; then
    have "puppeteer-core $(node -p 'require("'"$ROOT"'/tests/node_modules/puppeteer-core/package.json").version'), selenium-webdriver $(node -p 'require("'"$ROOT"'/tests/node_modules/selenium-webdriver/package.json").version')"
else
    # puppeteer-core downloads no browser; the variable makes sure nothing does.
    (cd "$ROOT/tests" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

# ---------------------------------------------------------------------------------------
# Megatron-LM's own code for tests/megatron (issue 49): its argument checks, rank groups and
# FLOPs formula judge the lab's launch lines, on the CPU. PyPI's torch is the CUDA build (its
# nvidia-* wheels come along, about 5 GB in all; torch does not import without them) and runs
# here without a GPU. megatron-core says Python >= 3.12, but its cp311 wheel's modules import on
# this 3.11 (tests/megatron/judge.py adds typing.override): --ignore-requires-python, and
# --no-deps because its extras (Transformer Engine, Apex...) are not needed for sizes and checks.
step "PyTorch $TORCH_VERSION and megatron-core $MEGATRON_CORE_VERSION (pip, venv in .tools/py)"
PY="$TOOLS/py/bin/python"
# pinned PYTHON MODULES PIN...: true when PYTHON holds each NAME==VERSION of PIN... at exactly
# that version and imports each of MODULES (comma-separated).
pinned() {
    local python="$1" modules="$2"
    shift 2
    [ -x "$python" ] && "$python" - "$modules" "$@" <<'PYEOF' >/dev/null 2>&1
import importlib, sys
from importlib.metadata import version
for pin in sys.argv[2:]:
    name, want = pin.split("==")
    assert version(name) == want, f"{name} {version(name)}, not {want}"
for module in sys.argv[1].split(","):
    importlib.import_module(module)
PYEOF
}
# True when .tools/py imports torch and megatron.core at exactly the pinned versions.
py_ready() { pinned "$PY" torch,megatron.core "${PY_PACKAGES[@]}" "megatron-core==$MEGATRON_CORE_VERSION"; }
if py_ready; then
    have "torch $TORCH_VERSION, megatron-core $MEGATRON_CORE_VERSION in .tools/py"
else
    if [ ! -x "$PY" ]; then
        python3 -m venv "$TOOLS/py" || {
            apt_install python3-venv
            python3 -m venv "$TOOLS/py"
        }
    fi
    step "pip install ${PY_PACKAGES[*]} (about 2 minutes, 5 GB)"
    "$PY" -m pip install --quiet --disable-pip-version-check --no-cache-dir "${PY_PACKAGES[@]}"
    "$PY" -m pip install --quiet --disable-pip-version-check --no-cache-dir --no-deps \
        --ignore-requires-python "megatron-core==$MEGATRON_CORE_VERSION"
    py_ready || die ".tools/py does not import torch $TORCH_VERSION and megatron-core $MEGATRON_CORE_VERSION"
    have "torch $TORCH_VERSION, megatron-core $MEGATRON_CORE_VERSION in .tools/py"
fi

# DeepSpeed's own code for tests/deepspeed (issue 56): its launcher, DeepSpeedConfig and engine
# checks judge the lab's DeepSpeed launches, on the CPU. PyPI has it as an sdist whose setup.py
# imports torch: built against .tools/py's torch (--no-build-isolation), with DS_BUILD_OPS=0 so
# that no CUDA or C++ op is compiled (the judge never runs one); --no-deps, its import-time
# packages pinned above.
step "DeepSpeed $DEEPSPEED_VERSION (pip, DS_BUILD_OPS=0, in .tools/py)"
# True when .tools/py imports DeepSpeed's config and launcher at exactly the pinned versions.
ds_ready() {
    DS_ACCELERATOR=cpu pinned "$PY" deepspeed.runtime.config,deepspeed.launcher.runner \
        "${DS_PACKAGES[@]}" "deepspeed==$DEEPSPEED_VERSION"
}
if ds_ready; then
    have "deepspeed $DEEPSPEED_VERSION in .tools/py"
else
    step "pip install deepspeed==$DEEPSPEED_VERSION ${DS_PACKAGES[*]} (about 40 seconds, 30 MB)"
    "$PY" -m pip install --quiet --disable-pip-version-check --no-cache-dir --no-deps "${DS_PACKAGES[@]}"
    DS_BUILD_OPS=0 "$PY" -m pip install --quiet --disable-pip-version-check --no-cache-dir --no-deps \
        --no-build-isolation "deepspeed==$DEEPSPEED_VERSION"
    ds_ready || die ".tools/py does not import deepspeed $DEEPSPEED_VERSION"
    have "deepspeed $DEEPSPEED_VERSION in .tools/py"
fi

# A real course site for tests/course-site.test.mjs (issue 53): MkDocs with the Material theme,
# the kind of site a course embeds the lab in.
step "MkDocs Material (pip, venv in .tools/mkdocs)"
MKDOCS="$TOOLS/mkdocs/bin/python"
# True when .tools/mkdocs holds exactly the pinned packages and builds with the theme.
mkdocs_ready() { pinned "$MKDOCS" mkdocs,material "${MKDOCS_PACKAGES[@]}"; }
if mkdocs_ready; then
    have "mkdocs-material in .tools/mkdocs"
else
    [ -x "$MKDOCS" ] || python3 -m venv "$TOOLS/mkdocs"
    step "pip install ${MKDOCS_PACKAGES[*]:0:2} and what they import (about 30 seconds)"
    "$MKDOCS" -m pip install --quiet --disable-pip-version-check --no-cache-dir --no-deps "${MKDOCS_PACKAGES[@]}"
    mkdocs_ready || die ".tools/mkdocs does not hold the pinned MkDocs Material"
    have "mkdocs-material in .tools/mkdocs"
fi

# ---------------------------------------------------------------------------------------
mkdir -p "$TOOLS"
cat >"$TOOLS/env.sh" <<EOF
# Written by scripts/setup.sh: re-run it rather than editing this file.
PARALLEL_LAB_ROOT='$ROOT'
export PATH="\$PARALLEL_LAB_ROOT/.tools/node_modules/.bin:\$HOME/.cargo/bin:\$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
# How wasm builds get their std: rustup (its wasm32 target) or debian (rustc-web + build-std).
PARALLEL_WASM_TOOLCHAIN=$WASM_TOOLCHAIN
# Variables for wasm builds only (cargo --target $WASM_TARGET, trunk); native builds keep rustup's.
$WASM_ENV_LINE
# wasm_env COMMAND...: runs a wasm build command with those variables.
wasm_env() { env "\${PARALLEL_WASM_ENV[@]}" "\$@"; }
# Variables for the shipped page's build (trunk build --release) on top of those: std from
# source with panic=immediate-abort, when this machine's Rust can (see scripts/setup.sh).
$RELEASE_ENV_LINE
# release_env COMMAND...: runs a release build of the page with both sets of variables.
release_env() { env "\${PARALLEL_WASM_ENV[@]}" "\${PARALLEL_RELEASE_ENV[@]}" "\$@"; }
EOF
have "wrote .tools/env.sh (wasm toolchain: $WASM_TOOLCHAIN)"

step "setup done in $((SECONDS - STARTED)) s"
