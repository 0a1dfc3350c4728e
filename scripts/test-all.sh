#!/usr/bin/env bash
# The project's one test command (README.md, .ci/run): the Rust tests (the browser tests of the
# HTML report among them), then the Python package's: its wheel built with maturin and installed
# into a virtual environment under target/, with what the tests need (pytest; pyarrow, polars,
# DuckDB and Dask to read the tables: the package itself depends on nothing), and its tests run
# against the release CLI (python/tests/). Arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test"
cargo test --locked "$@"

echo "== the CLI the Python tests compare with (cargo build --release)"
cargo build --release --locked --bin pdn

PY="${PYTHON:-python3}"
VENV=target/py-venv
if [ ! -x "$VENV/bin/python" ]; then
    echo "== a virtual environment in $VENV"
    if ! "$PY" -m venv "$VENV" 2>/dev/null; then
        # Debian's python3 has venv in a package of its own.
        if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
        rm -rf "$VENV"
        "$PY" -m venv "$VENV"
    fi
fi
echo "== maturin, pytest, pyarrow, polars, duckdb, dask (for the tests only)"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q "maturin>=1.7,<2" pytest pyarrow polars duckdb "dask[dataframe,distributed]"

echo "== the wheel (maturin build --release)"
rm -rf target/wheels
"$VENV/bin/maturin" build --release --locked --manifest-path python/Cargo.toml -o target/wheels
"$VENV/bin/python" -m pip install -q --force-reinstall --no-deps target/wheels/pdn-*.whl
ls -l target/wheels

echo "== the Python tests (pytest python/tests)"
# Run from python/tests so that the installed wheel is imported, not the sources.
cd python/tests
PDN_BIN="$(cd ../.. && pwd)/target/release/pdn" "../../$VENV/bin/python" -m pytest -q -p no:cacheprovider .
