#!/usr/bin/env bash
# Two builds of the filter timed on the same input with their runs
# interleaved (old, new, old, new ...), so that a drifting machine slows
# both alike; prints each one's median and fastest run and the ratio of
# the medians.
#
#   scripts/compare.sh OLD_BINARY NEW_BINARY FILE [RUNS]   # RUNS: 11
#
# Build the old one from a worktree, e.g.
#   git worktree add /tmp/old 1daedb8 && (cd /tmp/old && cargo build --release)
#   scripts/compare.sh /tmp/old/target/release/ctlpgn-filter \
#       target/release/ctlpgn-filter target/bench/mixed-200.ctl-pgn
set -euo pipefail

[ $# -ge 3 ] || { sed -n 2,12p "$0" >&2; exit 2; }
OLD=$1 NEW=$2 FILE=$3 RUNS=${4:-11}

# Warm the page cache and check that both read the file the same way.
cmp -s <("$OLD" --jobs 1 "$FILE") <("$NEW" --jobs 1 "$FILE") ||
    echo "compare: the two builds write different output" >&2

for _ in $(seq "$RUNS"); do
    for which in old new; do
        bin=$OLD
        [ "$which" = new ] && bin=$NEW
        t0=$(date +%s%N)
        "$bin" --jobs 1 "$FILE" > /dev/null 2>&1 || true
        t1=$(date +%s%N)
        echo "$which $(( (t1 - t0) / 1000 ))"
    done
done | sort -k1,1 -k2,2n | awk '
    { t[$1, ++n[$1]] = $2 }
    function median(w,   k) {
        k = n[w]
        return (k % 2) ? t[w, (k + 1) / 2] : (t[w, k / 2] + t[w, k / 2 + 1]) / 2
    }
    END {
        for (i = 1; i <= 2; i++) {
            w = (i == 1) ? "old" : "new"
            printf "%s: median %.3f s, fastest %.3f s (%d runs)\n", w, median(w) / 1e6, t[w, 1] / 1e6, n[w]
        }
        printf "old / new (medians): %.2fx\n", median("old") / median("new")
    }'
