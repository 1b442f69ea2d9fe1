#!/usr/bin/env bash
# Peak RSS of many messages: 3.2 million games with no Variant tag (one
# warning each, about 48 MB), filtered on one thread and on two, with the
# flood cap, under -q, and with --all-diagnostics (stderr to /dev/null).
# Messages under --jobs wait their turn in a bounded queue: the peak should
# not grow with their number (issue 41, item 4).
#
#   scripts/memory-messages.sh                 # builds the release binary
#   FILTER=path/to/ctlpgn-filter scripts/memory-messages.sh
#   GAMES=1000000 scripts/memory-messages.sh   # fewer games
set -euo pipefail

cd "$(dirname "$0")/.."
if [ -z "${FILTER:-}" ]; then
    cargo build --release --quiet --bin ctlpgn-filter
fi
BIN=${FILTER:-target/release/ctlpgn-filter}
DIR=${BENCH_DIR:-target/bench}/memory-messages
GAMES=${GAMES:-3200000}
mkdir -p "$DIR"
INPUT="$DIR/no-variant-$GAMES-v2.pgn"
[ -s "$INPUT" ] || awk -v n="$GAMES" 'BEGIN { for (i = 0; i < n; i++) print "1. E7-E13:\n*\n" }' > "$INPUT"

printf '%-28s %6s %8s %9s %9s %8s\n' run "in MB" status written rejected "RSS MB"
for opts in "-j1" "-j2" "-j2 -q" "-j2 --all-diagnostics" "-j2 --dedup"; do
    read -ra o <<< "$opts"
    status=0
    /usr/bin/time -o "$DIR/time" -f '%M' "$BIN" "${o[@]}" --stats "$INPUT" \
        > /dev/null 2> "$DIR/stderr" || status=$?
    rss=$(tail -1 "$DIR/time")
    # The summary: "N games read, W written, R rejected, ..."
    read -r written rejected < <(sed -n 's/^ctlpgn-filter: [0-9]* games\? read, \([0-9]*\) [a-z]*, \([0-9]*\) rejected.*/\1 \2/p' "$DIR/stderr")
    printf '%-28s %6.1f %8s %9s %9s %8.1f\n' "$opts" \
        "$(awk -v b="$(stat -c %s "$INPUT")" 'BEGIN { print b / 1e6 }')" \
        "$status" "$written" "$rejected" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
done
