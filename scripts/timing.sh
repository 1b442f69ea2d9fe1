# shellcheck shell=bash
# Sourced, not run, by scripts/bench.sh and scripts/compare.sh: two
# commands timed with their runs alternating (A, B, A, B ...), so that a
# machine whose speed drifts slows both alike.

# alternate RUNS A B ARGS...: runs `A ARGS...` and `B ARGS...` RUNS times
# each, alternating; prints one line a run, "A nanoseconds" or "B
# nanoseconds". A and B are commands or shell functions; what they print
# is theirs to discard.
alternate() {
    local runs=$1 a=$2 b=$3 which t0 t1
    shift 3
    for _ in $(seq "$runs"); do
        for which in "$a" "$b"; do
            t0=$(date +%s%N)
            "$which" "$@"
            t1=$(date +%s%N)
            echo "$which $(( t1 - t0 ))"
        done
    done
}

# summary A B: reads alternate's lines; prints, in seconds, A's median and
# fastest run, then B's, then the number of runs of each.
summary() {
    sort -k1,1 -k2,2n | awk -v a="$1" -v b="$2" '
        { t[$1, ++n[$1]] = $2 }
        function median(w,   k) {
            k = n[w]
            return (k % 2) ? t[w, (k + 1) / 2] : (t[w, k / 2] + t[w, k / 2 + 1]) / 2
        }
        END { printf "%.6f %.6f %.6f %.6f %d\n", median(a) / 1e9, t[a, 1] / 1e9, median(b) / 1e9, t[b, 1] / 1e9, n[a] }'
}
