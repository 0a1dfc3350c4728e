#!/usr/bin/env bash
# How close `--jobs 2` comes to the machine's own two-core ceiling: two independent `--jobs 1`
# processes at once, each on half of the same input (no sharing at all). For `validate
# --format json`, `stats`, `convert --to json` and `search` (a material query: every
# position of every game looked at), in interleaved rounds (scripts/paired.py:
# the machine is shared and its speed drifts), on the international corpus repeated four
# times (the halves: twice each).
#
#   scripts/ceiling.sh [ROUNDS] [BIN]
#
# Prints, per command, the median wall times of the two processes on halves, of `--jobs 2`
# and of `--jobs 1` on the whole, and the median over the rounds of (ceiling time / --jobs 2
# time): the share of the ceiling that `--jobs 2` reaches (the bar: 0.90), with the load
# average before and after; and the median CPU time (user + system) of each, the halves' being
# the two processes' sum: on a loaded machine the wall shares are noise (the second core is
# not free), while CPU time still shows what the threads lose to overhead.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus=${PDN_CORPUS:-$root/../shared/corpus}
rounds=${1:-15}
if [ $# -ge 2 ]; then
    bin=$2
else
    cargo build --release --quiet
    bin=$root/target/release/pdn
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$corpus/international" -iname '*.pdn' -print0 | sort -z | xargs -0 cat > "$tmp/intl.pdn"
for i in 1 2; do cat "$tmp/intl.pdn"; done > "$tmp/half.pdn"
for i in 1 2; do cat "$tmp/half.pdn"; done > "$tmp/whole.pdn"
echo "input: $(stat -c %s "$tmp/whole.pdn") bytes (halves $(stat -c %s "$tmp/half.pdn")); $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "validate --format json" "stats" "convert --to json" "search --material w=1-3,b=1-3,wk=1+ -f json"; do
    one="$bin $c -q --jobs 1"
    out=$(python3 scripts/paired.py "$rounds" 1 \
        "$one $tmp/half.pdn >/dev/null & $one $tmp/half.pdn >/dev/null; wait" \
        "$bin $c -q --jobs 2 $tmp/whole.pdn" \
        "$one $tmp/whole.pdn")
    python3 - "$c" "$out" <<'PY'
import json, sys
name, d = sys.argv[1], json.loads(sys.argv[2])
m, r, c = d["medians"], d["ratios"], d["cpu_medians"]
print(f"{name.split(' --material')[0]:24} ceiling {m[0]:.3f} s  --jobs 2 {m[1]:.3f} s  --jobs 1 {m[2]:.3f} s  "
      f"--jobs 2 reaches {r[0]:.1%} of the ceiling (--jobs 1 / --jobs 2 = {m[2] / m[1]:.2f}); "
      f"CPU: halves {c[0]:.3f} s, --jobs 2 {c[1]:.3f} s ({c[0] / c[1]:.1%}), --jobs 1 {c[2]:.3f} s")
PY
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
