# Sourced, not run, by scripts/bench.sh and scripts/instructions.sh (from
# the repository's root, with MB set): builds the release binary, the
# generator and the copy baseline, and generates the mixed and the ASCII
# corpus of MB megabytes from seed 1 into target/bench/ (or $BENCH_DIR)
# unless they are there already. Sets BIN (the filter, or $FILTER), GEN,
# COPY, DIR, MIXED and ASCII.

DIR=${BENCH_DIR:-target/bench}
mkdir -p "$DIR"

cargo build --release --quiet --bin ctlpgn-filter --example gen_corpus --example copy_baseline
BIN=${FILTER:-target/release/ctlpgn-filter}
GEN=target/release/examples/gen_corpus
COPY=target/release/examples/copy_baseline

MIXED=$DIR/mixed-$MB.ctl-pgn
ASCII=$DIR/ascii-$MB.ctl-pgn
[ -s "$MIXED" ] || "$GEN" --mb "$MB" --seed 1 > "$MIXED"
[ -s "$ASCII" ] || "$GEN" --mb "$MB" --seed 1 --ascii > "$ASCII"
