#!/usr/bin/env bash
# Fuzzes this checkout's filter against an earlier commit's
# (fuzz/against/against.rs): the same input under the same options must
# give the same output, rejects, diagnostics and counts. For a change of
# the reader that should change no byte: REV is the commit before it.
#
#   scripts/fuzz-against.sh REV [SECONDS]        # default 1800
#   scripts/fuzz-against.sh HEAD 0               # builds it only (stable; CI)
#
# Needs cargo-fuzz and a nightly toolchain (cargo install cargo-fuzz;
# rustup toolchain install nightly). REV is checked out in a worktree
# under target/fuzz-against/, given another version so that Cargo holds
# both crates, and removed at the end. The run starts from corpus/ and
# corpus/errors/, and from the main fuzz target's grown corpus
# (fuzz/corpus/filter) where there is one; libFuzzer's last line says
# how many inputs it ran.
set -euo pipefail

cd "$(dirname "$0")/.."
rev=${1:?usage: scripts/fuzz-against.sh REV [SECONDS]}
seconds=${2:-1800}
here=$PWD
work=$here/target/fuzz-against
rm -rf "$work"
git worktree prune
mkdir -p "$work/fuzz" "$work/seeds" "$work/grown"
git worktree add -q --detach "$work/old" "$rev"
trap 'git worktree remove --force "$work/old"' EXIT
sed -i '0,/^version = "\(.*\)"/s//version = "\1-old"/' "$work/old/Cargo.toml"

cat > "$work/fuzz/Cargo.toml" <<TOML
[package]
name = "ctlpgn-filter-against"
version = "0.0.0"
publish = false
edition = "2021"

[package.metadata]
cargo-fuzz = true

[dependencies]
libfuzzer-sys = "0.4"
new = { package = "ctlpgn-filter", path = "$here", default-features = false }
old = { package = "ctlpgn-filter", path = "$work/old", default-features = false }

[workspace]

[[bin]]
name = "against"
path = "$here/fuzz/against/against.rs"
test = false
doc = false
bench = false
TOML

if [ "$seconds" = 0 ]; then
    cargo build --quiet --manifest-path "$work/fuzz/Cargo.toml"
    exit
fi
cp corpus/*.ctl-pgn corpus/errors/*.ctl-pgn "$work/seeds/"
grown=()
[ -d fuzz/corpus/filter ] && grown=(fuzz/corpus/filter)
LSAN_OPTIONS=suppressions=$here/fuzz/lsan.supp \
    cargo +nightly fuzz run against --fuzz-dir "$work/fuzz" "$work/grown" "$work/seeds" "${grown[@]}" -- \
    -max_total_time="$seconds" -max_len=4096 -len_control=0 -print_final_stats=1
