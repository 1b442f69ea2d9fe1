#!/usr/bin/env bash
# The notation author's own reader measured against what this filter
# writes: the conformance cases (conformance/), the seven real games
# (corpus/real-*.ctl-pgn) and the author's published records
# (corpus/real-world/), each fed as the filter writes it by default and
# with --typographic. Prints a table per set and the counts; the results
# and each failure's cause are in docs/authors-reader.md.
#
# The author's program is not part of this repository. Get it with
#   git clone https://github.com/cescacs/cescacs.typescript
# then run, with Node (18 or later) and npm on PATH:
#   AUTHOR_REPO=/path/to/cescacs.typescript scripts/authors-reader.sh
#
# Its engine (ts/src/cescacs.ts) is bundled with esbuild into a temporary
# folder: esbuild from ESBUILD or PATH, else installed there with npm.
# FILTER names the ctlpgn-filter binary (default: target/release, built
# if missing). Not run by CI: it needs Node and the author's checkout.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
: "${AUTHOR_REPO:?set AUTHOR_REPO to a checkout of https://github.com/cescacs/cescacs.typescript}"
engine_src=$AUTHOR_REPO/ts/src/cescacs.ts
[ -f "$engine_src" ] || { echo "$engine_src: not found (is AUTHOR_REPO the checkout's root?)" >&2; exit 2; }
command -v node >/dev/null || { echo "node: not found on PATH" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

esbuild=${ESBUILD:-$(command -v esbuild || true)}
if [ -z "$esbuild" ]; then
    npm install --silent --no-audit --no-fund --prefix "$tmp/tools" esbuild >/dev/null
    esbuild=$tmp/tools/node_modules/.bin/esbuild
fi
"$esbuild" "$engine_src" --bundle --format=esm --platform=node --log-level=error \
    --outfile="$tmp/engine.mjs"

filter=${FILTER:-$root/target/release/ctlpgn-filter}
if [ ! -x "$filter" ]; then
    (cd "$root" && cargo build --release -q)
fi
driver=$root/scripts/authors-reader.mjs

echo "## Conformance cases (conformance/): the author's reader on the filter's output"
echo
printf 'case\texpected\tdefault\ttypographic\tdefault gave\ttypographic gave\n'
for case in "$root"/conformance/*/; do
    name=$(basename "$case")
    "$filter" -q "$case/input.ctl-pgn" > "$tmp/default" 2>/dev/null || true
    "$filter" -q --typographic "$case/input.ctl-pgn" > "$tmp/typographic" 2>/dev/null || true
    node "$driver" "$tmp/engine.mjs" case "$name" "$case/expected" "$tmp/default" "$tmp/typographic"
done | tee "$tmp/cases.tsv"
echo
awk -F'\t' '{ d += $3 == "pass"; t += $4 == "pass" } END {
    printf "cases: %d; as expected: %d with the default output, %d with --typographic\n", NR, d, t }' \
    "$tmp/cases.tsv"

# One input file: its coherent games (--verify), default and typographic,
# with this filter's final position of each.
games() {
    local label=$1 file=$2
    "$filter" -q --verify --final-pdtl "$file" > "$tmp/default" 2> "$tmp/finals.log" || true
    "$filter" -q --verify --typographic "$file" > "$tmp/typographic" 2>/dev/null || true
    sed -n 's/.*: final position: //p' "$tmp/finals.log" > "$tmp/finals"
    node "$driver" "$tmp/engine.mjs" games "$label" "$tmp/finals" "$tmp/default" "$tmp/typographic"
}

for set in real-games real-world; do
    echo
    case $set in
        real-games) echo "## The seven real games (corpus/real-*.ctl-pgn), coherent games" ;;
        real-world) echo "## The author's published records (corpus/real-world/), coherent games" ;;
    esac
    echo
    printf 'game\tdefault\ttypographic\tfinal position (board, turn) vs the filter\n'
    case $set in
        real-games) files=("$root"/corpus/real-*.ctl-pgn) ;;
        real-world) mapfile -t files < <(find "$root/corpus/real-world" -name '*.ctl-pgn' | sort) ;;
    esac
    for file in "${files[@]}"; do
        games "${file#"$root"/}" "$file"
    done > "$tmp/$set.tsv"
    cat "$tmp/$set.tsv"
    echo
    awk -F'\t' -v set="$set" '{ d += $2 == "ok"; t += $3 == "ok"; s += $4 == "same" } END {
        printf "%s: %d coherent games; accepted: %d with the default output, %d with --typographic; final position the same: %d\n",
            set, NR, d, t, s }' "$tmp/$set.tsv"
done
