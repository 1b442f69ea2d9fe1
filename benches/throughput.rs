//! In-process throughput, in MB/s (10^6 bytes of input per second), of the
//! lexer alone and of the whole filter (with its default options, with
//! `--verify`, and with comments, variations and ratings kept), on the
//! mixed, real and annotated shapes of `examples/gen_corpus.rs` (4 MB each,
//! generated in memory).
//!
//! ```sh
//! cargo bench --bench throughput
//! ```

#[path = "../examples/support/corpus.rs"]
mod corpus;

use corpus::Shape;
use ctlpgn_filter::{Filter, FilterBuilder, Verify};
use divan::counter::BytesCount;
use divan::{black_box, Bencher};
use std::sync::LazyLock;

const SIZE: u64 = 4_000_000;
const SHAPES: [&str; 4] = ["mixed", "real", "annotated", "tags"];

static INPUTS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    SHAPES
        .iter()
        .map(|&name| Shape::from_name(name).expect("a shape").to_vec(SIZE, 1))
        .collect()
});

fn input(shape: &str) -> &'static [u8] {
    let i = SHAPES.iter().position(|&s| s == shape).expect("a shape");
    &INPUTS[i]
}

fn main() {
    divan::main();
}

/// The tokenizer alone over the whole input, no reader around it: the
/// floor under the reader's time.
#[divan::bench(args = SHAPES)]
fn tokenizer(bencher: Bencher, shape: &str) {
    let data = input(shape);
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| ctlpgn_filter::passes::bench_tokens(black_box(data)));
}

/// The whole filter `make` builds, bytes in to canonical bytes out (to a
/// sink); `rejects` says whether it is expected to reject games.
fn run_filter(bencher: Bencher, shape: &str, make: fn() -> Filter, rejects: bool) {
    let data = input(shape);
    bencher
        .counter(BytesCount::new(data.len()))
        .with_inputs(make)
        .bench_local_values(|mut f| {
            let report = f
                .run(black_box(data), &mut std::io::sink(), &mut |_| {})
                .expect("a sink does not fail");
            assert_eq!(report.games_rejected > 0, rejects);
            report
        });
}

/// The default options.
#[divan::bench(args = SHAPES)]
fn filter(bencher: Bencher, shape: &str) {
    run_filter(bencher, shape, Filter::default, false);
}

/// `--verify`: each game's main line replayed. The mixed shape's moves are
/// random: its games are rejected, most at their first move.
#[divan::bench(args = SHAPES)]
fn filter_verify(bencher: Bencher, shape: &str) {
    let make = || FilterBuilder::new().verify(Verify::new()).build();
    run_filter(bencher, shape, make, shape == "mixed");
}

/// `--keep-comments --keep-variations --keep-ratings`.
#[divan::bench(args = SHAPES)]
fn filter_keep_all(bencher: Bencher, shape: &str) {
    let make = || {
        FilterBuilder::new()
            .keep_comments(true)
            .keep_variations(true)
            .keep_ratings(true)
            .build()
    };
    run_filter(bencher, shape, make, false);
}
