#!/usr/bin/env bash
# The fast fuzz target (fuzz/fuzz_targets/core_invariants.rs): the core
# invariants only (tests/support/invariants.rs), for finding a broken one
# fast: over a thousand inputs a second on one core.
#
#   scripts/fuzz-core.sh [SECONDS]        # default 1800
#
# Needs cargo-fuzz and a nightly toolchain (cargo install cargo-fuzz;
# rustup toolchain install nightly). Seeds: every .ctl-pgn file under
# corpus/, and fuzz/regressions/core_invariants/; what the run finds
# grows fuzz/corpus/core_invariants/ (not committed). An input that breaks
# an invariant is written to fuzz/artifacts/core_invariants/: minimise it
#   cargo +nightly fuzz tmin -s none core_invariants FILE
# fix its cause with a test named after the behaviour, and add it to
# fuzz/regressions/core_invariants/ under a name that says what it broke:
# `cargo test` replays that folder (tests/fuzz_corpus.rs).
set -euo pipefail

cd "$(dirname "$0")/.."
seconds=${1:-1800}
seeds=fuzz/seeds/core_invariants
rm -rf "$seeds"
mkdir -p "$seeds" fuzz/corpus/core_invariants
# Flattened: corpus/errors/tags.ctl-pgn is corpus_errors_tags.ctl-pgn.
find corpus -name '*.ctl-pgn' | while read -r f; do cp "$f" "$seeds/${f//\//_}"; done
# -s none: no sanitizer (the library is safe Rust; the invariants are the
# checks), and cargo fuzz's debug assertions and overflow checks kept.
# -max_len=1024: a check costs in proportion to the input's length (its
# run on two threads in chunks of one byte most); longer seeds are cut.
exec cargo +nightly fuzz run core_invariants -s none \
    fuzz/corpus/core_invariants "$seeds" fuzz/regressions/core_invariants -- \
    -max_total_time="$seconds" -max_len=1024
