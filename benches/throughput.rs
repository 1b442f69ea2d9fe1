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

use ctlpgn_filter::passes::{bench_half_moves, bench_lex};
use ctlpgn_filter::{Context, Filter};
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

/// The logos lexer over every line, no reader around it.
#[divan::bench(args = ["mixed", "ascii"])]
fn lexer(bencher: Bencher, corpus: &str) {
    let data = input(corpus);
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| bench_lex(black_box(data)));
}

/// The six built-in passes and the move writer over the corpus's
/// half-moves (parsed beforehand); throughput counts the whole corpus.
#[divan::bench(args = ["mixed", "ascii"])]
fn pass_chain(bencher: Bencher, corpus: &str) {
    let data = input(corpus);
    let moves = bench_half_moves(data);
    bencher
        .counter(BytesCount::new(data.len()))
        .with_inputs(|| {
            let passes = ctlpgn_filter::passes::builtin();
            (passes, Context::default(), Vec::with_capacity(1 << 20))
        })
        .bench_local_values(|(mut passes, mut cx, mut out)| {
            for mv in &moves {
                let mut mv = *mv;
                for p in passes.iter_mut() {
                    p.half_move(&mut mv, &mut cx);
                }
                out.clear();
                mv.write_move(&mut out);
            }
            black_box(out.len())
        });
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
