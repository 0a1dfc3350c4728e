#!/usr/bin/env bash
# Run the cargo-fuzz targets (fuzz/fuzz_targets/) one after another, each for SECONDS
# (default 600), starting from the seeds of fuzz/seeds/<target> and the project's own
# fixtures (fixtures/syntax, fixtures/archives, fixtures/validate); the corpus grows in
# fuzz/corpus/<target>, crashes land in fuzz/artifacts/<target>.
#
#   scripts/fuzz.sh [SECONDS [TARGET...]]
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`); the stable toolchain runs it with
# RUSTC_BOOTSTRAP=1 (cargo-fuzz passes nightly-only sanitizer flags). The target fix_in_place
# also runs the built binary on each input when PDN_FUZZ_BIN names it (slower: a process per
# input), e.g. PDN_FUZZ_BIN=$PWD/target/release/pdn scripts/fuzz.sh 600 fix_in_place.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(reader visitor validate fen fix_in_place)
fi
export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    seeds=()
    [ -d "seeds/$t" ] && seeds+=("seeds/$t")
    if [ "$t" != fen ]; then
        seeds+=(../fixtures/syntax ../fixtures/archives ../fixtures/validate)
        [ -d seeds/reader ] && [ "$t" != reader ] && seeds+=(seeds/reader)
    fi
    echo "== $t for ${seconds}s (seeds: ${seeds[*]})"
    cargo fuzz run "$t" "corpus/$t" "${seeds[@]}" -- \
        -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 2>&1 | grep -a -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==|SUMMARY|Done )" || true
done
