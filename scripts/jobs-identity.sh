#!/usr/bin/env bash
# The output does not depend on the number of threads: runs `validate` (human, short, JSON,
# HTML), `stats` (text, JSON, CSV, duplicates), `convert` (JSON, CSV, plies, PDN, Manoury) and
# `fix` over the whole shared corpus with `--jobs 1`, `--jobs 2` and `--jobs 5` (five threads
# even on a smaller machine: PDN_JOBS_UNCAPPED) and compares standard output, standard error,
# the exit status and the files written with -o/--audit, byte for byte.
#
#   scripts/jobs-identity.sh [BIN]
#
# BIN defaults to the working tree's release build (built first). Exit 0 when every output is
# identical, 1 otherwise (the first lines of each difference are printed). PDN_CORPUS
# overrides the corpus location. (scripts/identity.sh compares two builds instead.)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus=${PDN_CORPUS:-$root/../shared/corpus}
# The HTML page says when it was made: one date for every run.
export SOURCE_DATE_EPOCH=1700000000
if [ $# -ge 1 ]; then
    bin=$1
else
    cargo build --release --quiet
    bin=$root/target/release/pdn
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases=(
    "validate-human|validate"
    "validate-short|validate --format short"
    "validate-json|validate --format json"
    "validate-html|validate --format html -o OUT"
    "stats-text|stats"
    "stats-json|stats --format json --duplicates --fuzzy 20"
    "stats-player|stats --format csv --by player"
    "convert-json|convert --to json"
    "convert-csv|convert --to csv"
    "convert-plies|convert --to csv --plies"
    "convert-pdn|convert --to pdn"
    "convert-manoury|convert --to manoury"
    "fix-repair|fix --repair --audit AUDIT -o OUT"
)

run() { # JOBS OUTDIR NAME ARGS
    local jobs=$1 dir=$2 name=$3 args=$4
    args=${args//OUT/$dir/$name.out}
    args=${args//AUDIT/$dir/$name.audit}
    local status=0
    # shellcheck disable=SC2086
    PDN_JOBS_UNCAPPED=1 "$bin" $args --jobs "$jobs" -q "$corpus" \
        >"$dir/$name.stdout" 2>"$dir/$name.stderr" || status=$?
    echo "$status" >"$dir/$name.status"
    sed -i "s#$dir/##g" "$dir/$name.stdout" "$dir/$name.stderr"
}

failed=0
for c in "${cases[@]}"; do
    name=${c%%|*}
    args=${c#*|}
    for jobs in 1 2 5; do
        mkdir -p "$work/j$jobs"
        run "$jobs" "$work/j$jobs" "$name" "$args"
    done
    same=1
    for jobs in 2 5; do
        for f in "$work/j1/$name".*; do
            g=$work/j$jobs/$(basename "$f")
            if ! cmp -s "$f" "$g"; then
                same=0
                echo "DIFFERENT: $name: --jobs 1 and --jobs $jobs: $(basename "$f")"
                diff "$f" "$g" | head -8 || true
            fi
        done
    done
    if [ $same = 1 ]; then
        printf 'same       %-16s %10s bytes\n' "$name" "$(cat "$work/j1/$name".* | wc -c)"
    else
        failed=1
    fi
done
if [ $failed = 0 ]; then
    echo "identical at --jobs 1, 2 and 5: ${#cases[@]} cases"
fi
exit $failed
