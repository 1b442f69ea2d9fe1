#!/usr/bin/env bash
# The README's GNU parallel recipe, end to end: `--cut` pieces filtered by
# parallel jobs must give the bytes one run gives, on input whose comments
# quote games and whose comments are never closed, and on several files,
# one with a comment never closed and two that end without a newline.
# Needs GNU parallel.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --locked --release --quiet
bin=$PWD/target/release/ctlpgn-filter
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for _ in $(seq 300); do
    cat corpus/comments-quoting-games.ctl-pgn corpus/real-2022-08-14.1.ctl-pgn \
        corpus/spec-examples.ctl-pgn corpus/errors/unclosed-comment-quoting-games.ctl-pgn \
        corpus/errors/movetext.ctl-pgn
done > "$work/input.ctl-pgn"

"$bin" "$work/input.ctl-pgn" > "$work/one" 2>/dev/null || true

# The recipe (a job exits 1 when its piece has a rejected game: `|| true`).
"$bin" --cut 64K "$work/input.ctl-pgn" |
    parallel --pipe -N1 --recend '\0' --rrs -k "$bin" > "$work/parallel" 2>/dev/null || true

if cmp -s "$work/one" "$work/parallel"; then
    echo "parallel recipe: same bytes as one run ($(wc -c < "$work/one") bytes written)"
else
    echo "parallel recipe: output differs from one run" >&2
    exit 1
fi

# Several files cut together: `-N1` hands each job one piece, so that no two
# inputs are joined, even in blocks larger than the pieces (the first file's
# comment is never closed: joined to the next file, it would read on into it).
several=(corpus/errors/unclosed-comment-quoting-games.ctl-pgn corpus/real-*.ctl-pgn)
"$bin" "${several[@]}" > "$work/several-one" 2>/dev/null || true
"$bin" --cut 1K "${several[@]}" |
    parallel --pipe -N1 --recend '\0' --rrs -k --block 64K "$bin" > "$work/several-parallel" 2>/dev/null || true
if cmp -s "$work/several-one" "$work/several-parallel"; then
    echo "parallel recipe: ${#several[@]} files cut together: the same bytes as one run"
else
    echo "parallel recipe: ${#several[@]} files cut together: output differs from one run" >&2
    exit 1
fi

# The author's files, two of them without a final newline, joined by `cat`
# and filtered as one stream: the files' games filtered one by one.
real=(corpus/real-*.ctl-pgn)
for f in "${real[@]}"; do "$bin" "$f" 2>/dev/null || true; done > "$work/real-one-by-one"
cat "${real[@]}" | "$bin" > "$work/real-cat" 2>/dev/null || true
games=$(grep -c '^\[Variant ' "$work/real-one-by-one")
if cmp -s "$work/real-one-by-one" "$work/real-cat"; then
    echo "parallel recipe: ${#real[@]} files through cat: the same $games games as one by one"
else
    echo "parallel recipe: ${#real[@]} files through cat: output differs from the files one by one" >&2
    exit 1
fi

# What cutting at every `[Variant "` line does instead, for comparison.
"$bin" --cut 64K "$work/input.ctl-pgn" | tr -d '\000' |
    parallel --pipe --recstart '[Variant "' -k --block 64K "$bin" > "$work/naive" 2>/dev/null || true
if cmp -s "$work/one" "$work/naive"; then
    echo "cutting at [Variant lines happened to give the same bytes here"
else
    echo "cutting at [Variant lines instead: output differs, as expected"
fi
