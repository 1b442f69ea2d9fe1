#!/usr/bin/env bash
# Instructions the filter executes (valgrind --tool=callgrind) on the 4 MB
# corpora of scripts/corpora.sh, with --jobs 1, next to the copy
# baseline's. Unlike wall time they do not drift with the machine, so they
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
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" 2>&1 > /dev/null |
        awk '/ refs:/ { gsub(",", "", $NF); printf "%.1f", $NF / 1e6 }'
}

printf '%-10s %12s %12s %8s\n' corpus "filter (M)" "copy (M)" ratio
for f in "$MIXED" "$REAL" "$ANNOTATED" "$ASCII"; do
    shape=$(basename "$f" -4.ctl-pgn)
    filter=$(millions "$DIR/callgrind.$shape.out" "$BIN" --jobs 1 "$f")
    copy=$(millions /dev/null "$COPY" "$f")
    printf '%-10s %12s %12s %7.1fx\n' "$shape" "$filter" "$copy" \
        "$(awk -v a="$filter" -v b="$copy" 'BEGIN { print a / b }')"
done
echo "per function: callgrind_annotate $DIR/callgrind.SHAPE.out"
