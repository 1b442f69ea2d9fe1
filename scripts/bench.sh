#!/usr/bin/env bash
# Whole-process benchmark of the release binary on three corpus shapes
# (mixed, real, annotated: see examples/gen_corpus.rs), against the copy
# baseline (examples/copy_baseline.rs: the same line-by-line I/O, no
# filtering).
#
#   scripts/bench.sh            # 200 MB corpora, 5 runs each
#   RUNS=7 MB=200 scripts/bench.sh
#   FILTER=/path/to/other/ctlpgn-filter scripts/bench.sh   # time another build
#                                     (the custom pass stays this tree's)
#
# Prints one markdown table, a row per shape: the copy's and the filter's
# (--jobs 1) times and MB/s (10^6 bytes per second; medians of RUNS runs)
# and their ratio; the --jobs 2 speed-up; the time of --verify, --format
# ndjson, --keep-comments --keep-variations --keep-ratings and the custom
# pass of examples/custom_pass.rs, each as a ratio to --jobs 1; and peak
# RSS with --jobs 1 on 1 GB of the mixed and the annotated shape, piped
# from the generator (so nothing that large is written to disk). Each ratio
# comes from its own pair of commands timed in alternation, because the
# machine's speed drifts by more than the differences measured. Output and
# diagnostics go to /dev/null (the real games warn). Generated files go to
# target/bench/ (or $BENCH_DIR), never into the source tree. Wall-clock
# numbers are only as quiet as the machine: run it on an idle one.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
MB=${MB:-200}
# shellcheck source=scripts/corpora.sh
. scripts/corpora.sh
# shellcheck source=scripts/timing.sh
. scripts/timing.sh

KEEP=(--keep-comments --keep-variations --keep-ratings)

fail() {
    echo "bench: $*" >&2
    exit 1
}

# counts OPTIONS... FILE: "GAMES REJECTED" of a --jobs 1 run, from its
# --stats total line.
counts() {
    local total
    total=$("$BIN" --jobs 1 --stats "$@" 2>&1 > /dev/null | awk '/ games? read, / { print $2, $7 }') || true
    [ -n "$total" ] || fail "no --stats total from $BIN --jobs 1 --stats $*"
    echo "$total"
}

# check FILE: nothing rejected, with the default options nor with
# everything kept; --jobs 2 writes the same bytes as --jobs 1; filtering
# the output again changes nothing.
check() {
    local games rejected out=$DIR/check.ctl-pgn
    read -r games rejected < <(counts "$1")
    [ "$rejected" = 0 ] || fail "$1: $rejected of $games games rejected"
    read -r games rejected < <(counts "${KEEP[@]}" "$1")
    [ "$rejected" = 0 ] || fail "$1: $rejected of $games games rejected with ${KEEP[*]}"
    "$BIN" --jobs 1 "$1" 2> /dev/null > "$out"
    "$BIN" --jobs 2 "$1" 2> /dev/null | cmp -s - "$out" || fail "$1: --jobs 2 differs from --jobs 1"
    "$BIN" --jobs 1 "$out" 2> /dev/null | cmp -s - "$out" || fail "$1: filtering its output again changes it"
    rm "$out"
}

for f in "$MIXED" "$REAL" "$ANNOTATED"; do
    check "$f"
done
"$BIN" --jobs 1 "$ASCII" | cmp -s - "$ASCII" || fail "the ASCII corpus is not canonical"
"$BIN" --jobs 1 "$TAGS" | cmp -s - "$TAGS" || fail "the tag-heavy corpus is not canonical"

# The commands timed, each over the file given. --verify exits 1 when it
# rejects games (every game of the mixed shape: its moves are random).
copy() { "$COPY" "$1" > /dev/null; }
# The floor the filter is held to: one sed pass that respells ×.
sed_pass() { sed 's/×/*/g' "$1" > /dev/null; }
jobs1() { "$BIN" --jobs 1 "$1" > /dev/null 2>&1; }
jobs2() { "$BIN" --jobs 2 "$1" > /dev/null 2>&1; }
verify() { "$BIN" --jobs 1 --verify "$1" > /dev/null 2>&1 || true; }
ndjson() { "$BIN" --jobs 1 --format ndjson "$1" > /dev/null 2>&1; }
keep() { "$BIN" --jobs 1 "${KEEP[@]}" "$1" > /dev/null 2>&1; }
custom() { "$CUSTOM" < "$1" > /dev/null 2>&1; }

# paired_medians FILE A B: A and B (commands above) over FILE once each to
# warm the cache, then RUNS times each, alternating; prints the two
# medians in seconds.
paired_medians() {
    "$2" "$1"
    "$3" "$1"
    alternate "$RUNS" "$2" "$3" "$1" | summary "$2" "$3" | awk '{ printf "%.3f %.3f\n", $1, $3 }'
}

mbps() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f", b / 1e6 / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

# peak_rss SHAPE: peak RSS of --jobs 1 on 1 GB of SHAPE piped from the
# generator.
peak_rss() {
    [ -x /usr/bin/time ] || { echo "no /usr/bin/time"; return; }
    "$GEN" --mb 1000 --seed 2 --shape "$1" |
        /usr/bin/time -f '%M' -o "$DIR/rss.txt" "$BIN" --jobs 1 > /dev/null 2>&1
    awk '{ printf "%.1f MiB", $1 / 1024 }' "$DIR/rss.txt"
}

# row SHAPE FILE [rss]: times the commands on FILE and prints the table's
# row, with SHAPE's peak RSS if asked.
row() {
    local shape=$1 file=$2 t_copy t1 t_sed base t cmd cells games rejected
    read -r t_copy t1 < <(paired_medians "$file" copy jobs1)
    cells="$t_copy | $t1 | $(mbps "$(stat -c %s "$file")" "$t1") | $(ratio "$t1" "$t_copy")"
    read -r t_sed t < <(paired_medians "$file" sed_pass jobs1)
    cells="$cells | $(ratio "$t_sed" "$t")"
    read -r base t < <(paired_medians "$file" jobs1 jobs2)
    cells="$cells | $(ratio "$base" "$t")"
    read -r base t < <(paired_medians "$file" jobs1 verify)
    read -r games rejected < <(counts --verify "$file")
    cells="$cells | $(ratio "$t" "$base")"
    [ "$rejected" = 0 ] || cells="$cells ($rejected of $games games rejected)"
    for cmd in ndjson keep custom; do
        read -r base t < <(paired_medians "$file" jobs1 "$cmd")
        cells="$cells | $(ratio "$t" "$base")"
    done
    local rss=""
    [ "${3:-}" = rss ] && rss=$(peak_rss "$shape")
    echo "| $shape | $cells | $rss |"
}

echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $MB MB corpora; $RUNS runs each, median"
echo
echo "| shape | copy s | --jobs 1 s | MB/s | ratio to copy | times as fast as sed | --jobs 2 speed-up | --verify | --format ndjson | ${KEEP[*]} | custom pass | peak RSS, 1 GB piped |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
row mixed "$MIXED" rss
row real "$REAL"
row annotated "$ANNOTATED" rss
row ascii "$ASCII"
row tags "$TAGS"
echo
echo "Times as fast as sed: one sed 's/×/*/g' pass's time over the --jobs 1 time. Speed-up: the --jobs 1 time over the --jobs 2 time. Options and the custom pass: their time over the --jobs 1 time."
