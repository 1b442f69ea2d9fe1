#!/usr/bin/env bash
# Hostile inputs (examples/support/hostile.rs) at 1 MB and 4 MB: for each
# shape and its options, the growth of instructions (callgrind) from x1
# to x4, next to the growth of the work (input plus output bytes), and at
# x4 the seconds per MB of input and the peak RSS. Linear shapes grow 4x,
# quadratic ones 16x; so does the work, as a game nested past --max-depth
# is rejected (kept variations show their depth in dots; a split variation
# repeats the moves of those around it).
#
#   scripts/hostile.sh              # every shape
#   scripts/hostile.sh nesting      # the shapes whose name has "nesting"
#   NO_CALLGRIND=1 scripts/hostile.sh   # wall time and RSS only
#
# Needs valgrind (Debian: apt install valgrind) unless NO_CALLGRIND is set.
set -euo pipefail

cd "$(dirname "$0")/.."
cargo build --release --quiet --bin ctlpgn-filter --example hostile
BIN=${FILTER:-target/release/ctlpgn-filter}
GEN=target/release/examples/hostile
DIR=${BENCH_DIR:-target/bench}/hostile
mkdir -p "$DIR"

instructions() {
    # (A shape whose games are rejected exits 1.)
    { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null || true; } |
        awk '/ refs:/ { gsub(",", "", $NF); print $NF }'
}

printf '%-34s %6s %8s %7s %7s %9s %7s %7s\n' shape "in MB" "out MB" "s/MB" "RSS MB" "RSS x1" "instr" work
"$GEN" --list | grep -- "${1:-}" | while IFS=$'\t' read -r name args; do
    read -ra opts <<< "$args"
    for mb in 1 4; do
        [ -s "$DIR/$name-$mb" ] || "$GEN" "$name" "$mb" > "$DIR/$name-$mb"
    done
    in1=$(stat -c %s "$DIR/$name-1")
    in4=$(stat -c %s "$DIR/$name-4")
    out1=$("$BIN" "${opts[@]}" -q "$DIR/$name-1" 2> /dev/null | wc -c || true)
    /usr/bin/time -o "$DIR/time" -f '%M' "$BIN" "${opts[@]}" -q "$DIR/$name-1" > /dev/null 2>&1 || true
    rss1=$(tail -1 "$DIR/time")
    out4=$("$BIN" "${opts[@]}" -q "$DIR/$name-4" 2> /dev/null | wc -c || true)
    /usr/bin/time -o "$DIR/time" -f '%e %M' "$BIN" "${opts[@]}" -q "$DIR/$name-4" > /dev/null 2>&1 || true
    read -r secs rss4 < <(tail -1 "$DIR/time")
    if [ -z "${NO_CALLGRIND:-}" ]; then
        i1=$(instructions "$BIN" "${opts[@]}" -q "$DIR/$name-1")
        i4=$(instructions "$BIN" "${opts[@]}" -q "$DIR/$name-4")
        growth=$(awk -v a="$i4" -v b="$i1" 'BEGIN { printf "%.2fx", a / b }')
    else
        growth=-
    fi
    printf '%-34s %6.1f %8.1f %7.3f %7.1f %9.1f %7s %6.2fx\n' "$name${args:+ }" \
        "$(awk -v b="$in4" 'BEGIN { print b / 1e6 }')" \
        "$(awk -v b="$out4" 'BEGIN { print b / 1e6 }')" \
        "$(awk -v s="$secs" -v b="$in4" 'BEGIN { print s / (b / 1e6) }')" \
        "$(awk -v k="$rss4" 'BEGIN { print k / 1024 }')" \
        "$(awk -v k="$rss1" 'BEGIN { print k / 1024 }')" \
        "$growth" \
        "$(awk -v a="$((in4 + out4))" -v b="$((in1 + out1))" 'BEGIN { print a / b }')"
done
