#!/usr/bin/env bash
# The project's benchmark: measures every figure of the performance bar (DESIGN.md), prints
# them and rewrites BENCHMARKS.md. Run from anywhere: scripts/bench.sh [--quick]
#
# Needs cargo, hyperfine (Debian: apt-get install hyperfine) and /usr/bin/time; python3 with
# pydraughts (pip install pydraughts) for the side-by-side figure (skipped with a note if
# missing). Reads the shared corpus at ../shared/corpus (or $PDN_CORPUS) in place.
# --quick: fewer runs, no 1 GB memory run, no deep perft, no criterion.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
CORPUS=${PDN_CORPUS:-$ROOT/../shared/corpus}
QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1
RUNS=$([ $QUICK = 1 ] && echo 5 || echo 15)
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
[ -d "$CORPUS" ] || { echo "corpus not found at $CORPUS" >&2; exit 2; }

cargo build --release --quiet
BIN=$ROOT/target/release/pdn
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

median() { # median of a hyperfine JSON export, in seconds
    python3 -c 'import json,sys,statistics; r=json.load(open(sys.argv[1]))["results"]; print(*[statistics.median(x["times"]) for x in r])' "$1"
}
paired() { # RUNS WARMUP CMD...: interleaved rounds (scripts/paired.py); prints medians then ratios
    python3 "$ROOT/scripts/paired.py" "$@" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(*d["medians"], *d["ratios"])'
}
json_field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])[sys.argv[1]])' "$1"; }

echo "== machine"
CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
CORES=$(nproc)
RUSTC=$(rustc --version)
echo "$CPU, $CORES cores, $RUSTC"

echo "== perft (one core)"
hyperfine --style none --ignore-failure --warmup 2 --runs "$RUNS" --export-json "$TMP/perft.json" \
    "$BIN perft --variant international --depth 9" >/dev/null
PERFT9=$(median "$TMP/perft.json")
NODES9=$("$BIN" perft --variant international --depth 9 --json | json_field nodes)
hyperfine --style none --ignore-failure --warmup 1 --runs "$RUNS" --export-json "$TMP/perft8e.json" \
    "$BIN perft --variant english --depth 10" \
    "$BIN perft --variant russian --depth 9" \
    "$BIN perft --variant canadian --depth 7" >/dev/null
read -r ENG10 RUS9 CAN7 < <(median "$TMP/perft8e.json")
echo "international d9: $NODES9 leaves, median $PERFT9 s"

echo "== validate (the international corpus)"
find "$CORPUS/international" -iname '*.pdn' -print0 | sort -z | xargs -0 cat > "$TMP/intl.pdn"
BYTES=$(stat -c %s "$TMP/intl.pdn")
SUMMARY=$("$BIN" validate "$TMP/intl.pdn" --quiet --format json | tail -1 || true)
PLIES=$(echo "$SUMMARY" | json_field plies)
GAMES=$(echo "$SUMMARY" | json_field games)
# Interleaved rounds (jobs 1, jobs 2, jobs 1, ...): the machine is shared and its speed drifts
# over minutes, which would bias a ratio of two separate series.
read -r V1 V2 VR < <(paired "$RUNS" 2 \
    "$BIN validate $TMP/intl.pdn --jobs 1 --quiet --format json" \
    "$BIN validate $TMP/intl.pdn --jobs 2 --quiet --format json")
echo "$GAMES games, $PLIES plies, $BYTES bytes: jobs 1 $V1 s, jobs 2 $V2 s"
# The same games four times over: a run long enough that starting the process and the
# threads, and the last job, weigh little beside the throughput.
for i in 1 2 3 4; do cat "$TMP/intl.pdn"; done > "$TMP/intl4.pdn"
for i in 1 2; do cat "$TMP/intl.pdn"; done > "$TMP/intl2.pdn"
# The machine's own ceiling for two cores: two independent `--jobs 1` processes at once, each
# on half of the same work (no sharing at all); `--jobs 2` cannot beat it.
read -r W1 W2 WP WR WPR < <(paired "$RUNS" 1 \
    "$BIN validate $TMP/intl4.pdn --jobs 1 --quiet --format json" \
    "$BIN validate $TMP/intl4.pdn --jobs 2 --quiet --format json" \
    "$BIN validate $TMP/intl2.pdn --jobs 1 --quiet --format json >/dev/null & $BIN validate $TMP/intl2.pdn --jobs 1 --quiet --format json; wait")
echo "four times over: jobs 1 $W1 s, jobs 2 $W2 s, two processes on halves $WP s"

echo "== validate --jobs 1, the international corpus repeated to about 60 MB (the bar's measurement)"
for i in $(seq 13); do cat "$TMP/intl.pdn"; done > "$TMP/intl60.pdn"
BYTES60=$(stat -c %s "$TMP/intl60.pdn")
PLIES60=$("$BIN" validate "$TMP/intl60.pdn" --quiet --format json | tail -1 | json_field plies || true)
hyperfine --style none --ignore-failure --warmup 1 --runs "$RUNS" --export-json "$TMP/v60.json" \
    "$BIN validate $TMP/intl60.pdn --jobs 1 --quiet --format json" >/dev/null
V60=$(median "$TMP/v60.json")
/usr/bin/time -f '%M' -o "$TMP/v60mem.txt" "$BIN" validate "$TMP/intl60.pdn" --jobs 1 --quiet --format json >/dev/null || true
RSS60_KB=$(tail -1 "$TMP/v60mem.txt")
LOAD60=$(cut -d' ' -f1-3 /proc/loadavg)
echo "$PLIES60 plies, $BYTES60 bytes: median $V60 s = $(python3 -c "print(f'{$PLIES60/$V60/1e6:.2f}')") M plies/s per core, peak RSS $RSS60_KB KiB (load average $LOAD60)"

echo "== reading alone vs a plain read (criterion, in memory, the whole corpus)"
# Criterion's median throughput of each benchmark of benches/read.rs, in MiB/s.
CRIT_TIME=$([ $QUICK = 1 ] && echo 2 || echo 5)
cargo bench --quiet --bench read -- --noplot --warm-up-time 1 --measurement-time "$CRIT_TIME" 2>/dev/null \
    | grep -E '^read/|time:|thrpt:' > "$TMP/crit_read.txt" || true
crit_mibs() { # the middle figure of the thrpt line after the benchmark named $1, in MB/s
    python3 - "$TMP/crit_read.txt" "$1" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
name, seen = sys.argv[2], False
units = {"B/s": 1e-6, "KiB/s": 1024 / 1e6, "MiB/s": 1.048576, "GiB/s": 1073.741824}
for l in lines:
    if l.startswith(name):
        seen = True
    if seen and "thrpt:" in l:
        v = re.findall(r"([0-9.]+) (B/s|KiB/s|MiB/s|GiB/s)", l)
        print(f"{float(v[1][0]) * units[v[1][1]]:.0f}")
        break
PY
}
READ_MBS=$(crit_mibs read/games)
VISIT_MBS=$(crit_mibs read/visitor)
COPY_MBS=$(crit_mibs read/floor/copy)
echo "reading: $READ_MBS MB/s into games, $VISIT_MBS MB/s into a visitor, plain copy $COPY_MBS MB/s"

echo "== whole corpus, --jobs 1 vs --jobs 2 (byte-identical output)"
"$BIN" validate "$CORPUS" --jobs 1 --quiet --format json > "$TMP/j1.jsonl" || true
"$BIN" validate "$CORPUS" --jobs 2 --quiet --format json > "$TMP/j2.jsonl" || true
if cmp -s "$TMP/j1.jsonl" "$TMP/j2.jsonl"; then SAME=identical; else SAME=DIFFERENT; fi
ALLPLIES=$(tail -1 "$TMP/j1.jsonl" | json_field plies)
read -r A1 A2 AR < <(paired "$RUNS" 1 \
    "$BIN validate '$CORPUS' --jobs 1 --quiet --format json" \
    "$BIN validate '$CORPUS' --jobs 2 --quiet --format json")

echo "== memory: a 1 GB archive through standard input"
if [ $QUICK = 0 ]; then
    REPEAT=$(( (1024 * 1024 * 1024) / BYTES + 1 ))
    /usr/bin/time -f '%M %e' -o "$TMP/mem.txt" bash -c \
        "for i in \$(seq $REPEAT); do cat '$TMP/intl.pdn'; done | '$BIN' validate - --quiet --format json > '$TMP/big.jsonl'; true" || true
    read -r RSS_KB BIG_SECONDS < "$TMP/mem.txt"
    BIG_GAMES=$(tail -1 "$TMP/big.jsonl" | json_field games)
    BIG_BYTES=$(( REPEAT * BYTES ))
else
    RSS_KB=; BIG_SECONDS=; BIG_GAMES=; BIG_BYTES=
fi

echo "== pydraughts side by side"
WK="$CORPUS/international/horizon-boomstradam/BoomstraDam/pdn files/oud/wk2003.pdn"
PYGAMES=40
if python3 -c 'import draughts' 2>/dev/null; then
    PY=$(python3 "$ROOT/scripts/pydraughts_replay.py" "$WK" $PYGAMES)
    PY_PLIES=$(echo "$PY" | json_field plies)
    PY_RATE=$(echo "$PY" | json_field plies_per_second)
else
    PY_PLIES=; PY_RATE=
fi
python3 - "$WK" $PYGAMES > "$TMP/wk40.pdn" <<'EOF'
import sys
# The first N games of the file, cut at the tag section of game N+1.
text = open(sys.argv[1], encoding="latin-1").read()
n = int(sys.argv[2])
starts = [i for i in range(len(text)) if text.startswith("[Event", i) and (i == 0 or text[i-1] == "\n")]
end = starts[n] if len(starts) > n else len(text)
sys.stdout.write(text[:end])
EOF
WK_PLIES=$({ "$BIN" validate "$TMP/wk40.pdn" --quiet --format json || true; } | tail -1 | json_field plies)
hyperfine --style none --ignore-failure --warmup 3 --runs "$RUNS" --export-json "$TMP/wk.json" \
    "$BIN validate $TMP/wk40.pdn --jobs 1 --quiet --format json" >/dev/null
WK_SECONDS=$(median "$TMP/wk.json")

DEEP=
if [ $QUICK = 0 ]; then
    echo "== long tests (the ignored ones: deep perft, 10,000 search queries, ...)"
    START=$(date +%s)
    if cargo test --release --quiet --test it -- --ignored >"$TMP/long-tests.txt" 2>&1; then DEEP=passed; else DEEP=FAILED; tail -20 "$TMP/long-tests.txt"; fi
    DEEP="$DEEP in $(( $(date +%s) - START )) s"
    echo "long tests: $DEEP"
    echo "== criterion"
    cargo bench --quiet --bench perft -- --noplot 2>/dev/null | grep -E '^perft/|time:' > "$TMP/crit_perft.txt" || true
    cargo bench --quiet --bench validate -- --noplot 2>/dev/null | grep -E '^validate/|time:|thrpt:' > "$TMP/crit_validate.txt" || true
fi

python3 - "$TMP" <<EOF
import os, sys, datetime
tmp = sys.argv[1]
def f(x, d=3):
    return "n/a" if x in ("", None) else f"{float(x):.{d}f}"
perft9, nodes9 = float("$PERFT9"), int("$NODES9")
v1, v2, vr, plies = float("$V1"), float("$V2"), float("$VR"), int("$PLIES")
w1, w2, wp, wr, wpr = float("$W1"), float("$W2"), float("$WP"), float("$WR"), float("$WPR")
a1, a2, ar, allplies = float("$A1"), float("$A2"), float("$AR"), int("$ALLPLIES")
wk_rate = int("$WK_PLIES") / float("$WK_SECONDS")
py_rate = "$PY_RATE"
read_mbs, visit_mbs, copy_mbs = "$READ_MBS", "$VISIT_MBS", "$COPY_MBS"
mb = int("$BYTES") / 1e6
crit = lambda name: open(os.path.join(tmp, name)).read().strip() if os.path.exists(os.path.join(tmp, name)) else "(not run)"
lines = []
w = lines.append
w("# Benchmarks")
w("")
w(f"Produced by \`scripts/bench.sh\` on {datetime.date.today()}: $CPU, $CORES cores, $RUSTC.")
w("The machine is shared and noisy: every figure is the median of $RUNS runs, whole process,")
w("release build (hyperfine; the \`--jobs\` comparisons in interleaved rounds by")
w("\`scripts/paired.py\`, each ratio the median of the rounds' ratios, since the machine's speed")
w("drifts over minutes). Inputs are read in place from the shared corpus.")
w("")
w("| figure | measured | bar (DESIGN.md) |")
w("|---|---|---|")
w(f"| \`perft --variant international --depth 9\` ({nodes9:,} leaves), one core | {perft9:.3f} s ({nodes9/perft9/1e6:.1f} M leaves/s) | < 0.5 s, goal < 0.4 s (BikDam 0.43 s) |")
w(f"| \`validate\`, international corpus ({int('$GAMES'):,} games, {plies:,} plies, {mb:.1f} MB), \`--jobs 1\` | {v1:.3f} s = **{plies/v1/1e6:.2f} M plies/s per core** (a short run: starting the process weighs) | (see the 60 MB row) |")
w(f"| same, \`--jobs 2\` | {v2:.3f} s = {plies/v2/1e6:.2f} M plies/s, ratio {vr:.2f} | ratio >= 1.8 |")
w(f"| same file four times ({4*plies:,} plies, {4*mb:.1f} MB), \`--jobs 1\` / \`--jobs 2\` | {w1:.3f} s = {4*plies/w1/1e6:.2f} M plies/s / {w2:.3f} s = {4*plies/w2/1e6:.2f} M plies/s, **ratio {wr:.2f}** | ratio >= 1.8 |")
w(f"| the machine's ceiling: two \`--jobs 1\` processes at once, each on half of that file | {wp:.3f} s, ratio {wpr:.2f} to one process (\`--jobs 2\` reaches {wr/wpr:.0%} of it) | (context for the ratio) |")
w(f"| \`validate --jobs 1\`, international corpus repeated to {int('$BYTES60')/1e6:.1f} MB ({int('$PLIES60'):,} plies; load average $LOAD60) | {float('$V60'):.3f} s = **{int('$PLIES60')/float('$V60')/1e6:.2f} M plies/s per core**, peak {int('$RSS60_KB')/1024:.1f} MiB resident | >= 10 M plies/s, goal 15 M; < 64 MB |")
w(f"| \`validate\`, whole shared corpus ({allplies:,} plies), \`--jobs 1\` / \`--jobs 2\` | {a1:.3f} s / {a2:.3f} s, ratio {ar:.2f}; outputs $SAME | byte-identical |")
if "$RSS_KB":
    w(f"| memory, {int('$BIG_BYTES')/2**30:.2f} GiB through stdin ({int('$BIG_GAMES'):,} games) | {int('$RSS_KB')/1024:.1f} MiB peak resident, {float('$BIG_SECONDS'):.1f} s | < 64 MB, constant |")
if read_mbs:
    w(f"| reading alone: the whole corpus from memory through \`Reader::read_game\` into a visitor that takes every tag, move and comment (criterion \`read/visitor\`) | **{visit_mbs} MB/s** (plain copy of the same bytes: {copy_mbs} MB/s) | >= 500 MB/s; the floor is a plain read |")
    w(f"| reading and building an owned \`Game\` (tags, items, comments and source as owned strings) for every game (criterion \`read/games\`, with the binary's allocator, mimalloc) | **{read_mbs} MB/s** | (no bar of its own; see below) |")
if py_rate:
    w(f"| side by side on WK 2003 (first $PYGAMES games, {int('$WK_PLIES'):,} plies): \`pdn validate\` vs pydraughts 0.6.7 replay | {wk_rate/1e6:.2f} M plies/s vs {float(py_rate):.0f} plies/s: **{wk_rate/float(py_rate):,.0f}x** | say the ratio |")
else:
    w("| side by side with pydraughts | not measured: pydraughts is not installed (pip install pydraughts) | say the ratio |")
w(f"| long tests (\`cargo test --release --test it -- --ignored\`: deep perft, search/index/brute force on 10,000 queries, the report of 100,000 games, a long stream) | ${DEEP:-not run (--quick)} | every perft row <= 300 M leaves; 0 disagreements |")
w("")
w("Reading: \`read/visitor\` is the reader's own work, every byte tokenised and every tag, move and")
w("comment handed over, as pgn-reader's benchmarks measure it; \`read/games\` adds building the")
w("owned tree of a \`Game\` (an 88-byte item per move, an owned string per tag and comment, a copy")
w("of the game's source), which costs more than the reading itself.")
w("")
w("Reading throughput (criterion, \`cargo bench --bench read\`):")
w("")
w("\`\`\`")
w(crit("crit_read.txt"))
w("\`\`\`")
w("")
w("Perft (criterion, \`cargo bench --bench perft\`), other variants (hyperfine medians):")
w(f"english d10 {float('$ENG10'):.3f} s, russian d9 {float('$RUS9'):.3f} s, canadian d7 {float('$CAN7'):.3f} s.")
w("")
w("\`\`\`")
w(crit("crit_perft.txt"))
w("\`\`\`")
w("")
w("Validate in process (criterion, \`cargo bench --bench validate\`; read+replay, and replay of games already read):")
w("")
w("\`\`\`")
w(crit("crit_validate.txt"))
w("\`\`\`")
w("")
w("Commands, for one-off checks:")
w("")
w("\`\`\`sh")
w("target/release/pdn perft --variant international --depth 9 --json")
w("find ../shared/corpus/international -iname '*.pdn' -print0 | sort -z | xargs -0 cat > /tmp/intl.pdn")
w("hyperfine 'target/release/pdn validate /tmp/intl.pdn --jobs 1 -q --format json' 'target/release/pdn validate /tmp/intl.pdn --jobs 2 -q --format json'")
w("python3 scripts/pydraughts_replay.py '../shared/corpus/international/horizon-boomstradam/BoomstraDam/pdn files/oud/wk2003.pdn' 40")
w("\`\`\`")
# Sections after the marker are written by their own benchmarks (cargo bench --bench repair):
# kept as they are.
MARK = "<!-- below: kept by scripts/bench.sh -->"
try:
    old = open("BENCHMARKS.md").read()
except OSError:
    old = ""
kept = old[old.index(MARK):] if MARK in old else ""
open("BENCHMARKS.md", "w").write("\n".join(lines) + "\n" + ("\n" + kept if kept else ""))
print("\n".join(lines))
EOF
