#!/usr/bin/env bash
# The search benchmarks of issue 32 (BENCHMARKS.md, "search, index, explore"): generates an
# archive of random legal games (never committed), then measures
#   - search without an index: plies/s with --jobs 1 and --jobs 2 (the international corpus
#     four times over, and 100 MB of the random archive), beside validate on the same files;
#   - pdn index on the whole archive: time, peak memory, size per position;
#   - the lookup latency of exact positions drawn at random plies (benches/search.rs);
#   - a query the index answers by going through every position (material).
# Usage: scripts/bench_search.sh [GAMES]   (default 1,100,000 games, about 10^8 positions)
# Needs hyperfine and /usr/bin/time. The archive and index stay in $PDN_BENCH_DIR
# (default /tmp/pdn-bench-search) for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
CORPUS=${PDN_CORPUS:-$ROOT/../shared/corpus}
GAMES=${1:-1100000}
DIR=${PDN_BENCH_DIR:-/tmp/pdn-bench-search}
RUNS=${RUNS:-7}
mkdir -p "$DIR"
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }

cargo build --release --quiet
cargo bench --bench search --no-run --quiet 2>/dev/null
BIN=$ROOT/target/release/pdn
GEN=$(ls -t "$ROOT"/target/release/deps/search-* | grep -v '\.d$' | head -1)
median() { python3 -c 'import json,sys,statistics; r=json.load(open(sys.argv[1]))["results"]; print(*[round(statistics.median(x["times"]),4) for x in r])' "$1"; }
field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])[sys.argv[1]])' "$1"; }

echo "== machine"
grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'
echo "$(nproc) cores, $(rustc --version); load: $(cut -d' ' -f1-3 /proc/loadavg)"

ARCHIVE=$DIR/random-$GAMES.pdn
if [ ! -s "$ARCHIVE" ]; then
    echo "== generating $GAMES random games"
    "$GEN" generate "$GAMES" "$ARCHIVE" 1
fi
ls -l "$ARCHIVE"

echo "== search without an index"
find "$CORPUS/international" -iname '*.pdn' -print0 | sort -z | xargs -0 cat > "$DIR/intl.pdn"
for i in 1 2 3 4; do cat "$DIR/intl.pdn"; done > "$DIR/intl4.pdn"
head -c 100000000 "$ARCHIVE" > "$DIR/random100.pdn"
EXACT='W:W31,34-50:B1-13,15-18,20,32'
for f in intl4 random100; do
    F=$DIR/$f.pdn
    PLIES=$("$BIN" search "$F" -q -f json --position "$EXACT" | field plies)
    hyperfine --style none --ignore-failure --warmup 1 --runs "$RUNS" --export-json "$DIR/s-$f.json" \
        "$BIN validate $F -j1 -q -f json" \
        "$BIN search $F -j1 -q -f json --position $EXACT" \
        "$BIN search $F -j1 -q -f json --pieces W:W28,K30:B19 --mirror" \
        "$BIN search $F -j1 -q -f json --material w=1-3,b=1-3" \
        "$BIN search $F -j2 -q -f json --position $EXACT" >/dev/null
    read -r V S P M S2 < <(median "$DIR/s-$f.json")
    python3 - "$f" "$PLIES" "$V" "$S" "$P" "$M" "$S2" <<'EOF'
import sys
f, plies = sys.argv[1], int(sys.argv[2])
v, s, p, m, s2 = map(float, sys.argv[3:])
r = lambda t: plies / t / 1e6
print(f"{f}: {plies} plies; validate -j1 {v}s ({r(v):.2f} M/s); search -j1: exact {s}s ({r(s):.2f} M/s), "
      f"pattern+mirror {p}s ({r(p):.2f} M/s), material {m}s ({r(m):.2f} M/s); exact -j2 {s2}s ({r(s2):.2f} M/s)")
EOF
done

echo "== pdn index (all cores)"
IDX=$DIR/random-$GAMES.idx
/usr/bin/time -f "%e s elapsed, %U s user, %S s system, %M KB peak" "$BIN" index "$ARCHIVE" -o "$IDX" 2>&1 | tail -2
ls -l "$IDX"

echo "== lookup latency (1000 exact positions at random plies, index opened once)"
"$GEN" latency "$IDX" "$ARCHIVE" 1000 7

echo "== whole commands with the index"
MID=$("$BIN" search "$DIR/random100.pdn" -q -f json --material w=15,b=15 --side white | head -1 | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["fen"])')
hyperfine --style none --ignore-failure --warmup 1 --runs "$RUNS" --export-json "$DIR/idx.json" \
    "$BIN search --index $IDX -q -f json --position $MID" \
    "$BIN search --index $IDX -q -f json --material w=1,b=1" \
    "$BIN explore --index $IDX -q -f json" >/dev/null
read -r E M X < <(median "$DIR/idx.json")
echo "exact position (process start to exit): $E s; material w=1,b=1 (every position): $M s; explore from the start: $X s"
