#!/usr/bin/env bash
# Instructions the filter executes (valgrind --tool=callgrind) on the 4 MB
# corpora of scripts/corpora.sh, with --jobs 1, per input byte and next to
# the copy baseline's; what --verify, --format ndjson, the --keep-*
# options and the custom pass of examples/custom_pass.rs cost over the
# default run; and, with --jobs 2, the main thread's share of the work
# (callgrind --separate-threads=yes). Unlike wall time they do not drift with the machine, so they
# compare commits run by run; they do not say where time goes when a loop
# waits on memory rather than on instructions.
#
#   scripts/instructions.sh                                   # this build
#   FILTER=/path/to/other/ctlpgn-filter scripts/instructions.sh
#
# Builds with the cargo profile `profiling` (the release build with line
# tables: the same code, so the same counts) and keeps each filter run's
# callgrind profile as target/bench/callgrind.SHAPE.out, for
# `callgrind_annotate target/bench/callgrind.mixed.out` to show where the
# instructions go, by function and line.
#
# Needs valgrind (Debian: apt install valgrind). Inputs are generated into
# target/bench/ (or $BENCH_DIR) from seed 1, as scripts/bench.sh does.
set -euo pipefail

cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "instructions: needs valgrind" >&2; exit 2; }
MB=4
PROFILE=profiling
# shellcheck source=scripts/corpora.sh
. scripts/corpora.sh

# millions OUT CMD...: instructions CMD executes, in millions; its callgrind
# profile goes to OUT.
millions() {
    local out=$1
    shift
    # (A run that rejects games exits 1: --verify on random moves.)
    { valgrind --tool=callgrind --callgrind-out-file="$out" "$@" 2>&1 > /dev/null || true; } |
        awk '/ refs:/ { gsub(",", "", $NF); printf "%.1f", $NF / 1e6 }'
}

# share_of_main OUT: the main thread's share of the instructions in the
# callgrind profiles OUT-NN (one per thread, --separate-threads=yes).
share_of_main() {
    local total=0 main=0 n f
    for f in "$1"-*; do
        n=$(awk '/^summary:/ { print $2 }' "$f")
        total=$((total + n))
        case $f in *-01) main=$n ;; esac
    done
    rm -f "$1"-*
    awk -v m="$main" -v t="$total" 'BEGIN { printf "1/%.0f", t / m }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

KEEP=(--keep-comments --keep-variations --keep-ratings)
printf '%-10s %10s %9s %10s %6s | %8s %8s %8s %8s | %s\n' corpus "filter (M)" "per byte" "copy (M)" ratio \
    --verify ndjson --keep-* custom "--jobs 2: main thread's share"
for f in "$MIXED" "$REAL" "$ANNOTATED" "$ASCII" "$TAGS"; do
    shape=$(basename "$f" -4.ctl-pgn)
    filter=$(millions "$DIR/callgrind.$shape.out" "$BIN" --jobs 1 "$f")
    copy=$(millions /dev/null "$COPY" "$f")
    verify=$(millions /dev/null "$BIN" --jobs 1 --verify "$f")
    ndjson=$(millions /dev/null "$BIN" --jobs 1 --format ndjson "$f")
    keep=$(millions /dev/null "$BIN" --jobs 1 "${KEEP[@]}" "$f")
    custom=$(millions /dev/null "$CUSTOM" < "$f")
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$DIR/threads.out" \
        "$BIN" --jobs 2 "$f" > /dev/null 2>&1 || true
    printf '%-10s %10s %9s %10s %6s | %8s %8s %8s %8s | %s\n' "$shape" "$filter" \
        "$(awk -v m="$filter" -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", m * 1e6 / b }')" \
        "$copy" "$(ratio "$filter" "$copy")" \
        "$(ratio "$verify" "$filter")" "$(ratio "$ndjson" "$filter")" \
        "$(ratio "$keep" "$filter")" "$(ratio "$custom" "$filter")" \
        "$(share_of_main "$DIR/threads.out")"
done
echo "options: their instructions over the default run's (--jobs 1); per function: callgrind_annotate $DIR/callgrind.SHAPE.out"
