//! Writes a seeded CTL-PGN corpus to standard output, for benchmarks:
//!
//! ```sh
//! cargo run --release --example gen_corpus -- --mb 200 --seed 1 > mixed.ctl-pgn
//! cargo run --release --example gen_corpus -- --mb 200 --shape annotated > annotated.ctl-pgn
//! ```
//!
//! Shapes (`--shape`, see `examples/support/corpus.rs`):
//!
//! - `mixed` (the default): the shapes of `corpus/` and the author's real
//!   games: tag sections one per line and flattened on one line, multi-line
//!   comments, nested variations, ratings and NAGs, `(=)`, Redefine and FAN
//!   games, U+2010 hyphens and ×, legacy `^+`, a PDTL in about one game in
//!   five.
//! - `ascii` (or `--ascii`): pure-ASCII canonical games: filtering them
//!   changes nothing.
//! - `annotated`: comments (some over several lines, some quoting whole
//!   games), variations nested three deep with leading dots and labels,
//!   ratings and NAGs, on main lines that `--verify` replays.
//! - `tags`: short canonical games, six to eight tags and 3 to 12
//!   half-moves each, a PDTL in a quarter of them: the cost of a tag line.
//! - `real`: the author's seven games of `corpus/real-*.ctl-pgn`, repeated.
//!
//! The same seed always gives the same bytes. Sizes are in MB of 10^6 bytes;
//! the output stops at the first game boundary past the size asked for.

#[path = "support/corpus.rs"]
mod corpus;

use corpus::Shape;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

const USAGE: &str =
    "usage: gen_corpus [--mb MB] [--seed N] [--shape mixed|ascii|annotated|tags|real] [--ascii]";

fn main() -> ExitCode {
    let mut mb = 10.0f64;
    let mut seed = 1u64;
    let mut shape = Shape::Mixed;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let ok = match a.as_str() {
            "--mb" => args.next().and_then(|v| v.parse().ok()).map(|v| mb = v),
            "--seed" => args.next().and_then(|v| v.parse().ok()).map(|v| seed = v),
            "--shape" => args
                .next()
                .and_then(|v| Shape::from_name(&v))
                .map(|s| shape = s),
            "--ascii" => {
                shape = Shape::Ascii;
                Some(())
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => None,
        };
        if ok.is_none() || mb.is_nan() || mb < 0.0 {
            eprintln!("gen_corpus: bad argument {a}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let bytes = (mb * 1e6) as u64;
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match shape.write(&mut out, bytes, seed).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_corpus: {e}");
            ExitCode::from(2)
        }
    }
}
