#!/usr/bin/env bash
# The project's one test command (README.md, .ci/run): the Rust tests (the browser tests of the
# HTML report among them), then the Python package's: its wheel built with maturin and installed
# into a virtual environment under target/, with what the tests need (pytest; pyarrow, polars,
# DuckDB and Dask to read the tables: the package itself depends on nothing), and its tests run
# against the CLI (python/tests/). Arguments go to `cargo test`.
#
# The CLI is the one `cargo test` builds (test profile); the wheel is built with the profile
# wheel-test (the release profile without LTO, with sixteen codegen units: see Cargo.toml).
# (The release wheel, `pip install ./python`, is the same code with the release profile.)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
step() { echo "== $1 ($((SECONDS - start)) s)"; }

# The browser tests of the HTML report (tests/it/report.rs) drive headless Chromium; they fail,
# saying why, when it cannot run (PDN_BROWSER_TESTS=skip skips them knowingly).
if [ "${PDN_BROWSER_TESTS:-}" != skip ] && [ -z "${PDN_CHROMIUM:-}" ] && ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null \
    && ! command -v google-chrome >/dev/null; then
    step "installing chromium (for the browser tests)"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

step "cargo test"
cargo test --locked "$@"
PDN_BIN="$(pwd)/target/debug/pdn"
test -x "$PDN_BIN" || { echo "cargo test did not build $PDN_BIN" >&2; exit 1; }

PY="${PYTHON:-python3}"
VENV=target/py-venv
if [ ! -x "$VENV/bin/python" ]; then
    step "a virtual environment in $VENV"
    if ! "$PY" -m venv "$VENV" 2>/dev/null; then
        # Debian's python3 has venv in a package of its own.
        if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
        rm -rf "$VENV"
        "$PY" -m venv "$VENV"
    fi
fi
step "maturin, pytest, pyarrow, polars, duckdb, dask (for the tests only)"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q "maturin>=1.7,<2" pytest pyarrow polars duckdb "dask[dataframe,distributed]"

step "the wheel (maturin build, profile wheel-test)"
rm -rf target/wheels
"$VENV/bin/maturin" build --profile wheel-test --locked \
    --manifest-path python/Cargo.toml -o target/wheels
"$VENV/bin/python" -m pip install -q --force-reinstall --no-deps target/wheels/pdn-*.whl
ls -l target/wheels

step "the Python tests (pytest python/tests)"
# Run from python/tests so that the installed wheel is imported, not the sources.
(cd python/tests && PDN_BIN="$PDN_BIN" "../../$VENV/bin/python" -m pytest -q -p no:cacheprovider --durations=5 .)
step "done"
