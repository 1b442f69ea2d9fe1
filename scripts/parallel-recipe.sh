#!/usr/bin/env bash
# The README's GNU parallel recipe, end to end: `--cut` pieces filtered by
# parallel jobs must give the bytes one run gives, on input whose comments
# quote games and whose comments are never closed, and on several files,
# one with a comment never closed and two that end without a newline.
# Every run's exit status is checked and its stderr kept: a run that fails
# stops the script, showing what it said, so that two runs failing alike
# never compare equal. Needs GNU parallel.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --locked --release --quiet
bin=$PWD/target/release/ctlpgn-filter
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fail MESSAGE FILE...: says MESSAGE, shows the end of each FILE, stops.
fail() {
    echo "parallel recipe: $1" >&2
    shift
    for f in "$@"; do
        echo "--- the last 40 lines of $(basename "$f"):" >&2
        tail -n 40 "$f" >&2
    done
    exit 1
}

# expect STATUS NAME COMMAND...: runs COMMAND (its standard output where the
# caller sends it, its stderr kept in NAME.err) and fails unless it exits
# with STATUS (1: a game of its input is rejected).
expect() {
    local want=$1 name=$2 status=0
    shift 2
    "$@" 2> "$work/$name.err" || status=$?
    [ "$status" = "$want" ] || fail "$name: exit status $status, expected $want" "$work/$name.err"
}

# in_parallel NAME OUT PARALLEL-OPTION...: GNU parallel runs the filter on
# pieces of its standard input, into OUT. Each job must exit 0, or 1 (its
# piece has a rejected game), on no signal, and parallel's own status must
# be the count of jobs that failed (101: more than 100). Sets failed_jobs.
in_parallel() {
    local name=$1 out=$2 status=0
    shift 2
    parallel --joblog "$work/$name.jobs" "$@" "$bin" > "$out" 2> "$work/$name.err" || status=$?
    # The job log: a header, then a line a job, its 7th field the exit
    # status and its 8th the signal.
    local jobs others
    jobs=$(awk -F'\t' 'NR > 1' "$work/$name.jobs" | wc -l)
    others=$(awk -F'\t' 'NR > 1 && (($7 != 0 && $7 != 1) || $8 != 0)' "$work/$name.jobs" | wc -l)
    failed_jobs=$(awk -F'\t' 'NR > 1 && $7 == 1' "$work/$name.jobs" | wc -l)
    local counted=$((failed_jobs > 100 ? 101 : failed_jobs))
    if [ "$jobs" = 0 ] || [ "$others" != 0 ] || [ "$status" != "$counted" ]; then
        fail "$name: parallel exited $status after $jobs jobs, $failed_jobs of which exited 1 \
and $others otherwise failed" "$work/$name.jobs" "$work/$name.err"
    fi
}

# same ONE OTHER WHAT: ONE is not empty and OTHER holds the same bytes.
same() {
    [ -s "$1" ] || fail "$3: one run wrote nothing"
    cmp -s "$1" "$2" || fail "$3: output differs from one run"
}

for _ in $(seq 300); do
    cat corpus/comments-quoting-games.ctl-pgn corpus/real-2022-08-14.1.ctl-pgn \
        corpus/spec-examples.ctl-pgn corpus/errors/unclosed-comment-quoting-games.ctl-pgn \
        corpus/errors/movetext.ctl-pgn
done > "$work/input.ctl-pgn"

# The input has rejected games: one run exits 1, and so does a job.
expect 1 one "$bin" "$work/input.ctl-pgn" > "$work/one"

# The recipe.
expect 0 cut "$bin" --cut 64K --mark-origin "$work/input.ctl-pgn" > "$work/pieces"
# As the README prints it: --block twice the pieces' size, so that
# parallel never warns of a record longer than its block.
in_parallel recipe "$work/parallel" --pipe -N1 --block 128K --recend '\0' --rrs -k < "$work/pieces"
[ "$failed_jobs" -gt 0 ] || fail "recipe: no job rejected a game" "$work/recipe.jobs"
if grep -q "longer than" "$work/recipe.err"; then
    fail "recipe: parallel warned of a record longer than its block" "$work/recipe.err"
fi
# --mark-origin: the jobs name the file cut, not their standard input.
if grep -q "<stdin>" "$work/recipe.err" || ! grep -q "^$work/input.ctl-pgn:" "$work/recipe.err"; then
    fail "recipe: the pieces' diagnostics do not name the file cut" "$work/recipe.err"
fi
same "$work/one" "$work/parallel" "the recipe"
echo "parallel recipe: same bytes as one run ($(wc -c < "$work/one") bytes written)"

# Several files cut together: `-N1` hands each job one piece, so that no two
# inputs are joined, even in blocks larger than the pieces (the first file's
# comment is never closed: joined to the next file, it would read on into it).
several=(corpus/errors/unclosed-comment-quoting-games.ctl-pgn corpus/real-*.ctl-pgn)
expect 1 several-one "$bin" "${several[@]}" > "$work/several-one"
expect 0 several-cut "$bin" --cut 1K "${several[@]}" > "$work/several-pieces"
in_parallel several "$work/several-parallel" --pipe -N1 --recend '\0' --rrs -k --block 64K \
    < "$work/several-pieces"
[ "$failed_jobs" -gt 0 ] || fail "several files: no job rejected a game" "$work/several.jobs"
same "$work/several-one" "$work/several-parallel" "${#several[@]} files cut together"
echo "parallel recipe: ${#several[@]} files cut together: the same bytes as one run"

# The author's files, two of them without a final newline, joined by `cat`
# and filtered as one stream: the files' games filtered one by one.
real=(corpus/real-*.ctl-pgn)
for f in "${real[@]}"; do
    expect 0 "real-$(basename "$f")" "$bin" "$f"
done > "$work/real-one-by-one"
cat "${real[@]}" > "$work/real-joined"
expect 0 real-cat "$bin" < "$work/real-joined" > "$work/real-cat"
games=$(grep -c '^\[Variant ' "$work/real-one-by-one")
same "$work/real-one-by-one" "$work/real-cat" "${#real[@]} files through cat"
echo "parallel recipe: ${#real[@]} files through cat: the same $games games as one by one"

# What cutting at every `[Variant "` line does instead, for comparison (the
# input as `--cut` writes it without its NUL bytes: the input itself).
in_parallel naive "$work/naive" --pipe --recstart '[Variant "' -k --block 64K < "$work/input.ctl-pgn"
if cmp -s "$work/one" "$work/naive"; then
    echo "cutting at [Variant lines happened to give the same bytes here"
else
    echo "cutting at [Variant lines instead: output differs, as expected"
fi
