#!/usr/bin/env bash
# Peak memory of --jobs 2 on one game whose dropped comment runs 160 MB
# (issue 52): RUNS runs on an idle machine, then RUNS with both cores
# loaded by other processes, for comment lines of 80 bytes, 100 KB and
# 3 MB. Prints each case's smallest and largest peak RSS (KB); the bound
# is 32 MB in every run.
#
#   scripts/memory-race.sh [RUNS]          # RUNS: 50; the release build
#   FILTER=/path/to/ctlpgn-filter scripts/memory-race.sh
set -euo pipefail

cd "$(dirname "$0")/.."
runs=${1:-50}
if [ -z "${FILTER:-}" ]; then
    cargo build --release --quiet --bin ctlpgn-filter
fi
BIN=${FILTER:-target/release/ctlpgn-filter}
DIR=${BENCH_DIR:-target/bench}/memory-race
mkdir -p "$DIR"

# comment LINE_BYTES: the game, its comment in lines of LINE_BYTES.
comment() {
    local f=$DIR/comment-$1
    [ -s "$f" ] || python3 - "$1" "$f" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
line = b"x" * (n - 1) + b"\n"
with open(path, "wb") as f:
    f.write(b'[Event "a"]\n1. E7-E13 {\n')
    for _ in range(160_000_000 // n):
        f.write(line)
    f.write(b"}\n*\n")
PY
    echo "$f"
}

peaks() {
    local f=$1 i lo= hi=0 kb
    for ((i = 0; i < runs; i++)); do
        kb=$(/usr/bin/time -f %M "$BIN" --jobs 2 "$f" 2>&1 > /dev/null | tail -1)
        [ -z "$lo" ] || [ "$kb" -lt "$lo" ] && lo=$kb
        [ "$kb" -gt "$hi" ] && hi=$kb
    done
    echo "$lo $hi"
}

for bytes in 80 100000 3000000; do
    f=$(comment "$bytes")
    read -r lo hi < <(peaks "$f")
    echo "lines of $bytes bytes, idle:   peak RSS $lo to $hi KB over $runs runs"
    yes > /dev/null & y1=$!
    yes > /dev/null & y2=$!
    read -r lo hi < <(peaks "$f")
    kill "$y1" "$y2"
    echo "lines of $bytes bytes, loaded: peak RSS $lo to $hi KB over $runs runs"
done
