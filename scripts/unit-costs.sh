#!/usr/bin/env bash
# What one tag line, one PDTL and one warning's message cost, each alone:
# instructions executed (valgrind --tool=callgrind, --jobs 1) on 20,000
# short games with the item and without it, the difference divided by the
# number of items. The games are written as the writer writes them, so
# that nothing but the item differs.
#
#   scripts/unit-costs.sh
#   FILTER=/path/to/other/ctlpgn-filter scripts/unit-costs.sh
#
# Needs valgrind.
set -euo pipefail

cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "unit-costs: needs valgrind" >&2; exit 2; }
cargo build --release --quiet --bin ctlpgn-filter
BIN=${FILTER:-target/release/ctlpgn-filter}
DIR=${BENCH_DIR:-target/bench}/units
mkdir -p "$DIR"
N=20000

# instructions FILE [OPTION...]: instructions the filter executes on FILE.
instructions() {
    local f=$1
    shift
    { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" --jobs 1 "$@" "$f" 2>&1 > /dev/null || true; } |
        awk '/ refs:/ { gsub(",", "", $NF); print $NF }'
}

# games NAME HEAD: N games whose tag section is HEAD (lines, \n-ended).
games() {
    local f=$DIR/$1.ctl-pgn
    awk -v n="$N" -v head="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s\n1. E7-E13, E21-E15\n2. F8-F12:\n*\n\n", head }' > "$f"
    echo "$f"
}

VARIANT='[Variant "C'"'"'escacs"]'
PDTL='[PDTL "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr - 0 1"]'
PLAIN=$(printf '%s\n' '[Event "Club game"]' '[Site "Barcelona, Catalunya ESP"]' '[Date "2024.??.??"]' '[Round "1"]' '[White "Mestre, Rut"]')

base=$(games base "$VARIANT")
plain=$(games plain "$VARIANT
$PLAIN")
result=$(games result "$VARIANT
[Result \"*\"]")
pdtl=$(games pdtl "$VARIANT
$PDTL")
# No Variant tag: one warning a game ("no Variant tag: added").
warned=$(games warned '[Event "Club game"]')

b=$(instructions "$base")
per() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.0f", (a - b) / n }'; }
printf '%-34s %8s\n' item "instructions"
printf '%-34s %8s\n' "a plain tag line" "$(per "$(instructions "$plain")" "$b" $((N * 5)))"
printf '%-34s %8s\n' "a Result tag" "$(per "$(instructions "$result")" "$b" "$N")"
printf '%-34s %8s\n' "a PDTL, parsed and written" "$(per "$(instructions "$pdtl")" "$b" "$N")"
printf '%-34s %8s\n' "a warning's message, shown (over -q)" \
    "$(per "$(instructions "$warned")" "$(instructions "$warned" -q)" "$N")"
printf '%-34s %8s\n' "a game (3 plies, one tag)" "$(per "$b" 0 "$N")"
