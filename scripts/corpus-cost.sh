#!/usr/bin/env bash
# What the options that leave games out cost: instructions executed
# (valgrind --tool=callgrind) on the 4 MB corpora of scripts/corpora.sh,
# with --jobs 1, for the default run and each option, and each option's
# count as a ratio of the default's. Instruction counts do not drift with
# the machine (see scripts/instructions.sh).
#
#   scripts/corpus-cost.sh
#   FILTER=/path/to/other/ctlpgn-filter scripts/corpus-cost.sh
#
# Needs valgrind. Builds with the cargo profile `profiling`.
set -euo pipefail

cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "corpus-cost: needs valgrind" >&2; exit 2; }
MB=4
PROFILE=profiling
# shellcheck source=scripts/corpora.sh
. scripts/corpora.sh

# millions CMD...: instructions CMD executes, in millions.
millions() {
    # (A run that rejects games exits 1.)
    { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null || true; } |
        awk '/ refs:/ { gsub(",", "", $NF); printf "%.1f", $NF / 1e6 }'
}

# After 1. E7-E13: Black to move.
AFTER_E13='/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1'
OPTIONS=(
    "--dedup"
    "--tag Event=*Club*"
    "--plies 20..80"
    "--reaches $AFTER_E13"
    "--stop-after 1000000"
    "--dedup --tag Event=*Club* --plies 20..80"
)

set -f # (the options hold globs for the filter, not the shell)
printf '%-10s %10s' corpus "default"
for o in "${OPTIONS[@]}"; do
    printf ' | %s' "${o%% /*}"
done
echo
for f in "$MIXED" "$REAL" "$ANNOTATED"; do
    shape=$(basename "$f" -4.ctl-pgn)
    base=$(millions "$BIN" -q --jobs 1 "$f")
    printf '%-10s %9sM' "$shape" "$base"
    for o in "${OPTIONS[@]}"; do
        if [[ $o == --reaches* ]]; then
            m=$(millions "$BIN" -q --jobs 1 --reaches "$AFTER_E13" "$f")
        else
            # shellcheck disable=SC2086 # (the options are words)
            m=$(millions "$BIN" -q --jobs 1 $o "$f")
        fi
        printf ' | %sM %sx' "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
    done
    echo
done
