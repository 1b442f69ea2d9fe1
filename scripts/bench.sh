#!/usr/bin/env bash
# Whole-process benchmark of the release binary against the copy baseline
# (examples/copy_baseline.rs: the same line-by-line I/O, no filtering).
#
#   scripts/bench.sh            # 200 MB corpora, 5 runs each
#   RUNS=7 MB=200 scripts/bench.sh
#   FILTER=/path/to/other/ctlpgn-filter scripts/bench.sh   # time another build
#
# Prints MB/s (10^6 bytes per second, median of RUNS runs), the ratio of
# the filter's time to the copy's and the --jobs 2 speed-up (each pair
# timed in alternation), and peak RSS with --jobs 1 on 100 MB and on 1 GB
# (both generated on the fly and piped in, so nothing that large is
# written to disk). Generated files go to
# target/bench/ (or $BENCH_DIR), never into the source tree. Wall-clock
# numbers are only as quiet as the machine: run it on an idle one.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
MB=${MB:-200}
# shellcheck source=scripts/corpora.sh
. scripts/corpora.sh

# Sanity: nothing rejected, the ASCII corpus is canonical already, and
# --jobs 2 writes the same bytes as --jobs 1.
"$BIN" --jobs 1 --stats "$MIXED" 2>"$DIR/stats.txt" >"$DIR/out1.ctl-pgn"
grep -q " 0 rejected" "$DIR/stats.txt" || { cat "$DIR/stats.txt"; echo "bench: games rejected" >&2; exit 1; }
"$BIN" --jobs 2 "$MIXED" | cmp -s - "$DIR/out1.ctl-pgn" || { echo "bench: --jobs 2 differs from --jobs 1" >&2; exit 1; }
"$BIN" --jobs 1 "$ASCII" | cmp -s - "$ASCII" || { echo "bench: the ASCII corpus is not canonical" >&2; exit 1; }
# The mixed corpus filtered: canonical, with what ASCII lacks (NFC tag
# values with accents, +∞, (=)); filtering it again is the idempotent rerun.
FILTERED=$DIR/filtered-$MB.ctl-pgn
mv "$DIR/out1.ctl-pgn" "$FILTERED"
"$BIN" --jobs 1 "$FILTERED" | cmp -s - "$FILTERED" || { echo "bench: filtering is not idempotent" >&2; exit 1; }

# The commands timed, each over the file given: the copy baseline, and the
# filter with one or two threads.
copy() { "$COPY" "$1" > /dev/null; }
jobs1() { "$BIN" --jobs 1 "$1" > /dev/null; }
jobs2() { "$BIN" --jobs 2 "$1" > /dev/null; }

# shellcheck source=scripts/timing.sh
. scripts/timing.sh

# paired_medians FILE A B: A and B (commands above) over FILE once each to
# warm the cache, then RUNS times each, alternating; prints the two
# medians in seconds. Ratios are taken between the two of one pair.
paired_medians() {
    "$2" "$1"
    "$3" "$1"
    alternate "$RUNS" "$2" "$3" "$1" | summary "$2" "$3" | awk '{ printf "%.3f %.3f\n", $1, $3 }'
}

mbps() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f", b / 1e6 / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

size_mixed=$(stat -c %s "$MIXED")
size_ascii=$(stat -c %s "$ASCII")
size_filtered=$(stat -c %s "$FILTERED")
echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $RUNS runs each, median"
echo

read -r t_copy_m t_mixed < <(paired_medians "$MIXED" copy jobs1)
read -r t_copy_a t_ascii < <(paired_medians "$ASCII" copy jobs1)
read -r t_copy_f t_filtered < <(paired_medians "$FILTERED" copy jobs1)
read -r t_mixed1 t_mixed2 < <(paired_medians "$MIXED" jobs1 jobs2)

printf '| %-44s | %8s | %7s | %13s |\n' "run ($MB MB input)" "time s" "MB/s" "ratio"
printf '| %-44s | %8s | %7s | %13s |\n' "---" "---:" "---:" "---:"
printf '| %-44s | %8s | %7s | %13s |\n' "copy baseline, mixed" "$t_copy_m" "$(mbps "$size_mixed" "$t_copy_m")" "1.00"
printf '| %-44s | %8s | %7s | %13s |\n' "ctlpgn-filter --jobs 1, mixed" "$t_mixed" "$(mbps "$size_mixed" "$t_mixed")" "$(ratio "$t_mixed" "$t_copy_m") of copy"
printf '| %-44s | %8s | %7s | %13s |\n' "copy baseline, ASCII canonical" "$t_copy_a" "$(mbps "$size_ascii" "$t_copy_a")" "1.00"
printf '| %-44s | %8s | %7s | %13s |\n' "ctlpgn-filter --jobs 1, ASCII canonical" "$t_ascii" "$(mbps "$size_ascii" "$t_ascii")" "$(ratio "$t_ascii" "$t_copy_a") of copy"
printf '| %-44s | %8s | %7s | %13s |\n' "copy baseline, mixed filtered" "$t_copy_f" "$(mbps "$size_filtered" "$t_copy_f")" "1.00"
printf '| %-44s | %8s | %7s | %13s |\n' "ctlpgn-filter --jobs 1, mixed filtered again" "$t_filtered" "$(mbps "$size_filtered" "$t_filtered")" "$(ratio "$t_filtered" "$t_copy_f") of copy"
printf '| %-44s | %8s | %7s | %13s |\n' "ctlpgn-filter --jobs 1, mixed (paired below)" "$t_mixed1" "$(mbps "$size_mixed" "$t_mixed1")" "1.00"
printf '| %-44s | %8s | %7s | %13s |\n' "ctlpgn-filter --jobs 2, mixed" "$t_mixed2" "$(mbps "$size_mixed" "$t_mixed2")" "$(ratio "$t_mixed1" "$t_mixed2")x faster"
echo
echo "--jobs 2 speed-up on the mixed corpus: $(ratio "$t_mixed1" "$t_mixed2")x"

# Peak RSS with --jobs 1, input piped from the generator.
if [ -x /usr/bin/time ]; then
    for size in 100 1000; do
        rss=$("$GEN" --mb "$size" --seed 2 | { /usr/bin/time -f '%M' "$BIN" --jobs 1 > /dev/null; } 2>&1 | tail -1)
        echo "peak RSS, --jobs 1, $size MB piped: $rss KB"
    done
else
    echo "peak RSS: /usr/bin/time missing (apt-get install -y time)"
fi
