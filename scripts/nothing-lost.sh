#!/usr/bin/env bash
# Issue 41's reproducers that are not about memory (scripts/memory.sh and
# scripts/memory-messages.sh measure those): for each, the exit status, the
# summary line and peak RSS, with the build named (default: the release
# build). Run it with an older build to compare:
#
#   scripts/nothing-lost.sh
#   FILTER=/path/to/other/ctlpgn-filter scripts/nothing-lost.sh
set -euo pipefail

cd "$(dirname "$0")/.."
if [ -z "${FILTER:-}" ]; then
    cargo build --release --quiet --bin ctlpgn-filter
fi
BIN=${FILTER:-target/release/ctlpgn-filter}
DIR=${BENCH_DIR:-target/bench}/nothing-lost
mkdir -p "$DIR"
V='[Variant "C'"'"'escacs"]'

# A bad tag in the middle of a real game's tag section.
sed 's/^\[White ".*"\]$/[White "Ros, "Xus"]/' corpus/real-2022-08-14.1.ctl-pgn > "$DIR/bad-tag.ctl-pgn"
# Nesting: 16,000 variations deep with their moves; 1 MB of empty parentheses.
{ printf '%s\n\n1. E7-E13, E21-E15 ' "$V"
  awk 'BEGIN { for (i = 0; i < 16000; i++) printf "(1. F8-F12, F20-F16 "; for (i = 0; i < 16000; i++) printf ")" }'
  printf '\n2. F8-F12, F20-F16:\n*\n'; } > "$DIR/nested.ctl-pgn"
{ printf '%s\n\n1. E7-E13, E21-E15 ' "$V"
  awk 'BEGIN { for (i = 0; i < 500000; i++) printf "("; for (i = 0; i < 500000; i++) printf ")" }'
  printf '\n2. F8-F12, F20-F16:\n*\n'; } > "$DIR/parens.ctl-pgn"
printf '%s\n\n1. E7-E13, E21-E15 F8-F12, F20-F16:\n*\n' "$V" > "$DIR/missing-number.ctl-pgn"
printf '%s\n\n1. E7-E13, E21-E15\n2. \xe2\x99\x99F8-F12, \xe2\x99\x9fF20-F16:\n*\n' "$V" > "$DIR/pawn-figurine.ctl-pgn"
# 20,000 small games gzipped, cut in half.
if [ ! -s "$DIR/cut.ctl-pgn.gz" ]; then
    for i in $(seq 20000); do printf '%s\n[Round "%d"]\n\n1. E7-E13, E21-E15\n2. F8-F12:\n*\n\n' "$V" "$i"; done |
        gzip -c > "$DIR/whole.gz"
    head -c $(($(stat -c %s "$DIR/whole.gz") / 2)) "$DIR/whole.gz" > "$DIR/cut.ctl-pgn.gz"
fi

# measure NAME ARGS...: exit status, output bytes, the summary, peak RSS.
measure() {
    local name=$1
    shift
    local status=0
    /usr/bin/time -v -o "$DIR/time" "$BIN" "$@" > "$DIR/out" 2> "$DIR/err" || status=$?
    local rss
    rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$DIR/time")
    printf '%-44s %4s %11s %7s  %s\n' "$name" "$status" "$(stat -c %s "$DIR/out")" "$rss" \
        "$(grep -a '^ctlpgn-filter: [0-9]* game' "$DIR/err" | tail -1 | cut -c16-)"
}

printf '%-44s %4s %11s %7s  %s\n' case exit "out bytes" "RSS MB" summary
measure "1 bad tag mid-section" "$DIR/bad-tag.ctl-pgn"
for f in corpus/errors/tag-in-a-tag-section.ctl-pgn corpus/errors/tag-in-a-tag-section-latin1.ctl-pgn; do
    measure "1 $(basename "$f")" "$f"
done
measure "2 split-variations, error inside one" --split-variations corpus/split/error-inside-a-variation.ctl-pgn
measure "2 the same without --split-variations" corpus/split/error-inside-a-variation.ctl-pgn
for j in 1 2; do
    measure "3 gzip cut in half -j$j" -q -j"$j" "$DIR/cut.ctl-pgn.gz"
done
measure "6 16,000 deep, --keep-variations" --keep-variations "$DIR/nested.ctl-pgn"
measure "6 16,000 deep, --split-variations" --split-variations "$DIR/nested.ctl-pgn"
measure "6 1 MB of (), ndjson --keep-variations" --format ndjson --keep-variations "$DIR/parens.ctl-pgn"
measure "7 White's move without its number" "$DIR/missing-number.ctl-pgn"
measure "7 the same, --strict" --strict "$DIR/missing-number.ctl-pgn"
measure "8 pawn figurines without FAN" "$DIR/pawn-figurine.ctl-pgn"
measure "8 the same, --strict" --strict "$DIR/pawn-figurine.ctl-pgn"
rm -f "$DIR/out" "$DIR/err" "$DIR/time"
