#!/usr/bin/env bash
# The README's GNU parallel recipe, end to end: `--cut` pieces filtered by
# parallel jobs must give the bytes one run gives, on input whose comments
# quote games and whose comments are never closed, and on several files
# that end without a newline. Needs GNU parallel.
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
    parallel --pipe --recend '\0' --rrs -k --block 64K "$bin" > "$work/parallel" 2>/dev/null || true

if cmp -s "$work/one" "$work/parallel"; then
    echo "parallel recipe: same bytes as one run ($(wc -c < "$work/one") bytes written)"
else
    echo "parallel recipe: output differs from one run" >&2
    exit 1
fi

# Several files, two of them (the author's) without a final newline: cut
# together and filtered by parallel jobs, or joined by `cat` and filtered
# as one stream, they give the files' games filtered one by one.
real=(corpus/real-*.ctl-pgn)
for f in "${real[@]}"; do "$bin" "$f" 2>/dev/null || true; done > "$work/real-one-by-one"
"$bin" --cut 1K "${real[@]}" |
    parallel --pipe --recend '\0' --rrs -k --block 1K "$bin" > "$work/real-parallel" 2>/dev/null || true
cat "${real[@]}" | "$bin" > "$work/real-cat" 2>/dev/null || true
games=$(grep -c '^\[Variant ' "$work/real-one-by-one")
for way in parallel cat; do
    if cmp -s "$work/real-one-by-one" "$work/real-$way"; then
        echo "parallel recipe: ${#real[@]} files through $way: the same $games games as one by one"
    else
        echo "parallel recipe: ${#real[@]} files through $way: output differs from the files one by one" >&2
        exit 1
    fi
done

# What cutting at every `[Variant "` line does instead, for comparison.
"$bin" --cut 64K "$work/input.ctl-pgn" | tr -d '\000' |
    parallel --pipe --recstart '[Variant "' -k --block 64K "$bin" > "$work/naive" 2>/dev/null || true
if cmp -s "$work/one" "$work/naive"; then
    echo "cutting at [Variant lines happened to give the same bytes here"
else
    echo "cutting at [Variant lines instead: output differs, as expected"
fi
