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

# run WHAT FILE: the copy baseline (copy) or the filter with one or two
# threads (jobs1, jobs2) over FILE, output to /dev/null.
run() {
    case $1 in
        copy) "$COPY" "$2" ;;
        jobs1) "$BIN" --jobs 1 "$2" ;;
        jobs2) "$BIN" --jobs 2 "$2" ;;
    esac > /dev/null
}

# paired_medians FILE A B: runs A and B (see run) over FILE once each to
# warm the cache, then RUNS times each, alternating (A, B, A, B ...), so
# that a machine whose speed drifts slows both alike; prints the two
# medians in seconds. Ratios are taken between the two of one pair.
paired_medians() {
    run "$2" "$1"
    run "$3" "$1"
    local t0 t1
    for _ in $(seq "$RUNS"); do
        for which in "$2" "$3"; do
            t0=$(date +%s%N)
            run "$which" "$1"
            t1=$(date +%s%N)
            echo "$which $(( t1 - t0 ))"
        done
    done | awk -v first="$2" -v second="$3" '
        { t[$1, ++n[$1]] = $2 }
        function median(w,   i, j, k, s, m) {
            m = n[w]
            for (i = 1; i <= m; i++) s[i] = t[w, i]
            for (i = 2; i <= m; i++) { k = s[i]; for (j = i - 1; j >= 1 && s[j] > k; j--) s[j + 1] = s[j]; s[j + 1] = k }
            return (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
        }
        END { printf "%.3f %.3f\n", median(first) / 1e9, median(second) / 1e9 }'
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
