#!/usr/bin/env bash
# Behaviour kept: runs `validate`, `convert`, `fix` and `stats` in every output form over the
# whole shared corpus with two builds of `pdn` and compares the outputs byte for byte (standard
# output, standard error, the exit status and the files written with -o/--audit).
#
#   scripts/identity.sh [BASE [NEW]]
#
# BASE and NEW are git revisions (default: BASE = HEAD, NEW = the working tree). A revision is
# built in a temporary worktree (target directory kept under target/identity/ between runs);
# the working tree is built in place. Exit 0 when every output is identical, 1 otherwise (the
# first lines of each difference are printed). PDN_CORPUS overrides the corpus location.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus=${PDN_CORPUS:-$root/../shared/corpus}
base=${1:-HEAD}
new=${2:-WORKTREE}
work=$root/target/identity
mkdir -p "$work"

build() { # REV -> path of its binary
    local rev=$1
    if [ "$rev" = WORKTREE ]; then
        cargo build --release --quiet >&2
        echo "$root/target/release/pdn"
        return
    fi
    local sha
    sha=$(git rev-parse --verify "$rev^{commit}")
    local dir=$work/src-$sha
    if [ ! -x "$work/bin-$sha" ]; then
        rm -rf "$dir"
        git worktree add --detach --force "$dir" "$sha" >/dev/null 2>&1
        (cd "$dir" && CARGO_TARGET_DIR=$work/target cargo build --release --quiet >&2)
        cp "$work/target/release/pdn" "$work/bin-$sha"
        git worktree remove --force "$dir" >/dev/null 2>&1 || rm -rf "$dir"
    fi
    echo "$work/bin-$sha"
}

bin_a=$(build "$base")
bin_b=$(build "$new")
echo "base: $base ($bin_a)"
echo "new:  $new ($bin_b)"

# Every case: a name and the arguments (the corpus is appended; OUT/AUDIT name files).
cases=(
    "validate-human|validate --jobs 1"
    "validate-short|validate --jobs 1 --format short"
    "validate-json|validate --jobs 1 --format json"
    "validate-json-j2|validate --jobs 2 --format json"
    "validate-russian|validate --jobs 1 --format json --variant russian"
    "convert-pdn|convert --jobs 1 --to pdn"
    "convert-json|convert --jobs 1 --to json"
    "convert-csv|convert --jobs 1 --to csv"
    "convert-plies|convert --jobs 1 --to csv --plies"
    "convert-manoury|convert --jobs 1 --to manoury"
    "convert-algebraic|convert --jobs 1 --to pdn --notation algebraic"
    "convert-out|convert --jobs 1 --to json -o OUT"
    "fix|fix --jobs 1"
    "fix-repair|fix --jobs 1 --repair --audit AUDIT -o OUT"
    "stats-text|stats --jobs 1"
    "stats-json|stats --jobs 1 --format json"
    "stats-player|stats --jobs 1 --format csv --by player"
    "stats-opening|stats --jobs 1 --format csv --by opening"
    "stats-event|stats --jobs 1 --by event"
    "stats-dups|stats --jobs 1 --duplicates --fuzzy 20"
)

run() { # BIN OUTDIR NAME ARGS
    local bin=$1 dir=$2 name=$3 args=$4
    args=${args//OUT/$dir/$name.out}
    args=${args//AUDIT/$dir/$name.audit}
    local status=0
    # shellcheck disable=SC2086
    "$bin" $args "$corpus" >"$dir/$name.stdout" 2>"$dir/$name.stderr" || status=$?
    echo "$status" >"$dir/$name.status"
    # Paths of files written are the only part that differs by run directory.
    sed -i "s#$dir/##g" "$dir/$name.stdout" "$dir/$name.stderr"
}

out_a=$work/out-a
out_b=$work/out-b
rm -rf "$out_a" "$out_b"
mkdir -p "$out_a" "$out_b"
failed=0
for c in "${cases[@]}"; do
    name=${c%%|*}
    args=${c#*|}
    run "$bin_a" "$out_a" "$name" "$args"
    run "$bin_b" "$out_b" "$name" "$args"
    same=1
    for f in "$out_a/$name".*; do
        g=$out_b/$(basename "$f")
        if ! cmp -s "$f" "$g"; then
            same=0
            echo "DIFFERENT: $name: $(basename "$f")"
            diff "$f" "$g" | head -8 || true
        fi
    done
    for g in "$out_b/$name".*; do
        [ -e "$out_a/$(basename "$g")" ] || { same=0; echo "DIFFERENT: $name: only new wrote $(basename "$g")"; }
    done
    if [ $same = 1 ]; then
        printf 'same       %-20s %10s bytes\n' "$name" "$(cat "$out_a/$name".* | wc -c)"
    else
        failed=1
    fi
done
if [ $failed = 0 ]; then
    echo "identical: ${#cases[@]} cases"
fi
exit $failed
