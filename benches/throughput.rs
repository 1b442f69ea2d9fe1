//! In-process throughput, in MB/s (10^6 bytes of input per second), of the
//! lexer alone, the pass chain alone, and the whole filter, on the mixed
//! and the ASCII canonical corpus of `examples/gen_corpus.rs` (4 MB each,
//! generated in memory).
//!
//! ```sh
//! cargo bench --bench throughput
//! ```

#[path = "../examples/support/corpus.rs"]
mod corpus;

use ctlpgn_filter::Filter;
use divan::counter::BytesCount;
use divan::{black_box, Bencher};
use std::sync::LazyLock;

const SIZE: u64 = 4_000_000;

static MIXED: LazyLock<Vec<u8>> = LazyLock::new(|| corpus::generate_vec(SIZE, 1, false));
static ASCII: LazyLock<Vec<u8>> = LazyLock::new(|| corpus::generate_vec(SIZE, 1, true));

fn input(name: &str) -> &'static [u8] {
    match name {
        "mixed" => &MIXED,
        _ => &ASCII,
    }
}

fn main() {
    divan::main();
}

/// The tokenizer alone over the whole input, no reader around it: the
/// floor under the reader's time.
#[divan::bench(args = ["mixed", "ascii"])]
fn tokenizer(bencher: Bencher, corpus: &str) {
    let data = input(corpus);
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| ctlpgn_filter::passes::bench_tokens(black_box(data)));
}

/// The whole filter, bytes in to canonical bytes out (to a sink).
#[divan::bench(args = ["mixed", "ascii"])]
fn filter(bencher: Bencher, corpus: &str) {
    let data = input(corpus);
    bencher
        .counter(BytesCount::new(data.len()))
        .with_inputs(Filter::default)
        .bench_local_values(|mut f| {
            let report = f
                .run(black_box(data), &mut std::io::sink(), &mut |_| {})
                .expect("a sink does not fail");
            assert_eq!(report.games_rejected, 0);
            report
        });
}
