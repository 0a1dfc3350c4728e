#!/usr/bin/env bash
# Peak memory and time on hostile inputs (issue 37): one huge game of each shape (moves,
# variations, comments, tags, one line) at 8, 32 and 128 MB; archives on one line and
# archives without tags holding a `{` never closed, at 4, 16 and 64 MB; 100,000 small files.
# The inputs are made by scripts/hostile.py in a temporary directory (never committed) and
# removed at the end. Prints a Markdown table (peak resident size from /usr/bin/time, wall
# and user time) for BENCHMARKS.md.
#
#   scripts/bench_hostile.sh [--quick] [--only REGEX]
#
# --quick: the smallest size of each shape only; --only: only the rows whose label matches
# the extended regular expression (e.g. --only 'fix|convert' re-measures those commands).
#
# Needs /usr/bin/time and python3; reads the shared corpus (../shared/corpus or $PDN_CORPUS)
# for the archive shapes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
QUICK=0
ONLY=
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1 ;;
    --only)
        ONLY=$2
        shift
        ;;
    *)
        echo "usage: $0 [--quick] [--only REGEX]" >&2
        exit 2
        ;;
    esac
    shift
done
cargo build --release --quiet
BIN=$ROOT/target/release/pdn
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# measure LABEL COMMAND...: one table row (peak resident MB, wall s, user s, exit status).
measure() {
    local label=$1
    shift
    if [ -n "$ONLY" ] && ! grep -Eq -- "$ONLY" <<<"$label"; then
        return 0
    fi
    /usr/bin/time -f "%M %e %U %x" -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" || true
    local kb wall user code
    read -r kb wall user code < <(tail -1 "$TMP/time")
    printf "| %s | %d MB | %s s | %s s | %s |\n" "$label" $((kb / 1024)) "$wall" "$user" "$code"
}

run_commands() { # LABEL FILE
    local label=$1 file=$2
    measure "$label: validate --jobs 1" "$BIN" validate -q -f json --jobs 1 "$file"
    measure "$label: validate --jobs 2" "$BIN" validate -q -f json --jobs 2 "$file"
    measure "$label: fix -o" "$BIN" fix -q --jobs 1 "$file" -o "$TMP/out.pdn"
    measure "$label: convert --to json" "$BIN" convert -q --jobs 1 --to json "$file" -o "$TMP/out.jsonl"
    rm -f "$TMP/out.pdn" "$TMP/out.jsonl"
}

sizes() { # SMALL MEDIUM LARGE
    if [ $QUICK = 1 ]; then echo "$1"; else echo "$1 $2 $3"; fi
}

echo "| input | peak resident | wall | user | exit |"
echo "|---|---|---|---|---|"
for shape in moves variations comments tags line; do
    for mb in $(sizes 8 32 128); do
        python3 scripts/hostile.py "$shape" "$mb" "$TMP/$shape.pdn"
        run_commands "one game, $shape, $mb MB" "$TMP/$shape.pdn"
        rm -f "$TMP/$shape.pdn"
    done
done
for shape in oneline brace; do
    for mb in $(sizes 4 16 64); do
        python3 scripts/hostile.py "$shape" "$mb" "$TMP/$shape.pdn"
        run_commands "archive, $shape, $mb MB" "$TMP/$shape.pdn"
        rm -f "$TMP/$shape.pdn"
    done
done
python3 scripts/hostile.py files 100 "$TMP/files"
measure "100,000 files: validate" "$BIN" validate -q -f json "$TMP/files"
measure "100,000 files: validate --jobs 1" "$BIN" validate -q -f json --jobs 1 "$TMP/files"
measure "100,000 files: fix --out-dir" "$BIN" fix -q "$TMP/files" --out-dir "$TMP/fixed"
measure "100,000 files: fix --in-place" "$BIN" fix -q "$TMP/files" --in-place
measure "100,000 files: convert --to csv" "$BIN" convert -q --to csv "$TMP/files" -o "$TMP/out.csv"
