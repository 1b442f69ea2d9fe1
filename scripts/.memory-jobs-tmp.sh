#!/usr/bin/env bash
# Peak memory on inputs that a game or a line would make large if held
# whole (issue 41): one game with a 150 MB comment, closed and never
# closed, with --jobs 1 and 2, and with --rejects, --keep-comments and
# both; a 1 GB line with no newline on standard input; a small .zst that
# expands to one 4 GB line. For each: exit status, games written and
# rejected (--stats), peak RSS (/usr/bin/time -v).
#
#   scripts/memory.sh                      # the release build
#   FILTER=/path/to/ctlpgn-filter scripts/memory.sh
#
# Needs zstd (Debian: apt install zstd) and about 300 MB of disk under
# target/bench/memory (the rejects and output written are removed).
set -euo pipefail

cd "$(dirname "$0")/.."
if [ -z "${FILTER:-}" ]; then
    cargo build --release --quiet --bin ctlpgn-filter
fi
BIN=${FILTER:-target/release/ctlpgn-filter}
DIR=${BENCH_DIR:-target/bench}/memory
mkdir -p "$DIR"

# One game whose comment holds 1.5 million lines of 100 bytes, then a game
# (inside the comment when it is never closed: read again from there).
comment() {
    printf '[Variant "C'"'"'escacs"]\n1. E7-E13:\n{'
    awk 'BEGIN { s = sprintf("%99s", ""); gsub(/ /, "x", s); for (i = 0; i < 1500000; i++) print s }'
    if [ "$1" = closed ]; then printf '}\n*\n\n'; fi
    printf '[Variant "C'"'"'escacs"]\n1. E7-E13, E21-E15:\n*\n'
}
[ -s "$DIR/closed" ] || comment closed > "$DIR/closed"
[ -s "$DIR/open" ] || comment open > "$DIR/open"

# measure NAME COMMAND...: the command's stdin is what is left of this
# function's; output and rejects go to files that are then removed.
measure() {
    local name=$1
    shift
    local status=0
    /usr/bin/time -v -o "$DIR/time" "$@" > "$DIR/out" 2> "$DIR/err" || status=$?
    local rss stats
    rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$DIR/time")
    stats=$(grep -Eo '[0-9]+ written, [0-9]+ rejected' "$DIR/err" | tail -1 || true)
    printf '%-58s %4s %-26s %9s\n' "$name" "$status" "${stats:-$(grep -m1 -o 'error: .\{0,60\}' "$DIR/err" || tail -c 80 "$DIR/err")}" "$rss"
    rm -f "$DIR/out" "$DIR/rejects"
}

printf '%-58s %4s %-26s %9s\n' case exit "games" "RSS MB"
for input in closed open; do
    for jobs in 1 2; do
        for opts in "" "--rejects $DIR/rejects" "--keep-comments" "--rejects $DIR/rejects --keep-comments"; do
            read -ra o <<< "$opts"
            measure "150 MB comment $input -j$jobs ${opts//$DIR\//}" \
                "$BIN" --stats -q -j"$jobs" "${o[@]}" "$DIR/$input"
        done
    done
done
