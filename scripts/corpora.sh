# shellcheck shell=bash disable=SC2034 # (the variables set are for the sourcing script)
# Sourced, not run, by scripts/bench.sh and scripts/instructions.sh (from
# the repository's root, with MB set): builds the release binary, the
# generator, the copy baseline and the custom pass example, and generates
# the mixed, real, annotated and ASCII corpora of MB megabytes from seed 1
# into target/bench/ (or $BENCH_DIR) unless they are there already. Sets
# BIN (the filter, or $FILTER), GEN, COPY, CUSTOM, DIR, MIXED, REAL,
# ANNOTATED and ASCII.

DIR=${BENCH_DIR:-target/bench}
mkdir -p "$DIR"

cargo build --release --quiet --bin ctlpgn-filter --example gen_corpus --example copy_baseline --example custom_pass
BIN=${FILTER:-target/release/ctlpgn-filter}
GEN=target/release/examples/gen_corpus
COPY=target/release/examples/copy_baseline
CUSTOM=target/release/examples/custom_pass

# corpus SHAPE: prints the path of the SHAPE corpus, generated first if
# missing (through a temporary file, so that an interrupted run leaves no
# short corpus behind).
corpus() {
    local f=$DIR/$1-$MB.ctl-pgn
    if [ ! -s "$f" ]; then
        "$GEN" --mb "$MB" --seed 1 --shape "$1" > "$f.part" && mv "$f.part" "$f"
    fi
    echo "$f"
}
MIXED=$(corpus mixed)
REAL=$(corpus real)
ANNOTATED=$(corpus annotated)
ASCII=$(corpus ascii)
