//! The built-in passes, one module each, in their chain order.

mod ascii;
mod comments;
mod fan;
mod ratings;
mod redefine;
mod variations;

pub use ascii::AsciiSeparators;
pub use comments::DropComments;
pub use fan::FanToLetters;
pub use ratings::DropRatings;
pub use redefine::UndoRedefine;
pub use variations::DropVariations;

// Benchmark support (`benches/throughput.rs`), not part of the API.
#[doc(hidden)]
pub use crate::lexer::{bench_half_moves, bench_lex};
