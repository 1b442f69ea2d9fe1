//! The fast target: any bytes through the reader's core invariants only
//! (`tests/support/invariants.rs`, which `tests/fuzz_corpus.rs` replays
//! the seeds and `fuzz/regressions/core_invariants/` through on every
//! `cargo test`). Thousands of inputs a second without a sanitizer
//! (`-s none`): it is for finding a broken invariant fast; the `filter`
//! target checks everything else, slowly.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| invariants::hold(data));
