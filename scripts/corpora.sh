# shellcheck shell=bash disable=SC2034 # (the variables set are for the sourcing script)
# Sourced, not run, by scripts/bench.sh and scripts/instructions.sh (from
# the repository's root, with MB set): builds the filter, the generator,
# the copy baseline and the custom pass example with the cargo profile
# $PROFILE (release, unless the script set it: profiling for symbols), and
# generates the mixed, real, annotated, ASCII and tag-heavy corpora of MB megabytes
# from seed 1 into target/bench/ (or $BENCH_DIR) unless they are there
# already. Sets BIN (the filter, or $FILTER), GEN, COPY, CUSTOM, DIR,
# MIXED, REAL, ANNOTATED, ASCII and TAGS.

DIR=${BENCH_DIR:-target/bench}
mkdir -p "$DIR"

PROFILE=${PROFILE:-release}
cargo build --profile "$PROFILE" --quiet --bin ctlpgn-filter --example gen_corpus --example copy_baseline --example custom_pass
BIN=${FILTER:-target/$PROFILE/ctlpgn-filter}
GEN=target/$PROFILE/examples/gen_corpus
COPY=target/$PROFILE/examples/copy_baseline
CUSTOM=target/$PROFILE/examples/custom_pass

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
TAGS=$(corpus tags)
