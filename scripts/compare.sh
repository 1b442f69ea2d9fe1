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

# shellcheck source=scripts/timing.sh
. "$(dirname "$0")/timing.sh"
old() { "$OLD" --jobs 1 "$1" > /dev/null 2>&1 || true; }
new() { "$NEW" --jobs 1 "$1" > /dev/null 2>&1 || true; }

read -r median_old fastest_old median_new fastest_new runs < <(alternate "$RUNS" old new "$FILE" | summary old new)
printf 'old: median %.3f s, fastest %.3f s (%d runs)\n' "$median_old" "$fastest_old" "$runs"
printf 'new: median %.3f s, fastest %.3f s (%d runs)\n' "$median_new" "$fastest_new" "$runs"
echo "old / new (medians): $(awk -v a="$median_old" -v b="$median_new" 'BEGIN { printf "%.2f", a / b }')x"
