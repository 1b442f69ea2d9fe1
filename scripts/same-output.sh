#!/usr/bin/env bash
# Two builds of the filter on the same inputs under the option sets that
# a change of the reader must not alter: the same output, messages and
# exit status, file by file. Prints each difference, then a count.
#
#   scripts/same-output.sh OLD_BINARY NEW_BINARY [FILE...]
#
# Without FILEs: every file under corpus/ and conformance/, and the 4 MB
# shapes in target/bench/ (scripts/corpora.sh makes them) with their
# canonical output. Build the old one from a worktree, e.g.
#   git worktree add /tmp/old 1b9688a && (cd /tmp/old && cargo build --release)
set -uo pipefail

[ $# -ge 2 ] || { sed -n 2,11p "$0" >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
    files=("$@")
else
    mapfile -t files < <(find corpus conformance -type f -name '*.ctl-pgn' | sort)
    for f in "${BENCH_DIR:-target/bench}"/*-4.ctl-pgn; do
        [ -e "$f" ] && files+=("$f")
    done
fi

sets=(
    ""
    "--keep-comments --keep-variations"
    "--tag Event=Club*"
    "--format ndjson"
    "--dedup"
    "--verify"
    "--plies 10..40 --dedup --stop-after 500"
    "--split-variations --verify --format ndjson"
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=0 differ=0
for f in "${files[@]}"; do
    for s in "${sets[@]}"; do
        # shellcheck disable=SC2086 # an option set is words
        "$OLD" --jobs 1 $s "$f" > "$tmp/o1" 2> "$tmp/e1"
        r1=$?
        # shellcheck disable=SC2086
        "$NEW" --jobs 1 $s "$f" > "$tmp/o2" 2> "$tmp/e2"
        r2=$?
        runs=$((runs + 1))
        if ! cmp -s "$tmp/o1" "$tmp/o2" || ! cmp -s "$tmp/e1" "$tmp/e2" || [ $r1 != $r2 ]; then
            differ=$((differ + 1))
            echo "differ: $f [$s] (exit $r1, $r2)"
            diff <(cat "$tmp/o1" "$tmp/e1") <(cat "$tmp/o2" "$tmp/e2") | head -6
        fi
    done
done
echo "$runs runs, $differ differing"
[ "$differ" = 0 ]
